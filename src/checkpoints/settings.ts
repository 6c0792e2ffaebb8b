import type { RewindConfig } from '../config/schema.js';
import type { EngineSettings } from './snapshot/engineTypes.js';

/** The engine settings config.json provides. */
export function engineSettings(config: RewindConfig): EngineSettings {
  return {
    checkpointMaxFileMb: config.checkpoint_max_file_mb,
    checkpointExclude: config.checkpoint_exclude,
    checkpointInclude: config.checkpoint_include,
    gcEvery: config.gc_every,
    checkpointWarnGb: config.checkpoint_warn_gb,
  };
}
