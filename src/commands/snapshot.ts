import { parseCommandArgs } from './args.js';
import { writeLine, type CommandIO } from './io.js';
import { UserError } from '../shared/errors.js';
import { openCheckpoints } from './open.js';

const help = `Usage: rewind snapshot [--label L] [--json] [-C DIR] [--allow-home]

Takes a checkpoint of the project's files now. Without --label, files unchanged since the
newest checkpoint add nothing (that checkpoint is reported); with a label, a checkpoint is
always added (an unchanged tree makes no new commit: it points at the previous one).
  --label L      what this checkpoint is (shown in the list and the picker)
  --json         print {"id","commit","tree","deduped","unchanged","skipped":[{"path","bytes","reason"}]}
  --allow-home   allow checkpointing your home folder or / (refused otherwise)

Examples:
  rewind snapshot --label "before the refactor"
  rewind snapshot --json            # for scripts: id, commit, tree, skipped`;

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const { values } = parseCommandArgs('snapshot', argv, {
    label: { type: 'string' },
    json: { type: 'boolean' },
    'allow-home': { type: 'boolean' },
    trigger: { type: 'string' },
  }, false);
  if (values.help) {
    writeLine(io.stdout, help);
    return 0;
  }
  const { checkpoints, config } = await openCheckpoints(io, values.C, { allowHome: values['allow-home'], retention: false });
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
