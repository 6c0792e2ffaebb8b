// The package packed as `npm pack` makes it and installed globally into empty prefixes, its
// dependencies from a registry on the loopback that holds only the lockfile's packages (the
// real registry out of reach; a fresh npm cache, config and logs of the test's own).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { startLocalRegistry } from '../helpers/localRegistry.js';
import { repoRoot, requireBuiltCli } from '../helpers/restoreKit.js';

export interface Packed {
  filename: string;
  entryCount: number;
  files: { path: string }[];
}

export interface Installed {
  packed: Packed;
  /** Per prefix: the `rewind` on its bin/, and the CLI script it links to. */
  installs: { bin: string; cli: string }[];
}

/** Packs the checkout's build (no build again: it is npm test's) into `base`, and installs it into `prefixes` folders there. */
export async function packAndInstall(base: string, prefixes: number): Promise<Installed> {
  requireBuiltCli();
  fs.mkdirSync(path.join(base, 'tarballs'), { recursive: true });
  const registry = await startLocalRegistry(repoRoot, path.join(base, 'tarballs'));
  try {
    // npm runs beside this process, which serves the registry: never a synchronous child here.
    const npm = async (args: string[], cwd: string) => {
      const own = (name: string) => path.join(base, name);
      const env = { PATH: process.env.PATH, HOME: own('npm-home'), npm_config_userconfig: own('npmrc') };
      const flags = ['--registry', registry.url, '--cache', own('npm-cache'), '--logs-dir', own('npm-logs'), '--no-audit', '--no-fund', '--no-update-notifier'];
      return (await promisify(execFile)('npm', [...args, ...flags], { cwd, env, encoding: 'utf8' })).stdout;
    };
    const [packed] = JSON.parse(await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', base], repoRoot)) as Packed[];
    if (!packed) throw new Error('npm pack made no tarball');
    const installs: Installed['installs'] = [];
    for (let index = 0; index < prefixes; index++) {
      const prefix = path.join(base, `prefix-${index}`);
      await npm(['install', '--global', '--prefix', prefix, path.join(base, packed.filename)], base);
      installs.push({ bin: path.join(prefix, 'bin', 'rewind'), cli: path.join(prefix, 'lib', 'node_modules', 'agent-rewind', 'dist', 'cli.js') });
    }
    return { packed, installs };
  } finally {
    await registry.close();
  }
}
