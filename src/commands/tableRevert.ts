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
      help: 'keep or markers, when the step and a later one changed the same lines: keep (write the other files, leave the conflicted ones as they are now) or markers (also write git conflict markers into them); without it, a conflict writes nothing',
    },
    'dry-run': dryRun('print the plan (each file, each conflict and its hunks) and touch nothing'),
    yes,
    json: json('{"checkpoint","to","changes":[{"path","how"}],"conflicts":[{"path","kind","withMarkers","hunks"}]} and, once done, "written","result","changed","deleted","redo"'),
  },
  positionals: true,
  about: `Takes back what the step of checkpoint <id> did (from <id> to the checkpoint after it;
for a prompt, its whole turn) and keeps everything done after it: git's own three-way
merge of that step, reversed, onto the files as they are now. Files the later steps did
not touch come back as before the step; files they changed too are merged line by line;
a file the step created is deleted, one it deleted comes back. Where the step and a later
step (or your edits) changed the same lines, or a file git cannot merge (binary, a
symlink), or a file the step created and a later step changed, that is a conflict: it is
shown with its hunks before anything is written, and you choose (--conflicts, or the
question). The files as they are now are checkpointed first, so \`rewind redo\` undoes it.
Needs git 2.38 or newer.`,
  examples: ['rewind revert 12 --dry-run        # the plan, conflicts and hunks', 'rewind revert 12                  # shows the plan, asks', 'rewind revert 12 --only src/db.ts --yes', 'rewind revert 12 --conflicts markers --yes'],
} as const;
