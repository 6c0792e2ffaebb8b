// Checkpoint commits an export or an import writes many at a time: their text made here,
// their ids computed as git computes them (each is the next one's parent), and all of them
// written by one `git hash-object` (not a process per commit).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { text, type RunResult } from '../git/git.js';
import { shadowIdentity } from '../git/gitEnv.js';

/** A commit's text with its parent lines replaced by `parent` (none: a root commit). */
export function withParent(commitText: string, parent: string | undefined): string {
  const headerEnd = commitText.indexOf('\n\n');
  const header = headerEnd < 0 ? commitText : commitText.slice(0, headerEnd);
  const rest = headerEnd < 0 ? '' : commitText.slice(headerEnd);
  const lines = header.split('\n').filter((line) => !line.startsWith('parent '));
  if (parent !== undefined) lines.splice(1, 0, `parent ${parent}`);
  return `${lines.join('\n')}${rest}`;
}

/** A checkpoint commit's text by Rewind's identity (as commit-tree writes it in the shadow), at `when` (ms). */
export function checkpointCommitText(tree: string, parent: string | undefined, message: string, when: number): string {
  const signature = `${shadowIdentity.name} <${shadowIdentity.email}> ${Math.floor(when / 1000)} +0000`;
  return `tree ${tree}\n${parent === undefined ? '' : `parent ${parent}\n`}author ${signature}\ncommitter ${signature}\n\n${message}`;
}

/** The object id git gives a commit of this text (the shadow's objects are SHA-1). */
export function commitId(commitText: string): string {
  const bytes = Buffer.from(commitText, 'utf8');
  return createHash('sha1').update(`commit ${bytes.length}\0`).update(bytes).digest('hex');
}

/**
 * Writes the commits `texts` (their ids as commitId computes them) into the repository `git`
 * runs in, by one `git hash-object -t commit -w --stdin-paths` over files in `scratch`;
 * checks git wrote each under that id.
 */
export async function writeCommits(git: (args: readonly string[], input: string) => Promise<RunResult>, scratch: string, texts: readonly string[]): Promise<string[]> {
  if (texts.length === 0) return [];
  const files = texts.map((body, index) => {
    const file = path.join(scratch, `commit-${index}`);
    fs.writeFileSync(file, body);
    return file;
  });
  const written = text(await git(['hash-object', '-t', 'commit', '-w', '--stdin-paths'], `${files.join('\n')}\n`)).split('\n');
  const expected = texts.map(commitId);
  if (written.join() !== expected.join()) throw new Error(`git wrote the commits as ${written.join(', ')}, not as computed (${expected.join(', ')})`);
  for (const file of files) fs.rmSync(file, { force: true });
  return written;
}
