// An export's bundle checked whole before an import writes anything: in a throwaway
// repository of its own (outside the store), never in the shadow.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { messageOf, UserError } from '../../shared/errors.js';
import { GitError, runGit, text } from '../git/git.js';
import type { TransferredCheckpoint } from './transferTypes.js';

/** The first line git gave of why (without the `fatal:`/`error:` prefix). */
function gitSaid(error: unknown): string {
  const said = error instanceof GitError ? error.stderr.split('\n').map((line) => line.trim()).find((line) => /^(fatal|error):/.test(line)) : undefined;
  return (said ?? messageOf(error)).replace(/^(fatal|error):\s*/, '');
}

/**
 * Checks that `bundleFile` is a git bundle (`git bundle verify`) that holds every object its
 * checkpoints need (fetched into an empty repository: git's connectivity check refuses a
 * missing one) and that each entry's commit is there with the tree the entry names. Throws a
 * one-line UserError otherwise. `where`: the file as the user named it.
 */
export async function checkBundle(bundleFile: string, checkpoints: readonly TransferredCheckpoint[], env: Record<string, string>, where: string): Promise<void> {
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'rewind-import-check-'));
  try {
    const gitDir = path.join(temp, 'check.git');
    const git = (args: readonly string[], input?: string) => runGit([`--git-dir=${gitDir}`, ...args], { cwd: temp, env, input });
    await runGit(['init', '--bare', '-q', '--template=', gitDir], { cwd: temp, env });
    try {
      await git(['bundle', 'verify', '-q', bundleFile]);
    } catch (error) {
      throw new UserError(`${where} holds no readable git bundle (${gitSaid(error)}): nothing was imported; export it again`);
    }
    try {
      await git(['fetch', '-q', '--no-tags', '--no-write-fetch-head', bundleFile, 'refs/checkpoints/*:refs/checkpoints/*']);
    } catch (error) {
      throw new UserError(`${where} is incomplete (${gitSaid(error)}): nothing was imported; export it again`);
    }
    if (checkpoints.length === 0) return;
    // One `cat-file --batch-check` for every entry's tree (`<commit>^{tree}` each line).
    const answers = text(await git(['cat-file', '--batch-check=%(objectname) %(objecttype)'], `${checkpoints.map((entry) => `${entry.commit}^{tree}`).join('\n')}\n`)).split('\n');
    checkpoints.forEach((entry, index) => {
      const [tree, type] = (answers[index] ?? '').split(' ');
      if (type !== 'tree') throw new UserError(`${where} lists checkpoint #${entry.id}, which its bundle does not hold: nothing was imported; export it again`);
      if (tree !== entry.tree) throw new UserError(`${where} says checkpoint #${entry.id} holds tree ${entry.tree}, its bundle ${tree}: nothing was imported; export it again`);
    });
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
}
