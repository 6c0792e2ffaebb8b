import fs from 'node:fs';
import path from 'node:path';
import { messageOf, UsageError, UserError } from '../shared/errors.js';
import { importSession, readExportFile } from '../services/transfer/importSession.js';
import { parseCommandArgs } from './shared/args.js';
import { commandHelp } from './shared/help.js';
import { writeLine, type CommandIO } from './shared/io.js';
import { openCheckpoints } from './shared/open.js';

/** The file's bytes, or a one-line UserError. */
function readFile(file: string, named: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UserError(`${named} does not exist: name the file \`rewind export\` wrote`);
    throw new UserError(`${named} cannot be read (${code ?? messageOf(error)}): nothing was imported`);
  }
}

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('import', argv);
  if (values.help) {
    writeLine(io.stdout, commandHelp('import'));
    return 0;
  }
  const named = positionals[0];
  if (named === undefined || named.trim() === '') throw new UsageError('name the file to import (see `rewind import --help`)');
  if (positionals.length > 1) throw new UsageError(`unexpected '${positionals[1]}': import one file at a time`);
  const file = path.resolve(io.cwd, named);
  // Read and checked before the project's store is opened: a file that is not right changes nothing.
  const exported = readExportFile(readFile(file, named), named);
  // No retention pass here: a refused file leaves the store exactly as it was (the next command runs it).
  const { checkpoints } = await openCheckpoints(io, values.C, { allowHome: true, retention: false });
  const { added, already, conversationsLeftOut } = await importSession(checkpoints, exported, named, io.env);
  if (conversationsLeftOut > 0) {
    writeLine(io.stderr, `rewind: warning: ${conversationsLeftOut} conversation(s) of ${named} have no place here (an agent rewind does not know, Gemini CLI not yet run in this folder, or a transcript outside where the agent keeps them): those checkpoints came with their files only`);
  }
  if (values.json) {
    const rows = added.map((record) => ({ id: record.id, from: record.imported?.from ?? null, fromId: record.imported?.id ?? null, time: record.time, label: record.label || record.trigger }));
    writeLine(io.stdout, JSON.stringify({ file, added: rows, already, conversationsLeftOut }, null, 2));
    return 0;
  }
  if (added.length === 0) {
    writeLine(io.stdout, `Nothing to import: this project has all ${already} checkpoint(s) of ${named} already.`);
    return 0;
  }
  const first = added[0];
  const last = added.at(-1);
  const ids = added.length === 1 ? `#${first?.id}` : `#${first?.id}..#${last?.id}`;
  writeLine(io.stdout, `Imported ${added.length} checkpoint(s) from ${exported.manifest.project || named} as ${ids}, marked imported${already > 0 ? ` (${already} were here already)` : ''}.`);
  writeLine(io.stdout, `\`rewind list\` and the picker show them; \`rewind restore ${last?.id ?? ''}\` puts one back${exported.manifest.conversation ? ' (--both: its conversation too, as a new session)' : ''}.`);
  return 0;
}
