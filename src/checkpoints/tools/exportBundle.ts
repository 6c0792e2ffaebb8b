// `rewind export`: the checkpoints of a range as a git bundle that holds every object they
// need, made in a scratch repository that borrows the shadow's objects (the shadow itself is
// never written), and their list entries.
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../../shared/errors.js';
import { ObjectReader } from '../git/catFile.js';
import { runGit } from '../git/git.js';
import type { Engine } from '../snapshot/engine.js';
import { whyUnrestorable, type CheckpointRecord } from '../store/record.js';
import { makeScratch, removeScratch } from '../store/scratchFolders.js';
import { commitId, withParent, writeCommits } from './commitObjects.js';
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
    const originals = [...new Set(records.map((record) => record.commit))];
    const reader = new ObjectReader([`--git-dir=${gitDir}`], { cwd: scratch, env }, true);
    const read = await Promise.all(originals.map((oid) => reader.read(oid))).finally(() => reader.close());
    const rewritten = new Map<string, string>();
    const texts: string[] = [];
    let parent: string | undefined;
    for (const object of read) {
      if ('missing' in object || object.type !== 'commit') throw new UserError(`checkpoint commit ${object.oid} is missing from the store: export a range without it`);
      const body = withParent(object.data.toString('utf8'), parent);
      texts.push(body);
      parent = commitId(body);
      rewritten.set(object.oid, parent);
    }
    await writeCommits(git, scratch, texts);
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
