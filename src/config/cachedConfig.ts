// The hot path's way to read config.json: `rewind hook` and `rewind snapshot` run on every
// agent step, and loading conf (ajv) costs ~100 ms of Node start-up. A file whose exact
// bytes passed validation before is taken from a small cache instead.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { rewindHome } from './paths.js';
import { configFilePath } from './file.js';
import { configDefaults, configSchema, type RewindConfig } from './schema.js';

interface CacheEntry {
  key: string;
  config: RewindConfig;
}

function cacheFile(env: NodeJS.ProcessEnv): string {
  return path.join(rewindHome(env), 'validated-config.json');
}

function readCache(file: string): CacheEntry | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as CacheEntry;
  } catch {
    return undefined;
  }
}

/**
 * The effective config, validated against config.schema.json exactly as `loadConfig`
 * does (conf is loaded whenever the file's bytes are new), without loading conf when the
 * same bytes were validated before. Errors are loadConfig's one-line UserErrors.
 */
export async function loadConfigFast(env: NodeJS.ProcessEnv = process.env): Promise<RewindConfig> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(configFilePath(env));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return configDefaults();
    throw error;
  }
  const key = createHash('sha256').update(bytes).update('\0').update(JSON.stringify(configSchema())).digest('hex');
  const file = cacheFile(env);
  const cached = readCache(file);
  if (cached?.key === key) return { ...configDefaults(), ...cached.config };
  const { loadConfig } = await import('./config.js');
  const config = loadConfig(env);
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify({ key, config } satisfies CacheEntry), { mode: 0o600 });
    renameSync(temp, file);
  } catch {
    // The cache only saves time; without it the next call validates again.
  }
  return config;
}
