import fs from 'node:fs';
import path from 'node:path';
import type { Project } from './project.js';
import { readRef } from './refs.js';

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
    const next = readRef([git.gitDir, git.commonDir], ref);
    if (next === undefined) return undefined;
    head = next;
  }
  return undefined;
}
