// What `npm install -g agent-rewind` downloads and unpacks before its dependencies: the
// packed tarball's file count and sizes (npm's own numbers), against the install targets.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

export interface PackageRow {
  files: number;
  packedBytes: number;
  unpackedBytes: number;
  target: string;
}

export function benchPackage(): PackageRow {
  const root = path.resolve(import.meta.dirname, '..');
  // The build is the bench's own (npm run bench builds first): no prepack build again.
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as { entryCount: number; size: number; unpackedSize: number }[];
  if (!packed) throw new Error('npm pack --dry-run said nothing');
  return { files: packed.entryCount, packedBytes: packed.size, unpackedBytes: packed.unpackedSize, target: 'under 60 files, under 2 MB unpacked' };
}
