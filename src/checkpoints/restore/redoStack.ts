import { runGit, text } from '../git.js';
import type { ShadowRepo } from '../shadowRepo.js';

/**
 * The redo stack: refs `refs/rewind/redo/<seq>-<checkpoint id>`, one per restore, each
 * pinning the checkpoint that holds the files as they were just before that restore.
 * `rewind redo` takes the top one.
 */
export interface RedoPoint {
  seq: number;
  checkpoint: number;
  ref: string;
}

const prefix = 'refs/rewind/redo/';

export async function readRedoStack(repo: ShadowRepo): Promise<RedoPoint[]> {
  const listed = await runGit([`--git-dir=${repo.gitDir}`, 'for-each-ref', '--format=%(refname)', prefix], { cwd: repo.store.root, env: repo.env });
  const points: RedoPoint[] = [];
  for (const ref of text(listed).split('\n')) {
    const match = /^refs\/rewind\/redo\/(\d+)-(\d+)$/.exec(ref);
    if (match) points.push({ seq: Number(match[1]), checkpoint: Number(match[2]), ref });
  }
  return points.sort((a, b) => a.seq - b.seq);
}

export async function pushRedoPoint(repo: ShadowRepo, checkpoint: number, commit: string): Promise<RedoPoint> {
  const stack = await readRedoStack(repo);
  const seq = (stack.at(-1)?.seq ?? 0) + 1;
  const ref = `${prefix}${seq}-${checkpoint}`;
  await runGit([`--git-dir=${repo.gitDir}`, 'update-ref', ref, commit], { cwd: repo.store.root, env: repo.env });
  return { seq, checkpoint, ref };
}

export async function dropRedoPoint(repo: ShadowRepo, point: RedoPoint): Promise<void> {
  await runGit([`--git-dir=${repo.gitDir}`, 'update-ref', '-d', point.ref], { cwd: repo.store.root, env: repo.env });
}
