import path from 'node:path';
import readline from 'node:readline';
import { parseCommandArgs } from './args.js';
import { writeLine, type CommandIO } from './io.js';
import { UserError } from '../shared/errors.js';
import type { Requester } from '../checkpoints/index.js';
import { openCheckpoints } from './open.js';
import { printLeftAlone, printPlan, printSkipped } from './plan.js';
import { parseCheckpointId, projectPaths } from './targetArgs.js';

const help = `Usage: rewind restore <id> [--files] [--only PATH]... [--dry-run] [--yes] [--json] [-C DIR]

Puts the project's files back exactly as they were at checkpoint <id>. The files as they
are now are checkpointed first, so \`rewind redo\` undoes the restore. Every file is
either entirely as it was or entirely as restored, even if the restore is cut off.
Ignored files, files left out of checkpoints (too big, heavy), nested repositories and
your git state (.git, index, HEAD, branches, stash) are never touched; nor is a file the
checkpoint's own ignore rules ignore (its .gitignore files as they were, info/exclude,
checkpoint_exclude): a checkpoint says nothing about what it leaves out. Files you may
not change are left alone and listed.

  --files        restore files (the default on the command line)
  --only PATH    restore only this file or folder (repeatable; the checkpoint or the
                 project must have it)
  --dry-run      print what would change and touch nothing
  --yes          do not ask; without a terminal to ask in, --yes is required
  --json         print {"checkpoint","changed","deleted","redo"}

Examples:
  rewind restore 12                 # shows the plan, asks, restores
  rewind restore 12 --only src/db.ts --yes`;

/** The session and agent a command run by an agent (or its hook) is part of, from its environment. */
export function requesterOf(io: CommandIO): Requester {
  return { session: io.env.REWIND_SESSION ?? null, agent: io.env.REWIND_AGENT ?? null };
}

/**
 * Asks before a change unless --yes: in a terminal, `question`; without one, nothing is
 * done and the user is told to pass --yes. Resolves true to go ahead.
 */
export async function confirmOrStop(io: CommandIO, yes: boolean | undefined, question: string, what: string): Promise<boolean> {
  if (yes) return true;
  if (!io.stdin.isTTY) throw new UserError(`not ${what}: there is no terminal to confirm in; pass --yes to go ahead without asking`);
  if (await confirm(io, question)) return true;
  writeLine(io.stderr, `rewind: not ${what}; nothing was changed`);
  return false;
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
  const only = projectPaths(checkpoints, path.resolve(io.cwd, values.C ?? '.'), values.only, '--only');
  const target = checkpoints.get(id);

  if (values['dry-run'] || !values.yes) {
    const preview = (await checkpoints.plan(id, only)).preview;
    if (values.json && values['dry-run']) {
      writeLine(io.stdout, JSON.stringify({ ...preview, dryRun: true }));
      return 0;
    }
    printPlan(values.json ? io.stderr : io.stdout, target, preview);
    if (values['dry-run']) return 0;
    if (preview.writes.length + preview.deletes.length === 0) return 0;
    if (!(await confirmOrStop(io, values.yes, `Restore checkpoint #${id}? [y/N] `, 'restoring'))) return 1;
  }

  const result = await checkpoints.restore(id, { only, ...requesterOf(io) });
  if (values.json) {
    writeLine(io.stdout, JSON.stringify({ checkpoint: result.checkpoint, changed: result.changed, deleted: result.deleted, redo: result.redo }));
    return 0;
  }
  writeLine(io.stdout, `restored checkpoint #${id}: ${result.changed.length} file(s) written, ${result.deleted.length} deleted`);
  printLeftAlone(io.stdout, result.leftAlone);
  printSkipped(io.stdout, result.skipped);
  if (result.redo !== null) writeLine(io.stdout, `undo with \`rewind redo\` (your files as they were are checkpoint #${result.redo})`);
  return 0;
}
