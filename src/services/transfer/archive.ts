// The one file `rewind export` writes and `rewind import` reads: named sections of bytes
// behind a magic line and a header that gives each one's length, and a SHA-256 of all of it
// at the end, so a foreign, damaged or cut-short file is known before anything is read from it.
//
//   REWIND-EXPORT\n
//   {"version":1,"sections":[["manifest.json",<bytes>],["checkpoints.bundle",<bytes>],…]}\n
//   <the sections' bytes, in that order>
//   sha256 <64 hex digits of everything above>\n
import { sha256Hex as sha256 } from '../../shared/sha256.js';
import { UserError } from '../../shared/errors.js';

const magic = Buffer.from('REWIND-EXPORT\n');
/** The format this Rewind writes (and the newest it reads). */
export const archiveVersion = 1;
/** `sha256 ` + 64 hex digits + a newline. */
const trailerBytes = 7 + 64 + 1;

/** One named part of the file. */
export interface Section {
  name: string;
  bytes: Buffer;
}

/** Section names: lower-case words and hashes in folders, never `..` or an absolute path. */
const namePattern = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/;


/** The file's bytes for these sections. */
export function writeArchive(sections: readonly Section[]): Buffer {
  for (const section of sections) if (!namePattern.test(section.name) || section.name.includes('..')) throw new Error(`not a section name: ${section.name}`);
  const header = Buffer.from(`${JSON.stringify({ version: archiveVersion, sections: sections.map((section) => [section.name, section.bytes.length]) })}\n`);
  const body = Buffer.concat([magic, header, ...sections.map((section) => section.bytes)]);
  return Buffer.concat([body, Buffer.from(`sha256 ${sha256(body)}\n`)]);
}

/** The header's list of sections, checked: names as written, lengths whole numbers. */
function sectionList(header: unknown): [string, number][] | undefined {
  const sections = (header as { sections?: unknown } | null)?.sections;
  if (!Array.isArray(sections)) return undefined;
  const list: [string, number][] = [];
  for (const item of sections as unknown[]) {
    if (!Array.isArray(item) || item.length !== 2) return undefined;
    const [name, bytes] = item as unknown[];
    if (typeof name !== 'string' || !namePattern.test(name) || name.includes('..') || typeof bytes !== 'number' || !Number.isSafeInteger(bytes) || bytes < 0) return undefined;
    list.push([name, bytes]);
  }
  return list;
}

/**
 * The sections of a file written by writeArchive, or a one-line UserError (naming the file
 * as `where`) when it is not one, is damaged or cut short, or is of a newer format.
 */
export function readArchive(data: Buffer, where: string): Section[] {
  if (!data.subarray(0, magic.length).equals(magic)) throw new UserError(`${where} is not a rewind export (it does not begin as one): nothing was imported`);
  const damaged = new UserError(`${where} is damaged or cut short (its checksum does not match): nothing was imported; copy or export it again`);
  if (data.length < magic.length + trailerBytes) throw damaged;
  const body = data.subarray(0, data.length - trailerBytes);
  if (data.subarray(body.length).toString('latin1') !== `sha256 ${sha256(body)}\n`) throw damaged;
  const headerEnd = body.indexOf(0x0a, magic.length);
  if (headerEnd < 0) throw damaged;
  let header: unknown;
  try {
    header = JSON.parse(body.subarray(magic.length, headerEnd).toString('utf8'));
  } catch {
    throw damaged;
  }
  const version = (header as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && version > archiveVersion) throw new UserError(`${where} was written by a newer rewind (format ${version}, this one reads ${archiveVersion}): update rewind to import it`);
  const list = sectionList(header);
  if (version !== archiveVersion || !list) throw damaged;
  let at = headerEnd + 1;
  const sections = list.map(([name, bytes]) => {
    const section = { name, bytes: body.subarray(at, at + bytes) };
    at += bytes;
    return section;
  });
  if (at !== body.length) throw damaged;
  return sections;
}
