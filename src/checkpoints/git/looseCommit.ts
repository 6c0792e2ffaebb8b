import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { shadowIdentity } from './gitEnv.js';
import { writeFileAtomic } from '../../shared/atomicFile.js';

/** `+0100`, `-0530`: a time zone as git writes it. */
function gitTimeZone(date: Date): string {
  const minutes = -date.getTimezoneOffset();
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
}

/**
 * Writes a commit of `tree` (no parent) as a loose object, byte for byte what
 * `git commit-tree` writes with Rewind's identity: `zlib("commit <size>\0<body>")` under
 * objects/xx/yyyy, named by its SHA-1. The first snapshot writes its commit here instead
 * of starting two more git processes (~10 ms each here). Neither the object nor the ref is
 * synced: git 2.39 syncs neither by default (core.fsync), and these stand in for its
 * commands. The time zone is the process's (TZ), as git's. Returns the commit's id.
 */
export function writeRootCommit(gitDir: string, tree: string, message: string, when = new Date()): string {
  const stamp = `${Math.floor(when.getTime() / 1000)} ${gitTimeZone(when)}`;
  const person = `${shadowIdentity.name} <${shadowIdentity.email}> ${stamp}`;
  const body = Buffer.from(`tree ${tree}\nauthor ${person}\ncommitter ${person}\n\n${message}`, 'utf8');
  const raw = Buffer.concat([Buffer.from(`commit ${body.length}\0`), body]);
  const oid = createHash('sha1').update(raw).digest('hex');
  const dir = path.join(gitDir, 'objects', oid.slice(0, 2));
  const file = path.join(dir, oid.slice(2));
  if (fs.existsSync(file)) return oid;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // zlib is loaded here, not imported: only a first snapshot needs it, and every `rewind
  // snapshot` process would load it.
  writeFileAtomic(file, process.getBuiltinModule('node:zlib').deflateSync(raw, { level: 1 }), 0o400, false);
  return oid;
}

/**
 * Creates `ref` (e.g. refs/checkpoints/1) pointing at `oid` the way git's files backend
 * does: `<ref>.lock` created exclusively (another writer holding it makes this throw),
 * written, then renamed over the ref.
 */
export function createRef(gitDir: string, ref: string, oid: string): void {
  const file = path.join(gitDir, ref);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const lock = `${file}.lock`;
  fs.writeFileSync(lock, `${oid}\n`, { mode: 0o600, flag: 'wx' });
  try {
    fs.renameSync(lock, file);
  } catch (error) {
    fs.rmSync(lock, { force: true });
    throw error;
  }
}
