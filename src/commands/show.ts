import { parseCommandArgs } from './shared/args.js';
import { commandHelp } from './shared/help.js';
import { writeLine, type CommandIO } from './shared/io.js';
import { openDiffTarget, type DiffTarget } from './shared/targetArgs.js';
import { jsonFormats, parseNameStatus } from './shared/diffJson.js';
import { partsOf, sessionSteps, type StepPart } from '../services/steps/sessionSteps.js';

/** `rewind show --json`: each part of the step with its files and (without --name-status) its patch. */
async function printJson(io: CommandIO, target: DiffTarget, parts: readonly StepPart[], patch: boolean): Promise<number> {
  const { checkpoints, id, only } = target;
  const shown = [];
  const passedOver = new Set<number>();
  for (const { id: part, through } of parts) {
    const step = await checkpoints.stepDiff(part, only, jsonFormats.files, through);
    step.passedOver.forEach((n) => passedOver.add(n));
    const files = parseNameStatus(step.diff);
    const text = patch ? (await checkpoints.stepDiff(part, only, jsonFormats.patch, through)).diff.toString('utf8') : undefined;
    shown.push({ id: part, label: step.record.label || step.record.trigger, to: step.to?.id ?? null, files, ...(text === undefined ? {} : { patch: text }) });
  }
  const kind = parts.length > 1 ? 'turn' : 'step';
  writeLine(io.stdout, JSON.stringify({ id, kind, to: shown.at(-1)?.to ?? null, parts: shown, passedOver: [...passedOver] }, null, 2));
  return 0;
}

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('show', argv);
  if (values.help) {
    writeLine(io.stdout, commandHelp('show'));
    return 0;
  }
  const target = await openDiffTarget(io, 'show', values, positionals);
  const { checkpoints, id, only, format } = target;
  const parts = partsOf(sessionSteps(checkpoints.list()), id);
  if (values.json) return printJson(io, target, parts, values['name-status'] !== true);
  let shown = 0;
  let end = 'the files now';
  for (const { id: part, through } of parts) {
    const step = await checkpoints.stepDiff(part, only, format, through);
    const to = step.to ? `#${step.to.id}` : 'the files now';
    end = to;
    // A turn's steps one after the other, each named, as the picker's `d` shows them.
    if (parts.length > 1 && step.diff.length > 0) writeLine(io.stdout, `# #${part} ${step.record.label || step.record.trigger}: #${part} -> ${to}`);
    io.stdout.write(step.diff);
    shown += step.diff.length;
    if (step.passedOver.length > 0) writeLine(io.stderr, `rewind: ${step.passedOver.map((n) => `#${n}`).join(', ')} can no longer be read: shown from #${part} to ${to}`);
  }
  const what = parts.length > 1 ? 'turn' : 'step';
  if (shown === 0) writeLine(io.stderr, `rewind: the ${what} of #${id} changed no files${only.length > 0 ? ' there' : ''} (#${id} -> ${end})`);
  return 0;
}
