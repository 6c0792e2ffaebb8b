import path from 'node:path';
import readline from 'node:readline';
import { parseCommandArgs } from '../cli/args.js';
import { writeLine, type CommandIO } from '../cli/io.js';
import { UserError } from '../errors.js';
import { previewRestore, restoreCheckpoint } from '../checkpoints/restore/restore.js';
import type { Checkpoints } from '../checkpoints/checkpoints.js';
import { parseCheckpointId } from './diff.js';
import { openCheckpoints } from './open.js';
import { printPlan } from './plan.js';

const help = `Usage: rewind restore <id> [--files] [--only PATH]... [--dry-run] [--yes] [--json] [-C DIR]

Puts the project's files back exactly as they were at checkpoint <id>. The files as they
are now are checkpointed first, so \`rewind redo\` undoes the restore. Every file is
either entirely as it was or entirely as restored, even if the restore is cut off.
Ignored files, files left out of checkpoints (too big, heavy), nested repositories and
your git state (.git, index, HEAD, branches, stash) are never touched.

  --files        restore files (the default on the command line)
  --only PATH    restore only this file or folder (repeatable)
  --dry-run      print what would change and touch nothing
  --yes          do not ask; without a terminal to ask in, --yes is required
  --json         print {"checkpoint","changed","deleted","redo"}`;

/** Project-relative paths for --only, given relative to where the user is. */
export function onlyPaths(checkpoints: Checkpoints, base: string, only: readonly string[] | undefined): string[] {
  return (only ?? []).map((file) => {
    const relative = path.relative(checkpoints.project.root, path.resolve(base, file));
    if (relative.startsWith('..') || path.isAbsolute(relative)) throw new UserError(`${file} is outside the project ${checkpoints.project.root}`);
    return relative.split(path.sep).join('/');
  }).filter((file) => file !== '');
}

async function confirm(io: CommandIO, question: string): Promise<boolean> {
  const rl = readline.createInterface({ input: io.stdin, output: io.stdout });
  try {
    const answer = await new Promise<string>((resolve) => rl.question(question, resolve));
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('restore', argv, {
    files: { type: 'boolean' },
    conversation: { type: 'boolean' },
    both: { type: 'boolean' },
    only: { type: 'string', multiple: true },
    'dry-run': { type: 'boolean' },
    yes: { type: 'boolean', short: 'y' },
    json: { type: 'boolean' },
  });
  if (values.help) {
    writeLine(io.stdout, help);
    return 0;
  }
  if (values.conversation || values.both) {
    throw new UserError('restoring the conversation needs the agent running in rewind (`rewind -- <agent>`, then Esc Esc); from the command line use --files');
  }
  const id = parseCheckpointId(positionals[0], 'restore');
  const { checkpoints } = await openCheckpoints(io, values.C, { allowHome: true, quietAboutInterrupted: true });
  const only = onlyPaths(checkpoints, path.resolve(io.cwd, values.C ?? '.'), values.only);
  const target = checkpoints.get(id);

  if (values['dry-run'] || !values.yes) {
    const preview = await previewRestore(checkpoints, id, { only });
    if (values.json && values['dry-run']) {
      writeLine(io.stdout, JSON.stringify({ ...preview, dryRun: true }));
      return 0;
    }
    printPlan(values.json ? io.stderr : io.stdout, target, preview);
    if (values['dry-run']) return 0;
    if (preview.writes.length + preview.deletes.length === 0) return 0;
    if (!io.stdin.isTTY) {
      throw new UserError('not restoring: there is no terminal to confirm in; pass --yes to restore without asking');
    }
    if (!(await confirm(io, `Restore checkpoint #${id}? [y/N] `))) {
      writeLine(io.stderr, 'rewind: not restored; nothing was changed');
      return 1;
    }
  }

  const result = await restoreCheckpoint(checkpoints, id, { only });
  if (values.json) {
    writeLine(io.stdout, JSON.stringify({ checkpoint: result.checkpoint, changed: result.changed, deleted: result.deleted, redo: result.redo }));
    return 0;
  }
  writeLine(io.stdout, `restored checkpoint #${id}: ${result.changed.length} file(s) written, ${result.deleted.length} deleted`);
  for (const item of result.leftAlone) writeLine(io.stdout, `  left alone  ${item.path}: ${item.reason}`);
  if (result.skipped.length > 0) writeLine(io.stdout, `  not affected (left out of checkpoints): ${result.skipped.map((file) => file.path).join(', ')}`);
  if (result.redo !== null) writeLine(io.stdout, `undo with \`rewind redo\` (your files as they were are checkpoint #${result.redo})`);
  return 0;
}
