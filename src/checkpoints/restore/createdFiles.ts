import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../shared/atomicFile.js';
import type { Engine } from '../snapshot/engine.js';
import type { RedoPoint } from '../store/redoStack.js';

/**
 * The files a restore created (nothing was at their path before it), by blob id, kept
 * beside its redo point. Undoing that restore removes them even where the older
 * checkpoint's ignore rules ignore them (a checkpoint says nothing about its ignored
 * files, but these the restore itself put there), as long as they are still exactly what
 * the restore wrote: a redo gives the tree back exactly as it was.
 */
/** Named by the redo point's checkpoint id too: ids are never reused, sequence numbers may be. */
function fileFor(engine: Engine, point: Pick<RedoPoint, 'seq' | 'checkpoint'>): string {
  return path.join(engine.store.redoCreated, `${point.seq}-${point.checkpoint}`);
}

export function recordCreated(engine: Engine, point: Pick<RedoPoint, 'seq' | 'checkpoint'>, created: ReadonlyMap<string, string>): void {
  if (created.size === 0) return dropCreated(engine, point);
  fs.mkdirSync(engine.store.redoCreated, { recursive: true, mode: 0o700 });
  writeFileAtomic(fileFor(engine, point), JSON.stringify([...created]));
}

/** path -> blob id of what the restore with this redo point created (empty when unknown). */
export function readCreated(engine: Engine, point: Pick<RedoPoint, 'seq' | 'checkpoint'>): Map<string, string> {
  try {
    const entries = JSON.parse(fs.readFileSync(fileFor(engine, point), 'utf8')) as unknown;
    return new Map(Array.isArray(entries) ? entries.filter((entry): entry is [string, string] => Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'string') : []);
  } catch {
    return new Map();
  }
}

export function dropCreated(engine: Engine, point: Pick<RedoPoint, 'seq' | 'checkpoint'>): void {
  fs.rmSync(fileFor(engine, point), { force: true });
}
