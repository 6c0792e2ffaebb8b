// A typo in config.json must never block a command: every command that opens a project
// says what is wrong (file, key, expected) on stderr and goes on, the bad keys taking their
// defaults and the good ones their values. In-process CLI dispatch, real git.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rewind, type CliResult } from '../helpers/io.js';
import { treePaths } from '../helpers/shadow.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
let file: string;
beforeEach(() => {
  sb = createSandbox('rewind-config-problems-');
  file = path.join(sb.configDir, 'config.json');
});
afterEach(() => sb.cleanup());

/** A file with two good keys, a bad value and a typo'd key. */
const TYPO = '{\n  "checkpoint_max_file_mb": 1,\n  "checkpoint_exclude": ["*.log"],\n  "gc_every": "twenty",\n  "checkpoint_exlude": ["*.tmp"]\n}\n';

function typoWarnings(): string {
  return (
    `rewind: warning: ${file}: \`gc_every\` must be an integer >= 1 (got "twenty"), so its default 20 is used; fix the file\n` +
    `rewind: warning: ${file}: unknown key \`checkpoint_exlude\` is ignored (did you mean \`checkpoint_exclude\`?); rename or remove it in the file\n`
  );
}

/** The command ran, and its stderr begins with exactly the config's warnings. */
function expectWarnedAndRan(result: CliResult, warnings: string): void {
  expect(result.stderr.startsWith(warnings), result.stderr).toBe(true);
  expect(result.stderr).not.toContain('internal error');
  expect(result.code, result.stderr).toBe(0);
}

describe('a bad config.json', () => {
  it('is reported by snapshot, list, diff and restore, which all work with the good keys and the defaults', async () => {
    const root = sb.repo('typo');
    fs.writeFileSync(file, TYPO);
    write(root, 'a.txt', 'one\n');
    write(root, 'build.log', 'noise\n');
    write(root, 'big.bin', Buffer.alloc(2 * 1024 * 1024, 7));

    const snapshot = await rewind(['snapshot', '--json', '--label', 'before'], sb.env, root);
    expectWarnedAndRan(snapshot, typoWarnings());
    const record = JSON.parse(snapshot.stdout) as { id: number; tree: string; skipped: { path: string }[] };
    // checkpoint_exclude and checkpoint_max_file_mb (1 MiB) are in force.
    expect(treePaths(sb.open(root).repo.gitDir, record.tree)).toEqual(['README.md', 'a.txt']);
    expect(record.skipped.map((skipped) => skipped.path)).toEqual(['big.bin']);

    const list = await rewind(['list', '--json'], sb.env, root);
    expectWarnedAndRan(list, typoWarnings());
    expect(list.stdout).toContain('"before"');

    write(root, 'a.txt', 'two\n');
    const diff = await rewind(['diff', String(record.id)], sb.env, root);
    expectWarnedAndRan(diff, typoWarnings());
    expect(diff.stdout).toContain('-two');

    const restore = await rewind(['restore', String(record.id), '--yes'], sb.env, root);
    expectWarnedAndRan(restore, typoWarnings());
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('one\n');

    // redo opens the project the same way (its plan and --yes are its own business).
    const redo = await rewind(['redo'], sb.env, root);
    expect(redo.stderr.startsWith(typoWarnings()), redo.stderr).toBe(true);
    expect(redo.stderr).not.toContain('internal error');
    expect(fs.readFileSync(file, 'utf8')).toBe(TYPO);
  });

  it('that is not even JSON leaves an emergency restore working on all defaults, with one warning', async () => {
    const root = sb.repo('broken');
    write(root, 'a.txt', 'good\n');
    fs.writeFileSync(file, '{"gc_every": 5,,');
    const snapshot = await rewind(['snapshot', '--json'], sb.env, root);
    const warning = `rewind: warning: ${file} is not valid JSON (Expected double-quoted property name at line 1, column 16), ` +
      'so every setting takes its default; fix it by hand: rewind never rewrites a config file it cannot read\n';
    expectWarnedAndRan(snapshot, warning);
    write(root, 'a.txt', 'wrecked by the agent\n');
    const restore = await rewind(['restore', String((JSON.parse(snapshot.stdout) as { id: number }).id), '--yes'], sb.env, root);
    expectWarnedAndRan(restore, warning);
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('good\n');
    expect(fs.readFileSync(file, 'utf8')).toBe('{"gc_every": 5,,');
  });

  it('still fails `rewind config validate`', async () => {
    fs.writeFileSync(file, TYPO);
    const result = await rewind(['config', 'validate'], sb.env, sb.base);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^rewind: .*config\.json: unknown key `checkpoint_exlude`, did you mean `checkpoint_exclude`\?/);
  });
});
