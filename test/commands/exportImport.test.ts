// `rewind export` on one project, `rewind import` in a fresh clone with another REWIND_HOME,
// HOME and config (a second machine as far as Rewind can tell): the checkpoints show as an
// imported session, each restores exactly, a second import adds nothing, and a file that is
// cut short, damaged, foreign or missing an object changes nothing.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRows, rowText } from '../../src/app/picker/pickerRows.js';
import { pickerCheckpoints } from '../../src/runtime/restore/pickerData.js';
import { readArchive, writeArchive } from '../../src/services/transfer/archive.js';
import { fingerprint } from '../helpers/fingerprint.js';
import { rewind } from '../helpers/io.js';
import { write, type Sandbox } from '../helpers/tempRepo.js';
import { twoMachines } from '../helpers/twoMachines.js';

let here: Sandbox;
let there: Sandbox;
twoMachines('rewind-transfer-', (a, b) => {
  here = a;
  there = b;
});

/** A project's files without .git. */
function filesOf(root: string): Record<string, string> {
  return Object.fromEntries(Object.entries(fingerprint(root)).filter(([rel]) => !/^\.git(\/|$)/.test(rel)));
}

/** A project with four checkpoints over two sessions (one of them deduped), and its files at each. */
async function project(): Promise<{ root: string; at: Record<string, string>[] }> {
  const root = here.repo('proj');
  const engine = here.project(root);
  const at: Record<string, string>[] = [];
  write(root, 'src/app.js', 'console.log(1)\n');
  write(root, 'bin/run.sh', '#!/bin/sh\necho hi\n', 0o755);
  write(root, 'data.bin', Buffer.from([0, 1, 2, 255, 0]));
  fs.symlinkSync('bin/run.sh', path.join(root, 'link-to-run'));
  await engine.snapshot({ session: 'session-one', agent: 'claude', trigger: 'UserPromptSubmit', label: 'add the app' });
  at.push(filesOf(root));
  write(root, 'src/app.js', 'console.log(2)\n');
  write(root, 'untracked-only-in-checkpoints.txt', 'a blob no commit of the project has\n');
  write(root, 'bin/run.sh', '#!/bin/sh\necho changed\n', 0o644);
  fs.rmSync(path.join(root, 'data.bin'));
  await engine.snapshot({ session: 'session-one', agent: 'claude', trigger: 'PreToolUse:Bash', label: 'Bash rm data.bin' });
  at.push(filesOf(root));
  await engine.snapshot({ session: 'session-one', agent: 'claude', trigger: 'manual', label: 'the same files' });
  at.push(filesOf(root));
  write(root, 'dir with space/café ü.txt', 'unicode\n');
  fs.rmSync(path.join(root, 'link-to-run'));
  await engine.snapshot({ session: 'session-two', agent: 'codex', trigger: 'PreToolUse:Edit', label: 'Edit café' });
  at.push(filesOf(root));
  write(root, 'src/app.js', 'console.log(3)\n');
  return { root, at };
}

/** A fresh clone of `root` on the other machine. */
function cloneThere(root: string, name = 'clone'): string {
  const parent = there.folder('.');
  there.git(parent, 'clone', '-q', root, name);
  return path.join(parent, name);
}

async function listJson(sb: Sandbox, root: string): Promise<Record<string, unknown>[]> {
  const listed = await rewind(['list', '--json'], sb.env, root);
  expect(listed.code, listed.stderr).toBe(0);
  return JSON.parse(listed.stdout) as Record<string, unknown>[];
}

