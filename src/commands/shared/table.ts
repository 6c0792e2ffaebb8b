// The command table: every command of the command line, what it is called with and its
// options. `rewind --help`, each command's `--help` (help.ts), the README's command list
// (test/commands/help.test.ts compares them) and each command's argument parsing
// (args.ts) are all read from here, so none of them can say what another does not.
// Data only: the bundles of single commands (src/cli/snapshotEntry.ts, …) load it.
import { BugError } from '../../shared/errors.js';
import { dryRun, json, nameStatus, yes } from './tableOptions.js';
import { forkCommand } from './tableFork.js';
import { revertCommand } from './tableRevert.js';
import { exportCommand, importCommand } from './tableTransfer.js';

/** What the help needs to know of the code outside the table (agents, config keys). */
export interface HelpFacts {
  /** The names `--agent` takes. */
  agents: readonly string[];
  /** The agent a command gets when no other one handles it. */
  fallbackAgent: string;
  /** The agents whose conversation a restore can rebuild. */
  conversationAgents: readonly string[];
  /** config.json's keys, one line each (its default and what it takes). */
  configKeys: readonly string[];
}

/** Help text: as written, or made from facts the command gives (help.ts says when one is missing). */
export type HelpText = string | ((facts: Partial<HelpFacts>) => string);

/** One option of a command: what the parser takes (node:util parseArgs) and what its help says. */
export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  readonly multiple?: boolean;
  /** The value's name in the help (`--label L`); string options only. */
  readonly arg?: string;
  /** What it does, one sentence (the help wraps it). */
  readonly help: HelpText;
}

/** One form of a command with subcommands (`rewind config get KEY`). */
export interface CommandForm {
  /** What follows `rewind <name>` ('' for the command alone). */
  readonly args: string;
  readonly says: string;
}

/** One command. */
export interface CommandSpec {
  /** What follows `rewind <name>`: every option of `options` is in it, -C DIR is added by the help. */
  readonly synopsis?: string;
  /** Subcommands, each with what it does: the synopsis is made from them. */
  readonly forms?: readonly CommandForm[];
  /** The line in `rewind --help` and the README's command list. */
  readonly summary: string;
  /** Reached without its name too (`rewind -- claude` is `rewind run -- claude`). */
  readonly bare?: boolean;
  /** Takes -C DIR (false: the command does not work on a project). */
  readonly dir: boolean;
  /** What the parser takes besides -C and --help (none for a command that parses its own words). */
  readonly options: Readonly<Record<string, OptionSpec>>;
  /** Whether words that are not options are taken (ids, paths). */
  readonly positionals: boolean;
  /** The paragraphs before the options. */
  readonly about: HelpText;
  /** The paragraphs after them. */
  readonly after?: HelpText;
  readonly examples: readonly string[];
}

/** A fact the help needs, or an error naming it (a command that prints its help without it is a bug). */
export function fact<K extends keyof HelpFacts>(facts: Partial<HelpFacts>, key: K): HelpFacts[K] {
  const value = facts[key];
  if (value === undefined) throw new BugError(`the help needs the ${key} fact from its command`);
  return value as HelpFacts[K];
}


