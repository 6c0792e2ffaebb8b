// `rewind export` and `rewind import` in the command table (table.ts): their help and options.
import { json } from './tableOptions.js';

export const exportCommand = {
  synopsis: '[<from>..<to>] [--conversation] (-o | --output) FILE [--json]',
  summary: 'checkpoints as one file another machine can import (git bundle + list)',
  dir: true,
  options: {
    output: { type: 'string', short: 'o', arg: 'FILE', help: 'the file to write (replaced if it exists; made readable by you alone)' },
    conversation: {
      type: 'boolean',
      help: "also the conversations those checkpoints kept: the agent's transcripts up to each of them (your prompts, its replies, tool calls and their output, and any secret that went through them)",
    },
    json: json('{"file","bytes","from","to","checkpoints","sessions","conversation"}'),
  },
  positionals: true,
  about: `Writes checkpoints <from> to <to> (both included; \`5..\` from #5 on, \`..9\` up to #9, \`7\`
#7 alone; all of them without a range) into one file: a git bundle that holds every file
of each (no earlier checkpoint, no project commit needed to read it), their entries in the
list (times, labels, which is a prompt's text or a tool call, steps, session, agent), and
a checksum. \`rewind import FILE\` on another machine, in a clone of the project, adds them
there as an imported session. Without --conversation no byte of any transcript is in the
file; with it, the conversations up to those checkpoints are, and the one who imports it
can read everything that was said in them.`,
  examples: ['rewind export -o session.rewind', 'rewind export 12..30 --conversation -o handover.rewind', 'rewind export 40 -o one.rewind --json'],
} as const;

export const importCommand = {
  synopsis: 'FILE [--json]',
  summary: "an export's checkpoints into this project's list and picker",
  dir: true,
  options: {
    json: json('{"file","added":[{"id","from","fromId","time","label"}],"already","conversationsLeftOut"}'),
  },
  positionals: true,
  about: `Adds the checkpoints of a file \`rewind export\` wrote to this project's checkpoints, as an
imported session after the ones it has: \`rewind list\` and the picker show them with
their times, labels, steps and agent, and \`rewind restore <id>\` puts their files back
(their conversation too, when the file holds it and the same agent is here: resumed as a
new session). The file is checked whole first (its checksum, then \`git bundle verify\` and
every object its checkpoints need): a file that is damaged, cut short or not an export
changes nothing. Importing the same checkpoints again adds nothing.`,
  examples: ['rewind import session.rewind', 'rewind import ~/Downloads/handover.rewind -C ~/work/api --json'],
} as const;
