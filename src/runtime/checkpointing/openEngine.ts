import { engineSettings, openProjectCheckpoints, type OpenOptions, type ProjectCheckpoints } from '../../checkpoints/index.js';
import type { RewindConfig } from '../../config/schema.js';
import { rewindHome } from '../../config/paths.js';
import { clockOf } from '../../shared/testOverride.js';

/** What a caller may add when it opens the engine: the home folder allowed, progress, the lock's wait. */
export type OpenMore = Pick<OpenOptions, 'allowHome' | 'onProgress' | 'lockWaitMs' | 'onLockWait'>;

/**
 * The one way the app, a command and a hook with no app open a project's checkpoints: the
 * settings of `config`, the store home and the clock of `env`. Touches nothing on disk.
 */
export function openEngine(cwd: string, config: RewindConfig, env: NodeJS.ProcessEnv, more: OpenMore = {}): ProjectCheckpoints {
  return openProjectCheckpoints({ cwd, settings: engineSettings(config), home: rewindHome(env), env, now: clockOf(env), ...more });
}
