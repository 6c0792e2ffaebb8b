import path from 'node:path';
import type { BisectEvent, BisectResult, CheckpointRecord } from '../checkpoints/index.js';
import { UsageError } from '../shared/errors.js';
import { localTime } from '../shared/time.js';
import { parseCommandArgs } from './shared/args.js';
import { commandHelp } from './shared/help.js';
import { writeLine, type CommandIO } from './shared/io.js';
import { openCheckpoints } from './shared/open.js';
import { parseCheckpointId } from './shared/targetArgs.js';

/** The options before `--`, and the test command after it (undefined without `--`). */
function splitCommand(argv: string[]): { options: string[]; command: string[] | undefined } {
  const at = argv.indexOf('--');
  return at < 0 ? { options: argv, command: undefined } : { options: argv.slice(0, at), command: argv.slice(at + 1) };
}

const labelOf = (record: CheckpointRecord) => record.label || record.trigger;

function progress(io: CommandIO, withSetup: boolean): (event: BisectEvent) => void {
  return (event) => {
    if (event.kind === 'testing' && event.run === 1 && !withSetup) {
      writeLine(io.stderr, 'rewind: note: checkpoints hold no ignored files (node_modules, build output): if the test needs them, add --setup "npm ci" (a failing setup skips that checkpoint)');
    }
    if (event.kind === 'changed') {
      writeLine(io.stderr, `rewind: warning: your project changed during the test of #${event.change.id}: ${event.change.summary}`);
      return;
    }
    if (event.kind === 'testing') {
      writeLine(io.stderr, `rewind: testing #${event.id} (run ${event.run}${event.left > 0 ? `, about ${event.left} more` : ''})`);
      return;
    }
    const { step } = event;
    const why = step.note ?? (step.code === 0 ? 'exit 0' : `exit ${step.code}`);
    writeLine(io.stderr, `rewind:   #${step.id} ${step.verdict} (${why})`);
  };
}

/** Ctrl-C, SIGTERM or SIGHUP while it runs: stop the test, remove the folder, then exit. */
function abortOnSignals(controller: AbortController): { signal: () => NodeJS.Signals | undefined; remove: () => void } {
  let got: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    got ??= signal;
    controller.abort();
  };
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  for (const name of signals) process.on(name, onSignal);
  return { signal: () => got, remove: () => signals.forEach((name) => process.off(name, onSignal)) };
}

function summary(result: BisectResult): string[] {
  const { firstBad, before } = result;
  const lines: string[] = [];
  const maybe = result.maybe.map((record) => `#${record.id}`).join(', ');
  lines.push(
    maybe
      ? `The first bad checkpoint is #${firstBad.id}, or one of ${maybe} that could not be tested.`
      : `The first bad checkpoint is #${firstBad.id}  ${localTime(firstBad.time)}  ${labelOf(firstBad)}`,
  );
  const changed = firstBad.changedPaths ?? [];
  const more = (firstBad.changedSincePrevious ?? changed.length) - changed.length;
  if (!maybe) {
    lines.push(`  changed since #${before.id}: ${changed.length > 0 ? changed.join(', ') : 'no files'}${more > 0 ? ` and ${more} more` : ''}`);
    lines.push(`  by the step of #${before.id}  ${labelOf(before)}  (its diff: rewind show ${before.id})`);
  }
  lines.push(`Put the files back as they were before it: rewind restore ${before.id}`);
  if (result.mode === 'scan' && result.breaks.length > 1) {
    lines.push(`Breaks: ${result.breaks.map((entry) => `#${entry.bad}${entry.fixed === null ? '' : ` (passes again at #${entry.fixed})`}`).join(', ')}`);
  }
  lines.push(...checked(result));
  if (result.nested.length > 0) lines.push(`Nested repositories (${result.nested.join(', ')}) were empty folders in the tests: checkpoints do not hold their files.`);
  return lines;
}

/** What the looks at the project found: only what they saw is claimed. */
function checked(result: BisectResult): string[] {
  const runs = `${result.runs} test run(s) over checkpoints #${result.good.id}..#${result.bad.id}, in a scratch folder`;
  const unread = result.notChecked.length > 0 ? ` (not checked: ${result.notChecked.join(', ')}, which could not be read)` : '';
  if (result.projectChanges.length === 0) return [`${runs}; your project (its files, ignored ones and .git included) was checked after each test: none changed it${unread}.`];
  return [
    `${runs}; but your project changed while they ran (a test writing to it by its path, or another program meanwhile)${unread}:`,
    ...result.projectChanges.map((change) => `  during the test of #${change.id}: ${change.summary}`),
  ];
}

function asJson(result: BisectResult): unknown {
  const brief = (record: CheckpointRecord) => ({ id: record.id, time: record.time, label: labelOf(record), changedPaths: record.changedPaths ?? null });
  return {
    mode: result.mode,
    firstBad: brief(result.firstBad),
    before: brief(result.before),
    lastGood: brief(result.lastGood),
    maybe: result.maybe.map((record) => record.id),
    restore: `rewind restore ${result.before.id}`,
    range: { good: result.good.id, bad: result.bad.id },
    runs: result.runs,
    steps: result.steps,
    breaks: result.breaks,
    nested: result.nested,
    projectChanges: result.projectChanges.map(({ summary: _summary, ...change }) => change),
    notChecked: result.notChecked,
  };
}

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const { options, command } = splitCommand(argv);
  const { values, positionals } = parseCommandArgs('bisect', options);
  if (values.help) {
    writeLine(io.stdout, commandHelp('bisect'));
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected '${positionals[0]}': the test command goes after -- (\`rewind bisect -- npm test\`)`);
  if (command === undefined || command.every((word) => word.trim() === '')) throw new UsageError('missing the test command: put it after -- (`rewind bisect -- npm test`; see `rewind bisect --help`)');
  if (values.setup !== undefined && values.setup.trim() === '') throw new UsageError('--setup got an empty command: name one (`--setup "npm ci"`) or leave it out');
  const good = values.good === undefined ? undefined : parseCheckpointId(values.good, 'bisect');
  const bad = values.bad === undefined ? undefined : parseCheckpointId(values.bad, 'bisect');
  const { checkpoints } = await openCheckpoints(io, values.C, { allowHome: true });
  const where = path.relative(checkpoints.projectRoot, path.resolve(io.cwd, values.C ?? '.'));
  const controller = new AbortController();
  const signals = abortOnSignals(controller);
  let result: BisectResult;
  try {
    result = await checkpoints.bisect({
      command,
      good,
      bad,
      scan: values.scan,
      setup: values.setup,
      env: io.env,
      cwd: where.startsWith('..') || path.isAbsolute(where) ? undefined : where,
      signal: controller.signal,
      onStep: progress(io, values.setup !== undefined),
    });
  } catch (error) {
    const signal = signals.signal();
    if (signal === undefined) throw error;
    writeLine(io.stderr, `rewind: bisect stopped by ${signal}: the test was stopped and its scratch folder removed`);
    return signal === 'SIGINT' ? 130 : signal === 'SIGHUP' ? 129 : 143;
  } finally {
    signals.remove();
  }
  if (values.json) writeLine(io.stdout, JSON.stringify(asJson(result), null, 2));
  else for (const line of summary(result)) writeLine(io.stdout, line);
  if (!values.json && result.badOutput.trim() !== '') {
    writeLine(io.stderr, `rewind: the test's last lines at #${result.firstBad.id}:`);
    for (const line of result.badOutput.trimEnd().split('\n').slice(-10)) writeLine(io.stderr, `  ${line}`);
  }
  return 0;
}
