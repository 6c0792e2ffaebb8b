// The project lock held as another rewind holds it (a snapshot or a restore under way), for a
// test that shows what waits for it and what does not.
import type { CheckpointEngine } from '../../src/checkpoints/checkpointEngine.js';

/** Takes `engine`'s project lock, as `purpose`; resolves once it is held. `release` lets it go. */
export async function holdLock(engine: Pick<CheckpointEngine, 'locked'>, purpose: string): Promise<{ release(): Promise<void> }> {
  let release = () => undefined as void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let taken = () => undefined as void;
  const holding = engine.locked(purpose, () => {
    taken();
    return held;
  });
  await new Promise<void>((resolve) => (taken = resolve));
  return {
    release: async () => {
      release();
      await holding;
    },
  };
}
