import fs from 'node:fs';
import path from 'node:path';
import type { Project } from '../project.js';

function packedRef(commonDir: string, ref: string): string | undefined {
  try {
    const content = fs.readFileSync(path.join(commonDir, 'packed-refs'), 'utf8');
    for (const line of content.split('\n')) {
      const [oid, name] = line.split(' ');
      if (name === ref && oid && /^[0-9a-f]{40,64}$/.test(oid)) return oid;
    }
  } catch {
    // No packed refs.
  }
  return undefined;
}

/**
 * The project's HEAD commit, read from its files (no git process on the hot path):
 * detached, a loose ref, or a packed one. Undefined for an unborn branch or outside git.
 */
export function readProjectHead(project: Project): string | undefined {
  const git = project.git;
  if (!git) return undefined;
  let head: string;
  try {
    head = fs.readFileSync(path.join(git.gitDir, 'HEAD'), 'utf8').trim();
  } catch {
    return undefined;
  }
  for (let depth = 0; depth < 5; depth++) {
    if (/^[0-9a-f]{40,64}$/.test(head)) return head;
    const match = /^ref: (.+)$/.exec(head);
    if (!match?.[1]) return undefined;
    const ref = match[1];
    let next: string | undefined;
    for (const dir of [git.gitDir, git.commonDir]) {
      try {
        next = fs.readFileSync(path.join(dir, ref), 'utf8').trim();
        break;
      } catch {
        // Not a loose ref here.
      }
    }
    next ??= packedRef(git.commonDir, ref);
    if (next === undefined) return undefined;
    head = next;
  }
  return undefined;
}
