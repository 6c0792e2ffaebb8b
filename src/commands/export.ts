import path from 'node:path';
import { UsageError, UserError } from '../shared/errors.js';
import { writeFileAtomic } from '../shared/atomicFile.js';
import { exportSession } from '../services/transfer/exportSession.js';
import { parseCommandArgs } from './shared/args.js';
import { commandHelp } from './shared/help.js';
import { writeLine, type CommandIO } from './shared/io.js';
import { openCheckpoints } from './shared/open.js';
import { parseCheckpointId } from './shared/targetArgs.js';

/** `<from>..<to>`, `<from>..`, `..<to>` or `<id>` as typed; both ends open without one. */
export function parseRange(raw: string | undefined): { from?: number; to?: number } {
  if (raw === undefined) return {};
  const dots = raw.indexOf('..');
  if (dots < 0) {
    const id = parseCheckpointId(raw, 'export');
    return { from: id, to: id };
  }
  const [first, last] = [raw.slice(0, dots), raw.slice(dots + 2)];
  const from = first === '' ? undefined : parseCheckpointId(first, 'export');
  const to = last === '' ? undefined : parseCheckpointId(last, 'export');
  if (from !== undefined && to !== undefined && from > to) throw new UsageError(`'${raw}' runs backwards: name the older checkpoint first (${to}..${from})`);
  return { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
}

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('export', argv);
  if (values.help) {
    writeLine(io.stdout, commandHelp('export'));
    return 0;
  }
  if (positionals.length > 1) throw new UsageError(`unexpected '${positionals[1]}': give one range, <from>..<to> (see \`rewind export --help\`)`);
  const range = parseRange(positionals[0]);
  if (values.output === undefined || values.output.trim() === '') throw new UsageError('name the file to write with -o FILE (see `rewind export --help`)');
  const file = path.resolve(io.cwd, values.output);
  const { checkpoints } = await openCheckpoints(io, values.C, { allowHome: true });
  const records = checkpoints.list();
  const first = records[0];
  const newest = records.at(-1);
  if (!first || !newest) throw new UserError(`no checkpoints yet in ${checkpoints.projectRoot}: nothing to export`);
  const from = range.from ?? first.id;
  const to = range.to ?? newest.id;
  const conversation = values.conversation === true;
  const { data, manifest } = await exportSession(checkpoints, from, to, conversation);
  writeFileAtomic(file, data, 0o600);
  const ids = manifest.checkpoints.map((entry) => entry.id);
  const sessions = new Set(manifest.checkpoints.map((entry) => entry.session)).size;
  if (values.json) {
    writeLine(io.stdout, JSON.stringify({ file, bytes: data.length, from: ids[0], to: ids.at(-1), checkpoints: ids, sessions, conversation }, null, 2));
    return 0;
  }
  const span = ids.length === 1 ? `checkpoint #${ids[0]}` : `checkpoints #${ids[0]}..#${ids.at(-1)} (${ids.length}, ${sessions} session${sessions === 1 ? '' : 's'})`;
  writeLine(io.stdout, `Exported ${span} to ${file} (${data.length} bytes)`);
  writeLine(
    io.stdout,
    conversation
      ? 'With their conversations: whoever imports it can read the prompts, the replies, the tool calls and their output (secrets included).'
      : 'Without any conversation (the list keeps its labels: prompts and tool calls as `rewind list` shows them); --conversation adds the transcripts.',
  );
  writeLine(io.stdout, `On the other machine, in a clone of the project: rewind import ${JSON.stringify(path.basename(file))}`);
  return 0;
}
