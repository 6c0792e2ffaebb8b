// The first snapshot's script is started before its arguments are known: it answers its
// first command early, snapshots with the arguments it is given later, and exits untouched
// when it is let go.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseScriptOutput, startWaitingScript } from '../../src/checkpoints/snapshotScript.js';
import { shadowGit } from '../helpers/shadow.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-waiting-');
});
afterEach(() => sb.cleanup());

const pathEnv = `PATH=${process.env.PATH ?? '/usr/bin:/bin'}`;

describe('waiting snapshot script', () => {
  it('the first checkpoint, made by it, has the commit message the engine wrote', async () => {
    const root = sb.repo('first');
    const checkpoints = sb.open(root);
    const { record } = await checkpoints.snapshot({ label: "a label with 'quotes', $dollars and\nlines", trigger: 'manual' });
    expect(shadowGit(checkpoints.repo.gitDir, 'log', '-1', '--format=%B', record.commit)).toBe(
      "a label with 'quotes', $dollars and lines\n\nRewind-Checkpoint: 1\nRewind-Trigger: manual\n\n",
    );
  });

  it('answers its first command before it has arguments, then commits with the ones it is given', async () => {
    const root = sb.repo('run');
    const checkpoints = sb.open(root);
    const first = await checkpoints.snapshot();
    const gitDir = checkpoints.repo.gitDir;
    const waiting = startWaitingScript(checkpoints.repo, undefined, [pathEnv, 'printf', 'asked early']);
    expect((await waiting.firstOutput)?.toString()).toBe('asked early');

    write(root, 'new.txt', 'new\n');
    const message = 'subject\n\nbody with $HOME and `ticks`\n';
    const run = waiting.run({ prevCommit: first.record.commit, prevTree: first.record.tree, ref: 'refs/checkpoints/2', mode: 'commit', diff: false, list: false, message });
    const output = parseScriptOutput((await run).stdout);
    expect(output.kind).toBe('new');
    expect(output.staged).toEqual([{ action: 'add', path: 'new.txt' }]);
    expect(shadowGit(gitDir, 'rev-parse', 'refs/checkpoints/2').trim()).toBe(output.commit);
    expect(shadowGit(gitDir, 'rev-parse', `${output.commit}^`).trim()).toBe(first.record.commit);
    expect(shadowGit(gitDir, 'log', '-1', '--format=%B', output.commit ?? '')).toBe(`${message}\n`);
    await waiting.cancel();
  });

  it('let go without arguments, it exits and changes nothing', async () => {
    const root = sb.repo('cancel');
    const checkpoints = sb.open(root);
    await checkpoints.snapshot();
    const gitDir = checkpoints.repo.gitDir;
    write(root, 'new.txt', 'new\n');
    const refsBefore = shadowGit(gitDir, 'for-each-ref');
    const indexBefore = shadowGit(gitDir, 'ls-files', '-s');
    const waiting = startWaitingScript(checkpoints.repo, undefined, [pathEnv, 'true']);
    await waiting.cancel();
    expect(shadowGit(gitDir, 'for-each-ref')).toBe(refsBefore);
    expect(shadowGit(gitDir, 'ls-files', '-s')).toBe(indexBefore);
  });

  it('refuses arguments that would not survive its one line', async () => {
    const root = sb.repo('spaces');
    const checkpoints = sb.open(root);
    const waiting = startWaitingScript(checkpoints.repo, undefined, [pathEnv, 'true']);
    expect(() => waiting.run({ ref: 'refs/checkpoints/a b', mode: 'commit', diff: false, list: false, message: '' })).toThrow(/white space/);
    await waiting.cancel();
  });
});
