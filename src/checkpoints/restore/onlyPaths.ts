import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../../shared/errors.js';
import type { Engine } from '../snapshot/engine.js';
import { GitError } from '../git/git.js';
import type { CheckpointRecord } from '../store/record.js';
import { unrestorable } from './errors.js';
import { entriesAt } from './treeEntries.js';

/**
 * Fails unless each of `only` (project-relative paths a restore or diff is limited to) is
 * in the target checkpoint or in the project: a path that is in neither is a typo, not a
 * restore that changes nothing.
 */
export async function requireKnownPaths(engine: Engine, target: CheckpointRecord, only: readonly string[]): Promise<void> {
  if (only.length === 0) return;
  let listed: string[];
  try {
    listed = (await entriesAt(engine.repo, target.tree, only)).map((entry) => entry.path);
  } catch (error) {
    if (error instanceof GitError) throw unrestorable(target.id, error);
    throw error;
  }
  const onDisk = (file: string) => {
    try {
      fs.lstatSync(path.join(engine.project.root, file));
      return true;
    } catch {
      return false;
    }
  };
  const inTarget = (file: string) => listed.some((entry) => entry === file || entry.startsWith(`${file}/`));
  const unknown = only.filter((file) => !inTarget(file) && !onDisk(file));
  if (unknown.length === 0) return;
  const names = unknown.map((file) => JSON.stringify(file)).join(', ');
  throw new UserError(`${names} ${unknown.length === 1 ? 'is' : 'are'} neither in checkpoint #${target.id} nor in the project (paths are relative to the folder rewind runs in); check the spelling, or see \`rewind diff ${target.id} --name-status\``);
}
