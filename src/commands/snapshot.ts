import { parseCommandArgs } from './shared/args.js';
import { commandHelp } from './shared/help.js';
import { writeLine, type CommandIO } from './shared/io.js';
import { UserError } from '../shared/errors.js';
import { openSnapshotter } from './shared/opening.js';

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const { values } = parseCommandArgs('snapshot', argv);
  if (values.help) {
    writeLine(io.stdout, commandHelp('snapshot'));
    return 0;
  }
  const { checkpoints, config } = await openSnapshotter(io, values.C, { allowHome: values['allow-home'] });
  if (config.checkpointing_disabled) {
    throw new UserError('checkpointing is disabled in config.json (checkpointing_disabled); turn it on with `rewind config set checkpointing_disabled false`');
  }
  const { record, warnings, unchanged } = await checkpoints.snapshot({
    label: values.label,
    onlyIfChanged: values.label === undefined,
    trigger: values.trigger ?? 'manual',
    session: io.env.REWIND_SESSION ?? null,
    agent: io.env.REWIND_AGENT ?? null,
  });
  for (const warning of warnings) writeLine(io.stderr, `rewind: warning: ${warning}`);
  if (values.json) {
    const { id, commit, tree, deduped, skipped } = record;
    writeLine(io.stdout, JSON.stringify({ id, commit, tree, deduped: deduped || unchanged === true, unchanged: unchanged === true, skipped }));
    return 0;
  }
  if (unchanged) {
    writeLine(io.stdout, `no change since checkpoint #${record.id} (${record.commit.slice(0, 12)}): nothing added (give --label to add one anyway)`);
    return 0;
  }
  const what = record.deduped ? 'no change since the previous checkpoint' : `${record.changedSincePrevious} file(s) changed`;
  writeLine(io.stdout, `checkpoint #${record.id} (${record.commit.slice(0, 12)}): ${what}`);
  for (const file of record.skipped) writeLine(io.stdout, `  skipped ${file.path} (${file.bytes} bytes): ${file.reason}`);
  return 0;
}
