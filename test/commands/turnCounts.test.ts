// A turn's count is what its whole turn changed (one diff from its prompt's checkpoint to its
// end), not the union of its checkpoints' changes; a turn's end is marked by the agent's Stop
// hook (an `end` checkpoint), so the user's edit right after it is a row of its own and the
// agent's writes that settled in two bursts stay one step. Driven through the built `rewind
// hook` (the hook an agent runs when the app is not there) and `rewind snapshot`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readProjectCheckpointList } from '../../src/checkpoints/index.js';
import { builtCli, requireBuiltCli } from '../helpers/restoreKit.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeAll(() => requireBuiltCli());
beforeEach(() => {
  sb = createSandbox('rewind-turn-counts-');
});
afterEach(() => sb.cleanup());

interface Row {
  id: number;
  trigger: string;
  files: number | null;
  kind: string;
  turn: number | null;
  foldedInto: number | null;
}

/** The built `rewind` in `root` (exit 0, its stdout), and Claude Code's hook through it, as an agent without the app runs it. */
function builtIn(root: string): { cli: (args: string[], input?: string) => string; hook: (event: string, fields: Record<string, unknown>) => string } {
  const env = { ...sb.env, REWIND_SESSION: 'app-session', CLAUDE_CONFIG_DIR: path.join(sb.base, 'claude') };
  const cli = (args: string[], input?: string) => {
    const result = spawnSync(process.execPath, [builtCli, ...args], { cwd: root, env, input, encoding: 'utf8', timeout: 60_000 });
    expect(result.status, result.stderr).toBe(0);
    return result.stdout;
  };
  const hook = (event: string, fields: Record<string, unknown>) => cli(['hook', 'claude', event], JSON.stringify({ session_id: 'claude-1', cwd: root, hook_event_name: event, ...fields }));
  return { cli, hook };
}

