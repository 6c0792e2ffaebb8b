import os from 'node:os';
import path from 'node:path';
import envPaths from 'env-paths';

const appPaths = envPaths('rewind', { suffix: '' });

/** The user's home directory (`$HOME` of the given environment): the one place Rewind asks the OS for it. */
export function homeDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.HOME && env.HOME.length > 0 ? env.HOME : os.homedir();
}

/** Where every project's shadow store lives: `$REWIND_HOME`, else the OS data dir. */
export function rewindHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.REWIND_HOME;
  return fromEnv && fromEnv.length > 0 ? path.resolve(fromEnv) : appPaths.data;
}

/** The folder holding config.json: `$REWIND_CONFIG_DIR`, else the OS config dir. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.REWIND_CONFIG_DIR;
  return fromEnv && fromEnv.length > 0 ? path.resolve(fromEnv) : appPaths.config;
}