/** Every command, in the order `rewind --help` lists them. */
export const commandTable = {
  run: {
    synopsis: '[--agent NAME] [--log FILE] -- <command...>',
    summary: 'run an agent in the app (`rewind -- claude`)',
    bare: true,
    dir: true,
    options: {
      agent: {
        type: 'string',
        arg: 'NAME',
        help: (facts) =>
          `the agent support to use, whatever the command: ${fact(facts, 'agents').join(', ')} (default: the one for the command's name, else ${fact(facts, 'fallbackAgent')})`,
      },
      log: { type: 'string', arg: 'FILE', help: "append a line to FILE for each checkpoint, hook call, restore and retention pass, with how long it took (REWIND_LOG=FILE does the same for every rewind process; never a file's content)" },
    },
    positionals: true,
    about: `Runs an agent (any command: claude, codex, gemini, aider, bash…) inside Rewind's
full-screen app. Checkpoints are taken before each Enter you press in the pane and after
each burst of file changes settles; Esc Esc opens the rewind picker; Ctrl+] opens the
command bar (/checkpoint, /checkpoints, /rewind, /redo, /config, /help, /quit).
Rewind exits with the agent's exit code.`,
    examples: ['rewind -- claude', 'rewind -C ~/work/api -- aider --model sonnet'],
  },
  demo: {
    synopsis: '[DIR]',
    summary: 'try it: the app on a demo agent, in a sandbox project',
    dir: false,
    options: {},
    positionals: true,
    about: `Makes a small sandbox project (a git repository with a tiny server and its tests, in a new
temp folder, or in DIR if you give a new or empty one) and opens Rewind on the built-in demo
agent: a pretend coding agent that edits, writes and deletes files through the same hooks as
Claude Code. Type 1, 2 or 3 at its prompt, then Esc Esc to rewind.`,
    examples: ['rewind demo                 # try it in a temp folder', 'rewind demo ~/rewind-demo   # or in a folder you keep'],
  },
  snapshot: {
    synopsis: '[--label L] [--json] [--allow-home] [--trigger T]',
    summary: 'take a checkpoint of the project now',
    dir: true,
    options: {
      label: { type: 'string', arg: 'L', help: 'what this checkpoint is (shown in the list and the picker)' },
      json: json('{"id","commit","tree","deduped","unchanged","skipped":[{"path","bytes","reason"}]}'),
      'allow-home': { type: 'boolean', help: 'allow checkpointing your home folder or / (refused otherwise)' },
      trigger: { type: 'string', arg: 'T', help: 'what took it, kept as its "trigger" (rewind list --json; default: manual)' },
    },
    positionals: false,
    about: `Takes a checkpoint of the project's files now. Without --label, files unchanged since the
newest checkpoint add nothing (that checkpoint is reported); with a label, a checkpoint is
always added (an unchanged tree makes no new commit: it points at the previous one).`,
    examples: ['rewind snapshot --label "before the refactor"', 'rewind snapshot --json            # for scripts: id, commit, tree, skipped'],
  },
  list: {
    synopsis: '[--now] [--json]',
    summary: "checkpoints, oldest first, as the session's steps",
    dir: true,
    options: {
      now: { type: 'boolean', help: 'read the files as they are now too, and count what changed since the newest checkpoint (a scan of every file: seconds on a big project)' },
      json: json('an array of {"id","time","session","agent","trigger","label","commit","files","kind","turn","foldedInto","skipped","conversation","imported"}'),
    },
    positionals: false,
    about: `The project's checkpoints, oldest first, as the session's steps: a prompt and its turn, the
tool steps of the turn under it, edits made outside any step (yours, a build, an agent
without hooks), the session's start. A step's count ("3 files") is what that step changed
(a prompt's: its whole turn), from its checkpoint to the next step's. The list is read from
the checkpoint log alone, so it comes at once whatever the project's size, and the files
themselves are not read: the newest checkpoint's own step, what changed since it, shows "?"
(null in --json), and a step still under way counts up to the newest checkpoint. --now reads
the files too (a scan of every file) and counts those steps to the files as they are now.
Restoring a step's checkpoint puts everything back to just before it: that step and every
later one (\`rewind restore <id> --dry-run\` says which files). A hooked agent's writes are
recorded by a checkpoint taken after them, folded into the step that made them (--json
lists it too, as "folded").`,
    examples: ['rewind list', 'rewind list --now                 # and what changed since the newest checkpoint', "rewind list --json | jq '.[-1]'   # the newest checkpoint"],
  },
  diff: {
    synopsis: '<id> [PATH...] [--name-status] [--json]',
    summary: 'what restoring <id> would change (now -> <id>)',
    dir: true,
    options: {
      'name-status': nameStatus,
      json: json('{"id","files":[{"status","path"}],"patch","leftAlone":[{"path","reason"}]} (no "patch" with --name-status; status: A, M, D or T)'),
    },
    positionals: true,
    about: `What restoring checkpoint <id> would change: a unified diff from the files as they are
now to the checkpoint, exactly the files \`rewind restore <id>\` would write and delete
(what it leaves alone, such as ignored files and nested repositories, is listed on stderr
instead). Binary files are named, not printed. PATHs (files or folders) limit it, as
\`--only\` limits a restore.`,
    examples: ['rewind diff 12', 'rewind diff 12 src/ --name-status'],
  },
  restore: {
    synopsis: '<id> [--files | --conversation | --both] [--only PATH]... [--session] [--dry-run] [--yes] [--json]',
    summary: 'put the files (or the conversation) back as they were at <id>',
    dir: true,
    options: {
      files: { type: 'boolean', help: 'restore files (the default on the command line)' },
      conversation: {
        type: 'boolean',
        help: (facts) =>
          `restore the agent's conversation as it was at <id>, for an agent whose conversation rewind keeps (${fact(facts, 'conversationAgents').join(', ')}): a NEW session file beside the original (which is never changed), cut before the prompt whose turn <id> is in; prints the command that resumes it. No file of the project changes.`,
      },
      both: { type: 'boolean', help: 'the files and the conversation (the conversation is rebuilt first: if that fails, nothing changes)' },
      only: { type: 'string', multiple: true, arg: 'PATH', help: 'restore only this file or folder (repeatable; the checkpoint or the project must have it)' },
      session: {
        type: 'boolean',
        help: "restore only the files this agent session's own steps changed since <id> (the session of REWIND_SESSION, else <id>'s); what other sessions, agents or you changed stays as it is, and a file both changed is left alone and named (unless --only names that file)",
      },
      'dry-run': dryRun('print what would change and touch nothing'),
      yes,
      json: json(
        '{"checkpoint","changed","deleted","redo"} (files), {"checkpoint","conversation":{"agent","file","session","messages","resume"}} (conversation), both for --both',
      ),
    },
    positionals: true,
    about: `Puts the project's files back exactly as they were at checkpoint <id>. The files as they
are now are checkpointed first, so \`rewind redo\` undoes the restore (a restore that
changes no file takes none: "redo" is null). Every file is
either entirely as it was or entirely as restored, even if the restore is cut off.
Ignored files (but those checkpoint_include names, put back as the checkpoint holds
them; never deleted), files left out of checkpoints (too big, heavy), nested repositories and
your git state (.git, index, HEAD, branches, stash) are never touched; nor is a file the
checkpoint's own ignore rules ignore (its .gitignore files as they were, info/exclude,
checkpoint_exclude): a checkpoint says nothing about what it leaves out. Files you may
not change are left alone and listed.`,
    examples: [
      'rewind restore 12                 # shows the plan, asks, restores',
      'rewind restore 12 --only src/db.ts --yes',
      'rewind restore 12 --conversation  # then: claude --resume <the id it prints>',
    ],
  },
  redo: {
    synopsis: '[--dry-run] [--yes] [--json]',
    summary: 'undo the last restore (shows which, asks)',
    dir: true,
    options: {
      'dry-run': dryRun('print what it would do and touch nothing'),
      yes,
      json: json('{"checkpoint","changed","deleted","redo"} (with --dry-run: the plan)'),
    },
    positionals: false,
    about: `Undoes the last restore: puts the files back as they were just before it. First it shows
which restore it undoes (the checkpoint it restored, and when), the checkpoint it goes
back to and every file it changes, and asks. Repeated, it walks back through earlier
restores, asking each time. The files as they are before the redo are checkpointed first,
so a redo can be undone with \`rewind restore <that id>\` (one that changes no file takes
none, unless a restore or undo was cut off: "redo" is null). After a restore that was cut
off, it puts everything back as it was before that restore.`,
    examples: ['rewind redo                       # shows which restore it undoes, asks', 'rewind redo --yes --json'],
  },
  revert: revertCommand,
  checkpoints: {
    synopsis: '[--json]',
    summary: "disk usage, retention, every project's store",
    dir: true,
    options: {
      json: json(
        '{"project","store","checkpoints","projectBytes","allBytes","projects","orphans","oldest","newest","retention":{"days","maxGb","dueNow","nextAt","overCap"}}',
      ),
    },
    positionals: false,
    about: `What the checkpoints take on disk: how many this project has, its store's size and every
project's (bytes on disk, as du counts them), the store's folder, the oldest and newest
checkpoint, the retention settings in force and what they drop next, and the stores of
projects whose folder is gone.`,
    after: 'Free space with `rewind prune` (apply retention now) and `rewind clean` (delete stores).',
    examples: ['rewind checkpoints', 'rewind checkpoints --json | jq .retention'],
  },
  prune: {
    synopsis: '[--dry-run] [--json]',
    summary: 'apply retention now, say what it freed',
    dir: true,
    options: {
      'dry-run': dryRun('say what would go, change nothing'),
      json: json('{"dryRun","byAge","bySize","bytesBefore","bytesAfter"} (and "problem", "sizeDropHeld" when there is one)'),
    },
    positionals: false,
    about: `Applies retention now (rewind also applies it whenever it opens the project): checkpoints
older than checkpoint_retention_days go; if the store is still over checkpoint_max_gb, the
oldest half of the rest goes too; then the space is reclaimed. The newest checkpoint, and
one a restore of the last hour would go back to (\`rewind redo\`), are always kept.`,
    after: 'Exits 1 when checkpoints were dropped but their space could not be reclaimed (run it again).',
    examples: ['rewind prune --dry-run', 'rewind config set checkpoint_retention_days 3 && rewind prune'],
  },
  clean: {
    synopsis: '(--orphans | --project | --all) [--yes] [--json]',
    summary: 'delete checkpoint stores (says which and how much first)',
    dir: true,
    options: {
      orphans: { type: 'boolean', help: 'the stores of projects whose folder no longer exists' },
      project: { type: 'boolean', help: "this project's store: every checkpoint of it, and what undoes a restore" },
      all: { type: 'boolean', help: "every project's store" },
      yes,
      json: json('{"which","stores":[{"project","store","checkpoints","bytes","exists"}],"bytes","deleted"} (the list and any question go to stderr)'),
    },
    positionals: false,
    about: 'Deletes checkpoint stores, after saying which and how much they take:',
    after: `Your projects' files are never touched. To keep recent checkpoints and free the rest, use
\`rewind prune\` instead.`,
    examples: ['rewind clean --orphans', 'rewind clean --project --yes'],
  },
  show: {
    synopsis: '<id> [PATH...] [--name-status] [--json]',
    summary: 'what that one step changed (<id> -> the next checkpoint)',
    dir: true,
    options: {
      'name-status': nameStatus,
      json: json(
        '{"id","kind","to","parts":[{"id","label","to","files":[{"status","path"}],"patch"}],"passedOver"} (kind: step or turn, a part per step of a turn; "to": null for the files now; no "patch" with --name-status)',
      ),
    },
    positionals: true,
    about: `What the step of checkpoint <id> changed, as a diff: from the checkpoint to the next one
(for the newest, to the files as they are now). Checkpoints are taken before each step,
so this is what the step named on <id> in \`rewind list\` did; for a prompt, its whole turn:
each of its steps' diffs in turn. PATHs (files or folders) limit it.
(\`rewind diff <id>\` is different: what restoring <id> would change now.)`,
    examples: ['rewind show 12', 'rewind show 12 src/ --name-status'],
  },
  bisect: {
    synopsis: '[--good ID] [--bad ID] [--scan] [--setup CMD] [--json] -- <test command...>',
    summary: 'the first checkpoint where a test fails (your files untouched)',
    dir: true,
    options: {
      good: { type: 'string', arg: 'ID', help: 'a checkpoint where the test passes (default: the first of the newest session)' },
      bad: { type: 'string', arg: 'ID', help: 'a checkpoint where it fails (default: the newest)' },
      scan: { type: 'boolean', help: 'test every checkpoint in order, not about log2(n) of them' },
      setup: { type: 'string', arg: 'CMD', help: 'a shell command run before each test (npm ci); when it fails, that checkpoint is skipped' },
      json: json('{"mode","firstBad","before","lastGood","maybe","restore","range","runs","steps","breaks","nested","projectChanges","notChecked"}'),
    },
    positionals: true,
    about: `Finds the first checkpoint where a test fails. Each checkpoint is tested in a scratch
folder made from the checkpoint store, not in your project, and the folder is removed
afterwards, also on Ctrl-C. A test can still write to your project by its path: the
project (every file, ignored ones and .git included) is checked before and after each
test, and anything a test changed there is named. Exit codes as with
\`git bisect run\`: 0 good, 125 skip (cannot test), 1-127 bad; above 127 or a signal stops it.

By default it searches from the first checkpoint of the newest session (good) to the
newest (bad), in about log2(n) runs. --scan tests every checkpoint in order instead,
for histories that break, get fixed and break again.

Checkpoints hold no ignored files (node_modules, build output): --setup runs a shell
command before each test (\`npm ci\`); when it fails, that checkpoint is skipped.
One word after -- is run by sh (\`-- "npm test && npm run lint"\`).`,
    examples: ['rewind bisect -- npm test', 'rewind bisect --setup "npm ci" -- npx vitest run test/db.test.ts', "rewind bisect --good 3 --scan -- sh -c 'node check.js'"],
  },
  fork: forkCommand,
  export: exportCommand,
  import: importCommand,
  config: {
    forms: [
      { args: '', says: "the effective settings (config.json over defaults) and the file's path" },
      { args: 'path', says: 'the path of config.json' },
      { args: 'get KEY [--json]', says: "one setting's effective value (lists as JSON)" },
      { args: 'set KEY VALUE', says: 'check, then write one setting; other keys are kept' },
      { args: 'validate', says: 'check config.json against config.schema.json' },
    ],
    summary: 'show, check or change the settings (config.json)',
    dir: false,
    options: { json: json('for get KEY: {"key","value","default"}') },
    positionals: true,
    about: (facts) => `Keys:\n${fact(facts, 'configKeys').join('\n')}`,
    after: `Lists take JSON ('["*.log","tmp/"]') or commas ('*.log,tmp/'). A VALUE starting with '-'
is a value, never an option. A bad key in the file is reported by every command and takes
its default; \`validate\` fails on it.
The file lives in $REWIND_CONFIG_DIR, else the OS config folder.`,
    examples: ['rewind config set checkpoint_max_file_mb 50', 'rewind config get checkpoint_exclude', 'rewind config validate'],
  },
  doctor: {
    synopsis: '[--json]',
    summary: 'check what rewind needs, say what to fix',
    dir: true,
    options: {
      json: json('{"ok","checks":[{"name","status","detail","fix"}]} (status: passed, warned or failed)'),
    },
    positionals: false,
    about: `Checks, one line each, what rewind needs and why a checkpoint may not have been taken: Node
and git versions; the store's home (writable, private) and this project's store (restorable
checkpoints, size against checkpoint_max_gb); config.json; each agent rewind hooks into (on
PATH, its version, when its hooks last reached rewind in this project); whether Codex trusts
rewind's hooks (its config.toml); the file watcher's inotify limit against the project's
folders; a pty; the terminal, and in a terminal its keys (it is asked, for at most 300 ms,
whether it speaks the kitty keyboard protocol). Each check passed, warned or failed says
what to do. Changes nothing.`,
    after: 'Exits 1 when a check failed, 0 otherwise (warnings included).',
    examples: ['rewind doctor', 'rewind doctor --json | jq \'.checks[] | select(.status != "passed")\''],
  },
  hook: {
    synopsis: '<agent> <event>',
    summary: "an agent's hook entry (JSON payload on stdin)",
    dir: false,
    options: {},
    positionals: true,
    about: `What an agent's hook runs before a step (a tool call that can change files, a prompt):
a checkpoint first of the project the hook runs in (for Claude Code, CLAUDE_PROJECT_DIR;
never a folder the payload names), the hook's JSON payload read on stdin. Rewind adds these
hooks itself when it runs the agent (\`rewind -- claude\`); run on its own with them, the
agent gets its checkpoints from here. Never blocks or changes the agent's step: a payload
that has not ended after 10 s is read as far as it came, problems are one line on stderr,
the exit code is always 0.`,
    examples: [`echo '{"tool_name":"Bash","tool_input":{"command":"rm -rf build"}}' | rewind hook claude PreToolUse`],
  },
} as const satisfies Readonly<Record<string, CommandSpec>>;

/** A command's name. */
export type CommandName = keyof typeof commandTable;

/** Every command's name, in the table's order. */
export const commandNames = Object.keys(commandTable) as CommandName[];
