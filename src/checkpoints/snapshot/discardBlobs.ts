import fs from 'node:fs';
import path from 'node:path';
import { splitNul } from '../git/git.js';
import type { ShadowRepo } from '../store/shadowRepo.js';

/** The staged blob ids of these paths, before they leave the index. */
export async function stagedOids(repo: ShadowRepo, paths: readonly string[]): Promise<Map<string, string>> {
  const listed = await repo.git(['ls-files', '-s', '-z', '--', ...paths.map((file) => `:(literal)${file}`)]);
  const oids = new Map<string, string>();
  for (const line of splitNul(listed.stdout)) {
    const tab = line.indexOf('\t');
    const oid = line.slice(0, tab).split(' ')[1];
    if (oid) oids.set(line.slice(tab + 1), oid);
  }
  return oids;
}

/** The one object a pack .idx (version 2, sha1) holds, if it holds exactly one. */
function soleObjectOf(idxFile: string): string | undefined {
  const fd = fs.openSync(idxFile, 'r');
  try {
    const head = Buffer.alloc(1052);
    if (fs.readSync(fd, head, 0, head.length, 0) < head.length) return undefined;
    if (head.readUInt32BE(0) !== 0xff744f63 || head.readUInt32BE(4) !== 2) return undefined;
    if (head.readUInt32BE(8 + 255 * 4) !== 1) return undefined;
    return head.subarray(1032, 1052).toString('hex');
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Deletes the copies `git add` just wrote of files that turned out to be over the cap.
 * Only objects no checkpoint can hold are deleted: larger than any cap this store has
 * ever used (so never checkpointed), and stored in the shadow itself (a loose object,
 * or a pack of that one object, as git writes for very big files), never borrowed ones.
 */
export function discardOversizeObjects(repo: ShadowRepo, oids: readonly { oid: string; bytes: number }[], largestCapEver: number | undefined): void {
  if (largestCapEver === undefined) return;
  const objects = path.join(repo.gitDir, 'objects');
  const wanted = new Set(oids.filter((entry) => entry.bytes > largestCapEver).map((entry) => entry.oid));
  for (const oid of wanted) fs.rmSync(path.join(objects, oid.slice(0, 2), oid.slice(2)), { force: true });
  const packDir = path.join(objects, 'pack');
  let names: string[];
  try {
    names = fs.readdirSync(packDir).filter((name) => name.endsWith('.idx'));
  } catch {
    return;
  }
  for (const name of names) {
    const idx = path.join(packDir, name);
    let sole: string | undefined;
    try {
      sole = soleObjectOf(idx);
    } catch {
      continue;
    }
    if (sole === undefined || !wanted.has(sole)) continue;
    const base = idx.slice(0, -'.idx'.length);
    for (const ending of ['.keep', '.bitmap', '.rev', '.pack', '.idx']) fs.rmSync(`${base}${ending}`, { force: true });
  }
}
