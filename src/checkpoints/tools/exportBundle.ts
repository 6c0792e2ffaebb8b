// `rewind export`: the checkpoints of a range as a git bundle that holds every object they
// need, made in a scratch repository that borrows the shadow's objects (the shadow itself is
// never written), and their list entries.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../../shared/errors.js';
import { runGit, text } from '../git/git.js';
import type { Engine } from '../snapshot/engine.js';
import { whyUnrestorable, type CheckpointRecord } from '../store/record.js';
import { makeScratch, removeScratch } from '../store/scratchFolders.js';
import type { ExportedCheckpoints, TransferredCheckpoint } from './transferTypes.js';

/** A commit's text with its parent lines replaced by `parent` (none: a root commit). */
export function withParent(commitText: string, parent: string | undefined): string {
  const headerEnd = commitText.indexOf('\n\n');
  const header = headerEnd < 0 ? commitText : commitText.slice(0, headerEnd);
  const rest = headerEnd < 0 ? '' : commitText.slice(headerEnd);
  const lines = header.split('\n').filter((line) => !line.startsWith('parent '));
  if (parent !== undefined) lines.splice(1, 0, `parent ${parent}`);
  return `${lines.join('\n')}${rest}`;
}

/** The object id git gives a commit of this text (the shadow's objects are SHA-1). */
function commitId(commitText: Buffer): string {
  return createHash('sha1').update(`commit ${commitText.length}\0`).update(commitText).digest('hex');
}

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
    const rewritten = new Map<string, string>();
    const files: string[] = [];
    let parent: string | undefined;
    for (const record of records) {
      if (rewritten.has(record.commit)) continue;
      const original = (await git(['cat-file', 'commit', record.commit])).stdout.toString('utf8');
      const body = Buffer.from(withParent(original, parent), 'utf8');
      const file = path.join(scratch, `commit-${files.length}`);
      fs.writeFileSync(file, body);
      files.push(file);
      parent = commitId(body);
      rewritten.set(record.commit, parent);
    }
    const written = text(await git(['hash-object', '-t', 'commit', '-w', '--stdin-paths'], `${files.join('\n')}\n`)).split('\n');
    if (written.join() !== [...rewritten.values()].join()) throw new Error(`git wrote the export's commits as ${written.join(', ')}, not as computed`);
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
