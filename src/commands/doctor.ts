import path from 'node:path';
import { parseCommandArgs } from './shared/args.js';
import { commandHelp } from './shared/help.js';
import { writeLine, type CommandIO } from './shared/io.js';
import { runChecks } from '../services/doctor/checks.js';
import type { CheckStatus } from '../services/doctor/check.js';

const marks: Record<CheckStatus, string> = { passed: '✓', warned: '!', failed: '✗' };

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const { values } = parseCommandArgs('doctor', argv);
  if (values.help) {
    writeLine(io.stdout, commandHelp('doctor'));
    return 0;
  }
  // The terminal is asked about only when it is this process's own.
  const stdout = io.stdout === process.stdout ? process.stdout : undefined;
  const stdin = stdout && io.stdin === process.stdin ? process.stdin : undefined;
  const checks = await runChecks(path.resolve(io.cwd, values.C ?? '.'), io.env, stdout, stdin);
  const ok = checks.every((check) => check.status !== 'failed');
  if (values.json) {
    writeLine(io.stdout, JSON.stringify({ ok, checks }));
    return ok ? 0 : 1;
  }
  const width = Math.max(...checks.map((check) => check.name.length));
  for (const check of checks) {
    writeLine(io.stdout, `${marks[check.status]} ${check.name.padEnd(width)}  ${check.detail}`);
    if (check.fix) writeLine(io.stdout, `  ${' '.repeat(width)}  → ${check.fix}`);
  }
  const count = (status: CheckStatus) => checks.filter((check) => check.status === status).length;
  writeLine(io.stdout, `${count('passed')} passed, ${count('warned')} warned, ${count('failed')} failed`);
  return ok ? 0 : 1;
}
