import path from 'node:path';
import { homeDir } from '../../config/paths.js';

/** Codex's own folder, as Codex finds it: `$CODEX_HOME`, else `~/.codex` (its config.toml, its sessions). */
export function codexHome(env: NodeJS.ProcessEnv): string {
  return env.CODEX_HOME ? path.resolve(env.CODEX_HOME) : path.join(homeDir(env), '.codex');
}
