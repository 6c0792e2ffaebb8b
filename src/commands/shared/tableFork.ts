// `rewind fork` in the command table (table.ts): its help and options.
import { json } from './tableOptions.js';

export const forkCommand = {
  synopsis: '<id> [--branch NAME] [--dir DIR] [--json]',
  summary: "a checkpoint's files in a new folder, or as a new branch of your repo",
  dir: true,
  options: {
    branch: {
      type: 'string',
      arg: 'NAME',
      help: "make a new branch NAME in the project's git repository, one new commit holding exactly the checkpoint's files, and check it out in a new linked worktree (--dir; default <project>-<NAME> next to the project)",
    },
    dir: { type: 'string', arg: 'DIR', help: 'the new folder (default: <project>-checkpoint-<id>, or <project>-<NAME> with --branch, next to the project)' },
    json: json(
      '{"id","dir","time","label","nested"}; with --branch also {"branch","commit","tree","parent","parentFrom","objects"} (parentFrom: checkpoint, now or none)',
    ),
  },
  positionals: true,
  about: `Writes checkpoint <id>'s files into a new folder, to try another way from that step
while the project stays as it is. The folder must not exist yet (not even empty); by
default it is <project>-checkpoint-<id> next to the project. Ignored files (node_modules)
are not in checkpoints, and nested repositories come out as empty folders.

With --branch NAME, the checkpoint becomes real history: a new branch NAME in your
repository whose one new commit holds exactly the checkpoint's files (its message names
the step and its prompt), on top of the project's HEAD when the checkpoint was taken
(HEAD now if the checkpoint recorded none or your repository no longer has it; no parent
in a repository with no commit yet). It is checked out in a new linked worktree (--dir: a
new or empty folder). Your HEAD, index, files, stash and other branches are not touched,
and none of your git hooks, filters or signing programs run. Refused: a branch that
exists, an invalid name, a folder that is not empty, a project that is not a git
repository (\`rewind fork <id>\` without --branch works there).`,
  examples: ['rewind fork 12', 'rewind fork 12 --dir ../try-again && cd ../try-again && rewind -- claude', 'rewind fork 12 --branch keep/green-tests   # then: git log keep/green-tests'],
} as const;
