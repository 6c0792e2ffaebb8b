import type { Engine } from '../snapshot/engine.js';
import { whyUnrestorable, type CheckpointRecord } from '../store/record.js';
import { pathspecs } from '../restore/planRestore.js';
import { UserError } from '../../shared/errors.js';
import { readSpanCache, spanKey, writeSpanCache, type SpanChange } from './spanCache.js';

export type { SpanChange } from './spanCache.js';

/** What one checkpoint's step changed. */
export interface StepDiff {
  record: CheckpointRecord;
  /** The checkpoint the step ends at, or null: the files as they are now (the newest's step). */
  to: CheckpointRecord | null;
  /** Checkpoints passed over because they can no longer be restored. */
  passedOver: number[];
  diff: Buffer;
}

/**
 * The step of checkpoint `id`: from its files to the next checkpoint's (the next one that
 * can still be read), or to the files as they are now for the newest. `git diff-tree` in
 * `format` (`-p`, `--name-status`, colours), limited to `only`. A step that takes in later
 * checkpoints (`through`: the last of them) ends at the one after that.
 */
export async function stepDiff(engine: Engine, id: number, only: readonly string[], format: readonly string[], through = id): Promise<StepDiff> {
  const records = engine.list();
  const index = records.findIndex((record) => record.id === Math.max(id, through));
  const record = engine.get(id);
  const why = whyUnrestorable(record);
  if (why) throw new UserError(`checkpoint #${id}'s step cannot be shown: ${why}`);
  const later = records.slice(index + 1);
  const toIndex = later.findIndex((entry) => !entry.unrestorable);
  const to = toIndex < 0 ? null : (later[toIndex] as CheckpointRecord);
  const passedOver = (toIndex < 0 ? later : later.slice(0, toIndex)).map((entry) => entry.id);
  const toTree = to ? to.tree : (await engine.currentTree()).tree;
  const result = await engine.repo.git(['diff-tree', '-r', '--no-renames', ...format, record.tree, toTree, ...pathspecs(only)]).catch((error: unknown) => {
    throw new UserError(`the step of #${id} could not be read (its files may have been pruned): ${(error as Error).message}`, { cause: error });
  });
  return { record, to, passedOver, diff: result.stdout };
}

const statusKinds: Record<string, keyof SpanChange['changes']> = { A: 'added', D: 'deleted' };

/**
 * What changed from each pair's first tree to its second (a step that spans several
 * checkpoints: a turn, the agent's writes in two bursts): as read before (spanCache.ts), the
 * rest in one `git diff-tree --stdin`, kept for the next time. `sync`: that git is run
 * synchronously (a command with nothing else to do: see runGitSync).
 */
export async function spanChanges(engine: Pick<Engine, 'repo' | 'store'>, pairs: readonly (readonly [string, string])[], options: { sync?: boolean } = {}): Promise<SpanChange[]> {
  if (pairs.length === 0) return [];
  const kept = readSpanCache(engine.store.spans);
  const missing = [...new Map(pairs.filter((pair) => !kept.has(spanKey(pair))).map((pair) => [spanKey(pair), pair])).values()];
  if (missing.length > 0) {
    const read = await diffSpans(engine, missing, options.sync === true);
    missing.forEach((pair, index) => kept.set(spanKey(pair), read[index] as SpanChange));
    writeSpanCache(engine.store.spans, new Map(pairs.map((pair) => [spanKey(pair), kept.get(spanKey(pair)) as SpanChange])));
  }
  return pairs.map((pair) => kept.get(spanKey(pair)) as SpanChange);
}

/**
 * The pairs' changes in one `git diff-tree --stdin` (a diff of trees alone: ShadowRepo.treeDiff).
 * Each pair's answer starts with the line git echoes for it (`<from> <to>`), then its
 * `<status>\0<path>\0` entries; a status is one capital letter, a tree id never is.
 */
async function diffSpans(engine: Pick<Engine, 'repo'>, pairs: readonly (readonly [string, string])[], sync: boolean): Promise<SpanChange[]> {
  const input = pairs.map(([from, to]) => `${from} ${to}\n`).join('');
  const args = ['-r', '--no-renames', '-z', '--name-status', '--stdin'];
  const { stdout } = sync ? engine.repo.treeDiffSync(args, { input }) : await engine.repo.treeDiff(args, { input });
  const text = stdout.toString('utf8');
  const spans: SpanChange[] = [];
  let at = 0;
  while (at < text.length) {
    if (/^[A-Z]\0/.test(text.slice(at, at + 2))) {
      const end = text.indexOf('\0', at + 2);
      const span = spans.at(-1);
      if (end < 0 || !span) break;
      span.paths.push(text.slice(at + 2, end));
      span.changes[statusKinds[text.charAt(at)] ?? 'modified'] += 1;
      at = end + 1;
      continue;
    }
    const line = text.indexOf('\n', at);
    spans.push({ paths: [], changes: { added: 0, modified: 0, deleted: 0 } });
    at = line < 0 ? text.length : line + 1;
  }
  if (spans.length !== pairs.length) throw new Error(`git diff-tree --stdin answered ${spans.length} of ${pairs.length} pairs`);
  return spans;
}
