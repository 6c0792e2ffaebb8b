// `rewind export`: the checkpoints of a range as a git bundle that holds every object they
// need, made in a scratch repository that borrows the shadow's objects (the shadow itself is
// never written), and their list entries.
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../../shared/errors.js';
import { runGit, text } from '../git/git.js';
import type { Engine } from '../snapshot/engine.js';
import { whyUnrestorable, type CheckpointRecord } from '../store/record.js';
import { makeScratch, removeScratch } from '../store/scratchFolders.js';
import type { ExportedCheckpoints, TransferredCheckpoint } from './transferTypes.js';

/** The checkpoints with ids from `from` to `to`, each restorable. */
function rangeOf(engine: Engine, from: number, to: number): CheckpointRecord[] {
  const records = engine.list().filter((record) => record.id >= from && record.id <= to);
  if (records.length === 0) throw new UserError(`there are no checkpoints from #${from} to #${to} in this project: \`rewind list\` shows them`);
  for (const record of records) {
    const why = whyUnrestorable(record);
    if (why) throw new UserError(`checkpoint #${record.id} cannot be exported (${why}): export a range without it`);
  }
  return records;
}

/**
 * The checkpoints `from`..`to` as one bundle. Their commits are rewritten as a chain of
 * their own (the first without a parent, each next one on the one before; tree, author,
 * time and message kept), so the bundle needs nothing the range does not hold: no earlier
 * checkpoint's files travel with it. Each is under `refs/checkpoints/<its id>`.
 */
export async function exportCheckpoints(engine: Engine, from: number, to: number): Promise<ExportedCheckpoints> {
  const records = rangeOf(engine, from, to);
  const scratch = makeScratch(engine);
  try {
    const gitDir = path.join(scratch, 'export.git');
    const env = engine.repo.env;
    const git = (args: readonly string[], input?: string) => runGit([`--git-dir=${gitDir}`, ...args], { cwd: scratch, env, input });
    await runGit(['init', '--bare', '-q', '--template=', gitDir], { cwd: scratch, env });
    fs.writeFileSync(path.join(gitDir, 'objects', 'info', 'alternates'), `${path.join(engine.repo.gitDir, 'objects')}\n`, { mode: 0o600 });
    // Each commit again by git's own commit-tree, its message and dates kept, on the one before.
    const rewritten = new Map<string, string>();
    let parent: string | undefined;
    for (const record of records) {
      if (rewritten.has(record.commit)) continue;
      const original = await git(['cat-file', '-e', `${record.commit}^{commit}`]).catch(() => undefined);
      if (!original) throw new UserError(`checkpoint #${record.id}'s commit ${record.commit} is missing from the store: export a range without it`);
      const message = (await git(['log', '-1', '--format=%B', record.commit])).stdout;
      const dated = { ...env, GIT_AUTHOR_DATE: record.time, GIT_COMMITTER_DATE: record.time };
      const made = await runGit([`--git-dir=${gitDir}`, 'commit-tree', '--no-gpg-sign', ...(parent ? ['-p', parent] : []), record.tree, '-F', '-'], { cwd: scratch, env: dated, input: message });
      parent = text(made);
      rewritten.set(record.commit, parent);
    }
    const checkpoints: TransferredCheckpoint[] = records.map((record) => {
      const { imported, unrestorable: _unrestorable, lost: _lost, fromChangedPaths: _partial, ...entry } = record;
      const origin = imported ? { from: imported.from, id: imported.id, commit: imported.commit } : { from: path.basename(engine.project.root), id: record.id, commit: record.commit };
      return { ...entry, commit: rewritten.get(record.commit) as string, origin };
    });
    await git(['update-ref', '--stdin'], checkpoints.map((entry) => `create refs/checkpoints/${entry.id} ${entry.commit}\n`).join(''));
    const bundleFile = path.join(scratch, 'export.bundle');
    await git(['bundle', 'create', '-q', bundleFile, '--all']);
    return { bundle: fs.readFileSync(bundleFile), checkpoints };
  } finally {
    removeScratch(scratch);
  }
}
