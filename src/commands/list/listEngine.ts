// `rewind list` through the engine, when the list cannot be read from the store's files
// alone (list.ts): the store needs healing, a repair, a restore cut off said, retention due;
// or `--now`, the files as they are now (a scan of every file). In the built command line
// this is listEngine.cjs, the whole engine in a file of its own, required only then
// (scripts/postbuild.mjs).
import type { CheckpointRecord, CurrentTree, ProjectCheckpoints } from '../../checkpoints/index.js';
import type { RewindConfig } from '../../config/schema.js';
import { messageOf } from '../../shared/errors.js';
import { writeLine, type CommandIO } from '../shared/io.js';
import { openCheckpoints } from '../shared/open.js';

/** The list as the engine gives it, and the files now when asked (`now`). */
export interface EngineListing {
  records: CheckpointRecord[];
  spans: Pick<ProjectCheckpoints, 'spanChanges' | 'scanConfirmedThrough'>;
  now?: CurrentTree;
}

/**
 * The files as they are now against the newest checkpoint: `git add -A` into the shadow
 * index, under the lock. A failure is said; what changed since the newest stays unknown.
 */
async function readNow(checkpoints: ProjectCheckpoints, records: readonly CheckpointRecord[], io: CommandIO): Promise<CurrentTree | undefined> {
  if (records.length === 0) return undefined;
  try {
    return await checkpoints.currentTree();
  } catch (error) {
    writeLine(io.stderr, `rewind: warning: the files as they are now could not be read (${messageOf(error)}): what changed since #${records.at(-1)?.id} is not counted`);
    return undefined;
  }
}

/** Opens the engine (which recovers, repairs and applies retention as any command's opening does), then lists. */
export async function listThroughEngine(io: CommandIO, dir: string | undefined, config: RewindConfig, now: boolean): Promise<EngineListing> {
  const { checkpoints } = await openCheckpoints(io, dir, { allowHome: true, config });
  const repaired = await checkpoints.maintain();
  if (repaired && repaired.broken.length > 0) {
    writeLine(io.stderr, `rewind: checkpoint(s) ${repaired.broken.map((id) => `#${id}`).join(', ')} can no longer be restored: the project's own git gc pruned files they borrowed`);
  }
  const records = checkpoints.list();
  const files = now ? await readNow(checkpoints, records, io) : undefined;
  return { records, spans: checkpoints, ...(files ? { now: files } : {}) };
}
