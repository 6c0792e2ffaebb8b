// Reading what record.sh wrote, and the payload fixtures made from it: one file per event
// (per event and tool for tool events) under test/fixtures/hooks/<agent>/ (headless runs)
// and test/fixtures/hooks/<agent>/tui/ (the TUI in a pty), temp paths
// replaced by placeholders. Fixtures are written only when REWIND_UPDATE_HOOK_FIXTURES=1;
// otherwise a test checks that the committed ones still have the shapes the agent sends.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { repoRoot } from './world.js';

export interface HookRecord {
  /** The event the hook was configured for. */
  event: string;
  /** The payload as the agent sent it. */
  raw: string;
  payload: Record<string, unknown>;
  /** The hook's environment. */
  env: Record<string, string>;
  /** The project as the hook saw it: relative path to content. */
  tree: Record<string, string>;
}

/** Every file under `dir` (relative path to UTF-8 content), sorted by path. */
export function readTree(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (sub: string) => {
    for (const entry of fs.readdirSync(path.join(dir, sub), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const relative = path.join(sub, entry.name);
      if (entry.isDirectory()) {
        if (relative !== '.git') walk(relative);
      } else files[relative] = fs.readFileSync(path.join(dir, relative), 'utf8');
    }
  };
  walk('');
  return files;
}

function parseEnv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) env[line.slice(0, at)] = line.slice(at + 1);
  }
  return env;
}

/** The hook calls recorded under `out`, in order of arrival (none if no hook ever ran). */
export function readHookRecords(out: string): HookRecord[] {
  if (!fs.existsSync(out)) return [];
  return fs
    .readdirSync(out)
    .filter((name) => !name.startsWith('.'))
    .sort()
    .map((name) => {
      const dir = path.join(out, name);
      const raw = fs.readFileSync(path.join(dir, 'payload.json'), 'utf8');
      const tree = fs.existsSync(path.join(dir, 'tree')) ? readTree(path.join(dir, 'tree')) : {};
      return { event: fs.readFileSync(path.join(dir, 'event'), 'utf8').trim(), raw, payload: JSON.parse(raw) as Record<string, unknown>, env: parseEnv(fs.readFileSync(path.join(dir, 'env'), 'utf8')), tree };
    });
}

/** The fixture name of a record: `<event>.json`, or `<event>.<tool>.json` for tool events. */
export function fixtureName(record: HookRecord): string {
  const tool = record.payload.tool_name;
  return typeof tool === 'string' ? `${record.event}.${tool}.json` : `${record.event}.json`;
}

/** Claude's transcript folder name for a project: every character not a letter or digit becomes `-`. */
export function claudeSlug(dir: string): string {
  return dir.replace(/[^a-zA-Z0-9]/g, '-');
}

/** `text` with each `[real, placeholder]` replaced (longest real path first). */
export function scrub(text: string, replacements: readonly (readonly [string, string])[]): string {
  let out = text;
  for (const [real, placeholder] of [...replacements].sort((a, b) => b[0].length - a[0].length)) out = out.replaceAll(real, placeholder);
  return out;
}

/** The first record of each fixture name, scrubbed and pretty-printed. */
export function fixturesOf(records: readonly HookRecord[], replacements: readonly (readonly [string, string])[]): Map<string, string> {
  const fixtures = new Map<string, string>();
  for (const record of records) {
    const name = fixtureName(record);
    if (!fixtures.has(name)) fixtures.set(name, `${JSON.stringify(JSON.parse(scrub(record.raw, replacements)), null, 2)}\n`);
  }
  return fixtures;
}

/** The folder of a fixture set: `claude`, `claude/tui`, … */
export const fixturesDir = (set: string) => path.join(repoRoot, 'test', 'fixtures', 'hooks', set);

/** Whether this run refreshes the committed fixtures. */
export const updatingFixtures = process.env.REWIND_UPDATE_HOOK_FIXTURES === '1';

/**
 * Writes `fixtures` into the agent's fixture folder (headless and interactive runs each add
 * theirs): new names, and those whose shape changed. Ids and times differ on every run; a
 * fixture of the same shape is left as it is.
 */
export function writeFixtures(set: string, fixtures: ReadonlyMap<string, string>): void {
  const dir = fixturesDir(set);
  fs.mkdirSync(dir, { recursive: true });
  const committed = committedFixtures(set);
  for (const [name, text] of fixtures) {
    const old = committed.get(name);
    if (old === undefined || shapeOf(JSON.parse(old)).join('\n') !== shapeOf(JSON.parse(text)).join('\n')) fs.writeFileSync(path.join(dir, name), text);
  }
}

/** The committed fixtures of a set. */
export function committedFixtures(set: string): Map<string, string> {
  const dir = fixturesDir(set);
  if (!fs.existsSync(dir)) return new Map();
  return new Map(fs.readdirSync(dir).filter((name) => name.endsWith('.json')).sort().map((name) => [name, fs.readFileSync(path.join(dir, name), 'utf8')]));
}

/** A payload's shape: each key path with the type of its value (values themselves vary per run). */
export function shapeOf(value: unknown, at = ''): string[] {
  if (Array.isArray(value)) return [`${at}: array`, ...value.slice(0, 1).flatMap((item) => shapeOf(item, `${at}[]`))];
  if (typeof value === 'object' && value !== null) return [`${at}: object`, ...Object.keys(value).sort().flatMap((key) => shapeOf((value as Record<string, unknown>)[key], `${at}.${key}`))];
  return [`${at}: ${value === null ? 'null' : typeof value}`];
}

/** Every payload just captured has a committed fixture of the same shape. */
export function expectFixturesCurrent(set: string, fixtures: ReadonlyMap<string, string>): void {
  const committed = committedFixtures(set);
  expect([...fixtures.keys()].filter((name) => !committed.has(name)), `fixtures missing in ${fixturesDir(set)}`).toEqual([]);
  for (const [name, text] of fixtures) expect(shapeOf(JSON.parse(text)), name).toEqual(shapeOf(JSON.parse(committed.get(name) ?? 'null')));
}