describe('a turn with its end marked', () => {
  it('counts what the turn changed (a file made and removed inside it is none), its tool step takes in both bursts, and the edit after its end is its own row', () => {
    const root = sb.repo('turn');
    const { cli, hook } = builtIn(root);

    hook('UserPromptSubmit', { prompt: 'build it' });
    hook('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'make' } });
    write(root, 'tmp.o', 'scratch\n');
    write(root, 'out.bin', 'one\n');
    cli(['snapshot', '--trigger', 'watch']);
    fs.rmSync(path.join(root, 'tmp.o'));
    write(root, 'app.bin', 'two\n');
    hook('Stop', { stop_hook_active: false });
    write(root, 'README.md', '# project\n\nmine\n');
    cli(['snapshot', '--trigger', 'watch']);

    const rows = JSON.parse(cli(['list', '--json', '--now'])) as Row[];
    const expected = [
      { id: 1, trigger: 'UserPromptSubmit', files: 2, kind: 'turn', turn: null, foldedInto: null },
      { id: 2, trigger: 'PreToolUse:Bash', files: 2, kind: 'tool', turn: 1, foldedInto: null },
      { id: 3, trigger: 'watch', files: 2, kind: 'folded', turn: null, foldedInto: 2 },
      { id: 4, trigger: 'end', files: 1, kind: 'outside', turn: null, foldedInto: null },
      { id: 5, trigger: 'watch', files: 0, kind: 'folded', turn: null, foldedInto: 4 },
    ];
    const shape = (listed: Row[]) => listed.map(({ id, trigger, files, kind, turn, foldedInto }) => ({ id, trigger, files, kind, turn, foldedInto }));
    expect(shape(rows)).toEqual(expected);
    // Without --now the files are not read: the same steps, counted up to the newest checkpoint; its own step (since it) unknown.
    expect(shape(JSON.parse(cli(['list', '--json'])) as Row[])).toEqual(expected.map((row) => (row.id === 5 ? { ...row, files: null } : row)));
    const listed = cli(['list']);
    expect(listed).toMatch(/#1 .* 2 files +prompt: build it {2}\(1 step\(s\)\)/);
    expect(listed).toMatch(/#2 .* 2 files +Bash make/);
    expect(listed).toMatch(/#4 .* 1 file +edits outside any step: 1 edited: README\.md/);

    // `rewind show` of the tool step shows both bursts: from #2 to the end of the turn.
    const shown = cli(['show', '2', '--name-status']);
    expect(shown.split('\n').filter(Boolean).sort()).toEqual(['A\tapp.bin', 'A\tout.bin']);
  });
});

describe('a turn still under way (its last step the newest checkpoint)', () => {
  it('without --now counts the turn up to the newest checkpoint and leaves the step since it unknown; --now counts both to the files now', () => {
    const root = sb.repo('under-way');
    const { cli, hook } = builtIn(root);

    hook('UserPromptSubmit', { prompt: 'build it' });
    hook('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'make' } });
    write(root, 'out.bin', 'one\n');
    hook('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'make test' } });
    write(root, 'report.txt', 'ok\n');

    const counts = (args: string[]) => (JSON.parse(cli(['list', '--json', ...args])) as Row[]).map(({ id, kind, files }) => ({ id, kind, files }));
    expect(counts([])).toEqual([
      { id: 1, kind: 'turn', files: 1 },
      { id: 2, kind: 'tool', files: 1 },
      { id: 3, kind: 'tool', files: null },
    ]);
    expect(counts(['--now'])).toEqual([
      { id: 1, kind: 'turn', files: 2 },
      { id: 2, kind: 'tool', files: 1 },
      { id: 3, kind: 'tool', files: 1 },
    ]);
    const listed = cli(['list']);
    expect(listed).toMatch(/#1 .* 1 file +prompt: build it {2}\(2 step\(s\)\)/);
    expect(listed).toMatch(/#3 .* \? +Bash make test/);
  });
});

describe('spanChanges (the diff of many tree pairs in one git call)', () => {
  it('reads each pair apart, with no change, and with names git would quote (a newline, a capital letter alone)', async () => {
    const root = sb.repo('spans');
    const engine = sb.project(root);
    const first = (await engine.snapshot({ trigger: 'manual', label: 'one' })).record;
    write(root, 'M', 'a file named like a status\n');
    write(root, 'odd\nname.txt', 'x\n');
    fs.rmSync(path.join(root, 'README.md'));
    const second = (await engine.snapshot({ trigger: 'manual', label: 'two' })).record;
    const pairs: [string, string][] = [
      [first.tree, second.tree],
      [second.tree, second.tree],
      [second.tree, first.tree],
    ];
    const expected = [
      { paths: ['M', 'README.md', 'odd\nname.txt'], changes: { added: 2, modified: 0, deleted: 1 } },
      { paths: [], changes: { added: 0, modified: 0, deleted: 0 } },
      { paths: ['M', 'README.md', 'odd\nname.txt'], changes: { added: 1, modified: 0, deleted: 2 } },
    ];
    expect(await engine.spanChanges(pairs)).toEqual(expected);
    // The list's own reader runs that git synchronously: the same answer.
    fs.rmSync(path.join(engine.storeRoot, 'spans.json'));
    const list = await readProjectCheckpointList(root, { days: 14, maxGb: 2 }, sb.env);
    expect(await list?.spanChanges(pairs)).toEqual(expected);
    expect(fs.existsSync(path.join(engine.storeRoot, 'spans.json'))).toBe(true);
  });
});

describe('spanChanges, asked again', () => {
  it('answers from what it kept (spans.json), with no git; a pair not kept asks git; a cache it did not write is not trusted', async () => {
    const root = sb.repo('kept');
    const engine = sb.project(root);
    const first = (await engine.snapshot({ trigger: 'manual', label: 'one' })).record;
    write(root, 'a.txt', 'a\n');
    const second = (await engine.snapshot({ trigger: 'manual', label: 'two' })).record;
    write(root, 'b.txt', 'b\n');
    const third = (await engine.snapshot({ trigger: 'manual', label: 'three' })).record;
    const pairs: [string, string][] = [
      [first.tree, second.tree],
      [first.tree, third.tree],
    ];
    const answer = [
      { paths: ['a.txt'], changes: { added: 1, modified: 0, deleted: 0 } },
      { paths: ['a.txt', 'b.txt'], changes: { added: 2, modified: 0, deleted: 0 } },
    ];
    expect(await engine.spanChanges(pairs)).toEqual(answer);

    // The same pairs with git gone from PATH: read from the store.
    const noGit = sb.open(root, {}, { PATH: path.join(sb.base, 'no-git-here') });
    expect(await noGit.spanChanges(pairs)).toEqual(answer);
    await expect(noGit.spanChanges([[second.tree, third.tree]])).rejects.toThrow(/git/);

    // A cache that says something else than what it writes is not read: git answers.
    const kept = path.join(engine.storeRoot, 'spans.json');
    fs.writeFileSync(kept, JSON.stringify({ [`${first.tree} ${second.tree}`]: { paths: 'a.txt', changes: {} } }));
    await expect(noGit.spanChanges(pairs)).rejects.toThrow(/git/);
    expect(await engine.spanChanges(pairs)).toEqual(answer);
    expect(await noGit.spanChanges(pairs)).toEqual(answer);

    // git's diff of two trees reads no index (the shadow's holds every file of the project): a damaged one changes nothing.
    fs.rmSync(kept);
    fs.writeFileSync(sb.open(root).repo.indexFile, 'not an index');
    expect(await engine.spanChanges(pairs)).toEqual(answer);
  });
});

