// The model the ignore-rules property test checks the engine against: the project's files
// as data, and what a restore must make of them. Ignore semantics come from git itself
// (no matcher written here): what a checkpoint holds is what `git ls-files -co
// --exclude-standard` lists in the project, and what a checkpoint's rules ignore is what
// `git ls-files -o -i --exclude-standard` lists in a scratch repository holding its
// .gitignore files.
import fs from 'node:fs';
import path from 'node:path';
import { eachFile } from './restoreKit.js';
import { runGitSync } from './tempRepo.js';

/** Files (no folders): path -> content. */
export type Files = Map<string, string>;

/** Every file under `root` except `.git`, with its content. */
export function readFiles(root: string): Files {
  const files: Files = new Map();
  eachFile(root, (rel, full) => files.set(rel, fs.readFileSync(full, 'utf8')));
  return files;
}

/** Folders under `root` (except `.git`) that hold nothing. */
export function emptyFolders(root: string): string[] {
  const empty: string[] = [];
  const walk = (dir: string) => {
    for (const name of fs.readdirSync(dir)) {
      const full = path.join(dir, name);
      if (path.relative(root, full) === '.git' || !fs.lstatSync(full).isDirectory()) continue;
      if (fs.readdirSync(full).length === 0) empty.push(path.relative(root, full));
      else walk(full);
    }
  };
  walk(root);
  return empty;
}

function nulList(output: Buffer): string[] {
  return output.toString('utf8').split('\0').filter((entry) => entry !== '');
}

/** What a checkpoint of the project holds now, by git's own account (`git status`'s files). */
export function checkpointOf(env: NodeJS.ProcessEnv, root: string, disk: Files): Files {
  const listed = nulList(runGitSync(env, root, ['ls-files', '-z', '-c', '-o', '--exclude-standard']));
  return new Map(listed.filter((file) => disk.has(file)).map((file) => [file, disk.get(file) ?? '']));
}

/** The folders above a path, outermost first. */
function foldersAbove(file: string): string[] {
  const parts = file.split('/');
  return parts.slice(0, -1).map((_, depth) => parts.slice(0, depth + 1).join('/'));
}

/**
 * Which of `files` the rules of a checkpoint holding `held` ignore: its .gitignore files
 * above them and the files themselves, written into the scratch repository `scratch`
 * (emptied first), then asked of git.
 */
export function ignoredBy(env: NodeJS.ProcessEnv, scratch: string, held: Files, files: readonly string[]): Set<string> {
  if (files.length === 0) return new Set();
  for (const name of fs.readdirSync(scratch)) if (name !== '.git') fs.rmSync(path.join(scratch, name), { recursive: true });
  const folders = new Set(['', ...files.flatMap(foldersAbove)]);
  for (const folder of folders) {
    const rules = folder === '' ? '.gitignore' : `${folder}/.gitignore`;
    const content = held.get(rules);
    if (content !== undefined) put(scratch, rules, content);
  }
  for (const file of files) put(scratch, file, '');
  const listed = new Set(nulList(runGitSync(env, scratch, ['ls-files', '-z', '-o', '-i', '--exclude-standard'])));
  return new Set(files.filter((file) => listed.has(file)));
}

function put(root: string, file: string, content: string): void {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), content);
}

/** What restoring a checkpoint must do to the disk, as the model says. */
export interface Expected {
  disk: Files;
  /** Paths it leaves alone (ignored by the target's rules, or in the way on disk). */
  leftAlone: string[];
  /** Whether it changes any file (else it pushes no redo point). */
  changes: boolean;
}

/**
 * The disk after restoring a checkpoint holding `target` over `disk`, whose checkpoint
 * now is `current`: every path that differs is written from the target or deleted,
 * except a deletion the target's rules ignore, a write through a file that stays, a
 * write where a folder stays, and a new file where a file that no checkpoint holds is.
 */
export function restoreOutcome(disk: Files, current: Files, target: Files, ignoredByTarget: (files: string[]) => Set<string>, undoneCreated: Files = new Map()): Expected {
  const candidates = [...current.keys()].filter((file) => !target.has(file));
  const ignored = ignoredByTarget(candidates);
  // A redo removes what the restore it undoes created, while it is as that restore wrote it.
  for (const [file, content] of undoneCreated) if (current.get(file) === content) ignored.delete(file);
  const deletes = new Set(candidates.filter((file) => !ignored.has(file)));
  const leftAlone = [...ignored];
  const after: Files = new Map([...disk].filter(([file]) => !deletes.has(file)));
  let writes = 0;
  for (const [file, content] of target) {
    if (current.get(file) === content) continue;
    const blockedAbove = foldersAbove(file).some((folder) => disk.has(folder) && !deletes.has(folder));
    const underIt = [...disk.keys()].filter((other) => other.startsWith(`${file}/`));
    const folderStays = underIt.some((other) => !deletes.has(other));
    const notCheckpointed = !current.has(file) && disk.has(file);
    if (blockedAbove || folderStays || notCheckpointed) {
      leftAlone.push(file);
      continue;
    }
    after.set(file, content);
    writes++;
  }
  return { disk: after, leftAlone: leftAlone.sort(), changes: writes + deletes.size > 0 };
}
