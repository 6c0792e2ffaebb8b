import path from 'node:path';
import { parseCommandArgs } from './args.js';
import { writeLine, type CommandIO } from './io.js';
import { UsageError } from '../shared/errors.js';
import { uncheckedLine, writtenMeanwhileLine } from '../shared/messages.js';
import { restoreWithConversation } from './restoreConversation.js';
import { confirmOrStop, requesterOf } from './confirm.js';
import { openCheckpoints } from './open.js';
import { printLeftAlone, printPlan, printSkipped } from './plan.js';
import { parseCheckpointId, projectPaths } from './targetArgs.js';

const help = `Usage: rewind restore <id> [--files | --conversation | --both] [--only PATH]... [--dry-run] [--yes] [--json] [-C DIR]

Puts the project's files back exactly as they were at checkpoint <id>. The files as they
are now are checkpointed first, so \`rewind redo\` undoes the restore. Every file is
either entirely as it was or entirely as restored, even if the restore is cut off.
Ignored files, files left out of checkpoints (too big, heavy), nested repositories and
your git state (.git, index, HEAD, branches, stash) are never touched; nor is a file the
checkpoint's own ignore rules ignore (its .gitignore files as they were, info/exclude,
checkpoint_exclude): a checkpoint says nothing about what it leaves out. Files you may
not change are left alone and listed.

  --files        restore files (the default on the command line)
  --conversation restore the agent's conversation as it was at <id>, for an agent whose
                 conversation rewind keeps (Claude Code, Gemini CLI): a NEW session file
                 beside the original (which is never changed), cut before the prompt whose
                 turn <id> is in; prints the command that resumes it. No file of the
                 project changes.
  --both         the files and the conversation (the conversation is rebuilt first: if
                 that fails, nothing changes)
  --only PATH    restore only this file or folder (repeatable; the checkpoint or the
                 project must have it)
  --dry-run      print what would change and touch nothing
  --yes          do not ask; without a terminal to ask in, --yes is required
  --json         print {"checkpoint","changed","deleted","redo"} (files), {"checkpoint",
                 "conversation":{"agent","file","session","messages","resume"}} (conversation),
                 both for --both

Examples:
  rewind restore 12                 # shows the plan, asks, restores
  rewind restore 12 --only src/db.ts --yes
  rewind restore 12 --conversation  # then: claude --resume <the id it prints>`;

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
  if ([values.files, values.conversation, values.both].filter(Boolean).length > 1) throw new UsageError('give one of --files, --conversation and --both (see `rewind restore --help`)');
  if (values.conversation && values.only) throw new UsageError('--only picks files: it goes with --files or --both, not --conversation (see `rewind restore --help`)');
  const id = parseCheckpointId(positionals[0], 'restore');
  const { checkpoints } = await openCheckpoints(io, values.C, { allowHome: true, quietAboutInterrupted: true, keep: [id] });
  const only = projectPaths(checkpoints, path.resolve(io.cwd, values.C ?? '.'), values.only, '--only');
  const target = checkpoints.get(id);
  if (values.conversation || values.both) return restoreWithConversation(io, checkpoints, target, { ...values, only });

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
    writeLine(io.stdout, JSON.stringify({ checkpoint: result.checkpoint, changed: result.changed, deleted: result.deleted, redo: result.redo, ...(result.writtenMeanwhile ? { writtenMeanwhile: result.writtenMeanwhile } : {}), ...(result.unchecked ? { unchecked: result.unchecked } : {}) }));
    return 0;
  }
  writeLine(io.stdout, `restored checkpoint #${id}: ${result.changed.length} file(s) written, ${result.deleted.length} deleted`);
  printLeftAlone(io.stdout, result.leftAlone);
  printSkipped(io.stdout, result.skipped);
  if (result.writtenMeanwhile) writeLine(io.stdout, `  ! ${writtenMeanwhileLine(result.writtenMeanwhile, { redoMovedThere: result.redo === result.writtenMeanwhile.checkpoint, during: 'the restore', redoCommand: '`rewind redo`' })}`);
  if (result.unchecked) writeLine(io.stdout, `  ! ${uncheckedLine(result.unchecked)}`);
  if (result.redo !== null) writeLine(io.stdout, `undo with \`rewind redo\` (your files as they were are checkpoint #${result.redo})`);
  return 0;
}
