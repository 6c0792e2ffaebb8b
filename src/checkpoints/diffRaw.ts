/** One entry of `git diff-tree -r -z --raw` output. */
export interface RawChange {
  srcMode: string;
  dstMode: string;
  srcOid: string;
  dstOid: string;
  /** A added, D deleted, M modified, T type changed. */
  status: string;
  path: string;
}

export const gitlinkMode = '160000';

/** Parses `--raw -z` output (no renames): `:<mode> <mode> <oid> <oid> <status>\0<path>\0`. */
export function parseRawDiff(output: Buffer | string): RawChange[] {
  const parts = output.toString('utf8').split('\0');
  const changes: RawChange[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const meta = parts[i] ?? '';
    if (!meta.startsWith(':')) break;
    const [srcMode, dstMode, srcOid, dstOid, status] = meta.slice(1).split(' ');
    changes.push({
      srcMode: srcMode ?? '',
      dstMode: dstMode ?? '',
      srcOid: srcOid ?? '',
      dstOid: dstOid ?? '',
      status: (status ?? '').charAt(0),
      path: parts[i + 1] ?? '',
    });
  }
  return changes;
}
