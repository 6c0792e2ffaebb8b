// `rewind revert` in the command table (table.ts): its help and options.
import { dryRun, json, yes } from './tableOptions.js';

export const revertCommand = {
  synopsis: '<id> [--only PATH]... [--conflicts keep|markers] [--dry-run] [--yes] [--json]',
  summary: 'take back what that one step did, keep the later steps (3-way)',
  dir: true,
  options: {
    only: { type: 'string', multiple: true, arg: 'PATH', help: 'take the step back in this file or folder only (repeatable)' },
    conflicts: {
      type: 'string',
      arg: 'HOW',
      help: 'keep or markers, for the files that conflict: keep (write the other files, leave the conflicted ones as they are now) or markers (also write git conflict markers into the text ones, and bring back as before the step a file deleted since); without it, a conflict writes nothing',
    },
    'dry-run': dryRun('print the plan (each file, each conflict and its hunks) and touch nothing'),
    yes,
    json: json('{"checkpoint","to","changes":[{"path","how"}],"conflicts":[{"path","kind","withMarkers","hunks"}]} and, once done, "written","result","changed","deleted","redo"'),
  },
  positionals: true,
  about: `Takes back what the step of checkpoint <id> did (from <id> to the checkpoint after it;
for a prompt, its whole turn) and keeps everything done after it, path by path over the
paths the step changed (no other path is touched). A file nothing changed since comes back
as before the step (one the step created is deleted, one it deleted comes back); one a
later step (or you) changed too is merged line by line by git's own file merge. Where that
cannot be done, that is a conflict: the same lines changed; a binary file, symlink or
submodule changed by both; a file the step created and a later step changed; one it changed
that was deleted since; one it deleted that was made again since; a file on one side and a
folder on the other. Each is shown with its hunks before anything is written, and you
choose (--conflicts, or the question). The files as they are now are checkpointed first,
so \`rewind redo\` undoes it.`,
  examples: ['rewind revert 12 --dry-run        # the plan, conflicts and hunks', 'rewind revert 12                  # shows the plan, asks', 'rewind revert 12 --only src/db.ts --yes', 'rewind revert 12 --conflicts markers --yes'],
} as const;
