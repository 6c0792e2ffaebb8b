/** One entry of `git diff-tree -r -z --raw` output. */
export interface RawChange {
  srcMode: string;
  dstMode: string;
  srcOid: string;
  dstOid: string;
  /** A added, D deleted, M modified, T type changed. */
  status: string;
  path: string;
  /** The path's bytes are not UTF-8: `path` only shows it (U+FFFD where they were), it names no file. */
  undecodable?: boolean;
}

export const gitlinkMode = '160000';

/** Splits NUL-separated bytes, and tells which parts are not UTF-8 (a name Node would decode into another). */
function splitDecoded(output: Buffer): { text: string; undecodable: boolean }[] {
  const parts: { text: string; undecodable: boolean }[] = [];
  let start = 0;
  for (let end = output.indexOf(0, start); end !== -1; end = output.indexOf(0, start)) {
    const bytes = output.subarray(start, end);
    const text = bytes.toString('utf8');
    parts.push({ text, undecodable: text.includes('\uFFFD') && !Buffer.from(text, 'utf8').equals(bytes) });
    start = end + 1;
  }
  parts.push({ text: output.subarray(start).toString('utf8'), undecodable: false });
  return parts;
}

/** Parses `--raw -z` output (no renames): `:<mode> <mode> <oid> <oid> <status>\0<path>\0`. */
export function parseRawDiff(output: Buffer | string): RawChange[] {
  const whole = output.toString('utf8');
  // Names that are not UTF-8 only: the bytes are looked at again, part by part.
  const parts = typeof output !== 'string' && whole.includes('\uFFFD') ? splitDecoded(output) : whole.split('\0').map((text) => ({ text, undecodable: false }));
  const changes: RawChange[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const meta = parts[i]?.text ?? '';
    if (!meta.startsWith(':')) break;
    const [srcMode, dstMode, srcOid, dstOid, status] = meta.slice(1).split(' ');
    const name = parts[i + 1];
    changes.push({
      srcMode: srcMode ?? '',
      dstMode: dstMode ?? '',
      srcOid: srcOid ?? '',
      dstOid: dstOid ?? '',
      status: (status ?? '').charAt(0),
      path: name?.text ?? '',
      ...(name?.undecodable ? { undecodable: true } : {}),
    });
  }
  return changes;
}
