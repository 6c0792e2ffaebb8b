import type { ObjectReader } from '../git/catFile.js';
import type { Engine } from '../snapshot/engine.js';
import { startRedoPush, type RedoPush } from '../store/redoStack.js';

/**
 * The git processes a restore works with: one cat-file (it stages the blobs, then checks the
 * files the restore displaced) and, for a restore that pushes a redo point, `update-ref
 * --stdin` (given the ref once the journal is written). Started while the redo point's
 * snapshot runs (each spawn blocks Node for several ms: beside the walk, not after it), or
 * when first needed.
 */
export class RestoreHelpers {
  private started?: { reader: ObjectReader; push: RedoPush | undefined };

  constructor(
    private readonly engine: Engine,
    private readonly pushes: boolean,
  ) {}

  start(): { reader: ObjectReader; push: RedoPush | undefined } {
    this.started ??= { reader: this.engine.repo.objectReader(true), push: this.pushes ? startRedoPush(this.engine.repo) : undefined };
    return this.started;
  }

  /** Ends both: a push never given its ref pushes nothing. */
  async end(): Promise<void> {
    await Promise.all([this.started?.push?.cancel(), this.started?.reader.close()]);
  }
}
