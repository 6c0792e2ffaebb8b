// An npm registry on the loopback serving exactly the packages the checkout's lockfile
// installs for production, each packed from node_modules as `npm ci` left it: what a user's
// `npm install` of the package would fetch, with nothing reaching the network.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

interface LockEntry {
  name?: string;
  version: string;
  dev?: boolean;
  link?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  os?: string[];
  cpu?: string[];
  bin?: Record<string, string>;
  engines?: Record<string, string>;
}

export interface LocalRegistry {
  url: string;
  close(): Promise<void>;
}

/** The registry for `root`'s lockfile; tarballs are made in `scratch` on first request. */
export async function startLocalRegistry(root: string, scratch: string): Promise<LocalRegistry> {
  const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const byName = new Map<string, Map<string, { entry: LockEntry; dir: string }>>();
  for (const [where, entry] of Object.entries(lock.packages)) {
    if (where === '' || entry.dev || entry.link) continue;
    const name = entry.name ?? where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const versions = byName.get(name) ?? new Map();
    versions.set(entry.version, { entry, dir: path.join(root, where) });
    byName.set(name, versions);
  }
  const tarballs = new Map<string, { file: string; integrity: string }>();
  const tarballOf = (name: string, version: string, dir: string) => {
    const key = `${name}@${version}`;
    const made = tarballs.get(key);
    if (made) return made;
    const file = path.join(scratch, `${name.replace('/', '-')}-${version}.tgz`);
    execFileSync('tar', ['-czf', file, '-C', dir, '--transform', 's,^\\.,package,', '.']);
    const integrity = `sha512-${crypto.createHash('sha512').update(fs.readFileSync(file)).digest('base64')}`;
    const packed = { file, integrity };
    tarballs.set(key, packed);
    return packed;
  };
  let base = '';
  const server = http.createServer((request, response) => {
    const url = decodeURIComponent((request.url ?? '/').split('?')[0] ?? '/');
    const tarball = /^\/-\/(.+)\/(.+)\.tgz$/.exec(url);
    if (tarball) {
      const [, name = '', version = ''] = tarball;
      const found = byName.get(name)?.get(version);
      if (!found || !fs.existsSync(found.dir)) return void response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(fs.readFileSync(tarballOf(name, version, found.dir).file));
      return;
    }
    const name = url.slice(1);
    const versions = byName.get(name);
    if (!versions) return void response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    const manifests: Record<string, unknown> = {};
    for (const [version, { entry, dir }] of versions) {
      const { dev: _dev, link: _link, ...fields } = entry;
      // Packed only when it is there (a platform's optional package never installed here is skipped by npm by its os/cpu).
      const integrity = fs.existsSync(dir) ? tarballOf(name, version, dir).integrity : undefined;
      manifests[version] = { ...fields, name, version, dist: { tarball: `${base}/-/${encodeURIComponent(name)}/${version}.tgz`, ...(integrity ? { integrity } : {}) } };
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name, 'dist-tags': { latest: [...versions.keys()].at(-1) }, versions: manifests }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: `${base}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