describe('rewind export and import', () => {
  it('carries every checkpoint to a clone on another machine: listed as imported, each restored exactly, twice adds nothing', async () => {
    const { root, at } = await project();
    const file = path.join(here.base, 'out.rewind');
    const exported = await rewind(['export', '-o', file], here.env, root);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain(`Exported checkpoints #1..#4 (4, 2 sessions) to ${file}`);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    const clone = cloneThere(root);
    const imported = await rewind(['import', file, '--json'], there.env, clone);
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ already: 0, added: [1, 2, 3, 4].map((id) => ({ id, from: 'proj', fromId: id })) });

    const source = await listJson(here, root);
    const copied = await listJson(there, clone);
    const kept = (rows: Record<string, unknown>[]) => rows.map(({ id, time, session, agent, trigger, label, kind }) => ({ id, time, session, agent, trigger, label, kind }));
    expect(kept(copied)).toEqual(kept(source));
    expect(copied.map((row) => row.imported)).toEqual([1, 2, 3, 4].map((id) => expect.objectContaining({ from: 'proj', id })));
    const text = (await rewind(['list'], there.env, clone)).stdout.split('\n').filter(Boolean);
    expect(text.map((line) => line.replace(/ {2}\(imported from proj\)$/, ''))).toEqual((await rewind(['list'], here.env, root)).stdout.split('\n').filter(Boolean));
    for (const line of text) expect(line).toMatch(/ {2}\(imported from proj\)$/);
    // The picker: the same rows as at home, under separators naming the imported sessions.
    const picker = buildRows(pickerCheckpoints(there.project(clone).list()), false).map((row) => rowText(row));
    expect(picker.filter((row) => row.startsWith('──'))).toEqual([expect.stringMatching(/^── imported from proj: session session-one · /), expect.stringMatching(/^── imported from proj: session session-two · /)]);
    expect(picker.filter((row) => !row.startsWith('──'))).toEqual(buildRows(pickerCheckpoints(here.project(root).list()), false).map((row) => rowText(row)).filter((row) => !row.startsWith('──')));

    // Twice: nothing added, the list and the shadow's refs as they were.
    const store = path.join(there.store, 'history');
    const [hash] = fs.readdirSync(store);
    const listFile = path.join(store, hash ?? '', 'checkpoints.jsonl');
    const before = fs.readFileSync(listFile);
    const refs = there.git(path.join(store, hash ?? '', 'repo.git'), 'for-each-ref');
    const again = await rewind(['import', file], there.env, clone);
    expect(again).toMatchObject({ code: 0, stdout: `Nothing to import: this project has all 4 checkpoint(s) of ${file} already.\n` });
    expect(fs.readFileSync(listFile)).toEqual(before);
    expect(there.git(path.join(store, hash ?? '', 'repo.git'), 'for-each-ref')).toBe(refs);

    // The shadow's chain goes on through them: each commit's parent is the checkpoint before it.
    const shadow = path.join(store, hash ?? '', 'repo.git');
    const records = there.open(clone).list();
    records.forEach((record, index) => {
      const parents = there.git(shadow, 'rev-list', '--parents', '-n', '1', record.commit).trim().split(' ').slice(1);
      const previous = records.slice(0, index).reverse().find((other) => other.commit !== record.commit);
      expect(parents, `#${record.id}`).toEqual(previous ? [previous.commit] : []);
      expect(there.git(shadow, 'log', '-1', '--format=%B', record.commit)).toContain(`Rewind-Checkpoint: ${record.deduped ? index : record.id}`);
    });

    // Every imported checkpoint restores exactly, in any order.
    for (const id of [2, 4, 1, 3]) {
      const restored = await rewind(['restore', String(id), '--files', '--yes'], there.env, clone);
      expect(restored.code, restored.stderr).toBe(0);
      expect(filesOf(clone), `#${id}`).toEqual(at[id - 1]);
    }
    // Still nothing to add after the restores (their redo points are the project's own).
    expect((await rewind(['import', file, '--json'], there.env, clone)).stdout).toMatch(/"already": 4/);
  });

  it('a range: only its checkpoints, standing alone (no earlier checkpoint travels), and a later import of more adds only the rest', async () => {
    const { root, at } = await project();
    const part = path.join(here.base, 'part.rewind');
    expect((await rewind(['export', '2..3', '-o', part], here.env, root)).code).toBe(0);
    const clone = cloneThere(root);
    const first = await rewind(['import', part, '--json'], there.env, clone);
    expect(JSON.parse(first.stdout)).toMatchObject({ added: [{ id: 1, fromId: 2 }, { id: 2, fromId: 3 }], already: 0 });
    // The bundle holds the range's own chain: #1's commit is not in it.
    const bundle = readArchive(fs.readFileSync(part), part).find((section) => section.name === 'checkpoints.bundle')?.bytes ?? Buffer.alloc(0);
    const firstCommit = String((await listJson(here, root))[0]?.commit);
    expect(bundle.includes(Buffer.from(firstCommit))).toBe(false);
    expect((await rewind(['restore', '1', '--files', '--yes'], there.env, clone)).code).toBe(0);
    expect(filesOf(clone)).toEqual(at[1]);

    const all = path.join(here.base, 'all.rewind');
    expect((await rewind(['export', '-o', all], here.env, root)).code).toBe(0);
    const more = await rewind(['import', all, '--json'], there.env, clone);
    expect(JSON.parse(more.stdout)).toMatchObject({ already: 2 });
    expect((JSON.parse(more.stdout) as { added: { fromId: number }[] }).added.map((row) => row.fromId)).toEqual([1, 4]);
  });

  it('says what it wrote (--json), refuses a bad range or no -o, and adds nothing back into the project it came from', async () => {
    const { root } = await project();
    const file = path.join(here.base, 'one.rewind');
    const one = await rewind(['export', '#3', '-o', file, '--json'], here.env, root);
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toEqual({ file, bytes: fs.statSync(file).size, from: 3, to: 3, checkpoints: [3], sessions: 1, conversation: false });
    expect(await rewind(['export', '3..2', '-o', file], here.env, root)).toMatchObject({ code: 2, stderr: "rewind: '3..2' runs backwards: name the older checkpoint first (2..3)\n" });
    expect(await rewind(['export', '9..', '-o', file], here.env, root)).toMatchObject({ code: 1, stderr: 'rewind: there are no checkpoints from #9 to #4 in this project: `rewind list` shows them\n' });
    expect((await rewind(['export'], here.env, root)).stderr).toBe('rewind: name the file to write with -o FILE (see `rewind export --help`)\n');
    expect((await rewind(['export', 'x..2', '-o', file], here.env, root)).code).toBe(2);
    const all = path.join(here.base, 'all.rewind');
    expect((await rewind(['export', '-o', all], here.env, root)).code).toBe(0);
    const listBefore = await listJson(here, root);
    expect(await rewind(['import', all], here.env, root)).toMatchObject({ code: 0, stdout: `Nothing to import: this project has all 4 checkpoint(s) of ${all} already.\n` });
    // -C DIR names the project, the file is where the command runs.
    expect(await rewind(['import', 'all.rewind', '-C', root], here.env, here.base)).toMatchObject({ code: 0, stdout: 'Nothing to import: this project has all 4 checkpoint(s) of all.rewind already.\n' });
    expect((await rewind(['export', '1..2', '-C', root, '-o', 'two.rewind'], here.env, here.base)).code).toBe(0);
    expect(fs.existsSync(path.join(here.base, 'two.rewind'))).toBe(true);
    expect(await listJson(here, root)).toEqual(listBefore);
    expect(await rewind(['import', path.join(here.base, 'none.rewind')], here.env, root)).toMatchObject({ code: 1, stderr: `rewind: ${path.join(here.base, 'none.rewind')} does not exist: name the file \`rewind export\` wrote\n` });
  });

  it('refuses a file cut short, damaged, foreign, or whose bundle lacks an object, in one line, and changes nothing', async () => {
    const { root } = await project();
    const file = path.join(here.base, 'out.rewind');
    expect((await rewind(['export', '-o', file], here.env, root)).code).toBe(0);
    const good = fs.readFileSync(file);
    const sections = readArchive(good, file);

    // A bundle with every commit and tree but without the blob only the checkpoints hold.
    const work = here.folder('bad-bundle');
    const bundleFile = path.join(work, 'in.bundle');
    fs.writeFileSync(bundleFile, sections.find((section) => section.name === 'checkpoints.bundle')?.bytes ?? '');
    here.git(work, 'init', '-q', '--bare', 'b.git');
    const gitDir = path.join(work, 'b.git');
    here.git(gitDir, 'fetch', '-q', bundleFile, 'refs/checkpoints/*:refs/checkpoints/*');
    const blob = here.git(gitDir, 'rev-parse', 'refs/checkpoints/2:untracked-only-in-checkpoints.txt').trim();
    const objects = here.git(gitDir, 'rev-list', '--objects', '--all').split('\n').map((line) => line.split(' ')[0] ?? '').filter((oid) => oid !== '' && oid !== blob);
    const pack = here.gitBytes(gitDir, ['pack-objects', '--stdout', '-q'], `${objects.join('\n')}\n`);
    const heads = here.git(gitDir, 'for-each-ref', '--format=%(objectname) %(refname)');
    const lacking = Buffer.concat([Buffer.from(`# v2 git bundle\n${heads}\n`), pack]);
    const withHole = writeArchive(sections.map((section) => (section.name === 'checkpoints.bundle' ? { name: section.name, bytes: lacking } : section)));

    const flipped = Buffer.from(good);
    const middle = Math.floor(good.length / 2);
    flipped[middle] = (good[middle] ?? 0) ^ 0x20;
    const cases: [string, Buffer, RegExp][] = [
      ['cut.rewind', good.subarray(0, Math.floor(good.length * 0.6)), /is damaged or cut short \(its checksum does not match\): nothing was imported/],
      ['flipped.rewind', flipped, /is damaged or cut short/],
      ['plain.bundle', sections.find((section) => section.name === 'checkpoints.bundle')?.bytes ?? Buffer.alloc(0), /is not a rewind export/],
      ['hole.rewind', withHole, /is incomplete \(missing blob object '[0-9a-f]{40}'\): nothing was imported; export it again/],
    ];
    const clone = cloneThere(root);
    const refuse = async () => {
      for (const [name, bytes, message] of cases) {
        const bad = path.join(there.base, name);
        fs.writeFileSync(bad, bytes);
        const storeBefore = fingerprint(there.store);
        const result = await rewind(['import', bad], there.env, clone);
        expect(result.code, name).toBe(1);
        expect(result.stderr, name).toMatch(message);
        expect(result.stderr.split('\n').filter(Boolean), name).toHaveLength(1);
        expect(fingerprint(there.store), name).toEqual(storeBefore);
      }
    };
    // Into a project with no store yet (none is made), then into one with checkpoints.
    await refuse();
    expect(fs.readdirSync(there.store)).toEqual([]);
    expect((await rewind(['import', file], there.env, clone)).code).toBe(0);
    await refuse();
  });

  it('a file naming one checkpoint twice adds it once; an entry whose time is no date is refused; control characters in its names never reach the terminal', async () => {
    const { root } = await project();
    const file = path.join(here.base, 'out.rewind');
    expect((await rewind(['export', '-o', file], here.env, root)).code).toBe(0);
    const sections = readArchive(fs.readFileSync(file), file);
    const manifestOf = (change: (manifest: { project: string; checkpoints: Record<string, unknown>[] }) => void) => {
      const manifest = JSON.parse(sections.find((section) => section.name === 'manifest.json')?.bytes.toString('utf8') ?? '{}') as { project: string; checkpoints: Record<string, unknown>[] };
      change(manifest);
      return writeArchive(sections.map((section) => (section.name === 'manifest.json' ? { name: section.name, bytes: Buffer.from(JSON.stringify(manifest)) } : section)));
    };
    const clone = cloneThere(root);
    const twice = path.join(there.base, 'twice.rewind');
    fs.writeFileSync(twice, manifestOf((manifest) => {
      manifest.project = 'evil\u001b[2Jproj';
      manifest.checkpoints.push({ ...manifest.checkpoints[0] });
    }));
    const imported = await rewind(['import', twice], there.env, clone);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).not.toContain('\u001b');
    const rows = await listJson(there, clone);
    expect(new Set(rows.map((row) => JSON.stringify(row.imported && (row.imported as { id: number }).id))).size).toBe(rows.length);
    const badTime = path.join(there.base, 'bad-time.rewind');
    fs.writeFileSync(badTime, manifestOf((manifest) => {
      (manifest.checkpoints[0] as { time: string }).time = 'yesterday';
    }));
    const refused = await rewind(['import', badTime], there.env, cloneThere(root, 'clone-two'));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/its checkpoint entry 1 is not one/);
  });
});

