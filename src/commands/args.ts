import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError, messageOf } from '../shared/errors.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Options every subcommand accepts. */
export const commonOptions = {
  C: { type: 'string', short: 'C' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Options;

/**
 * Strict argv parsing for one subcommand: unknown flags and missing values become a
 * UsageError (exit 2) naming the command's help.
 */
export function parseCommandArgs<const O extends Options>(command: string, argv: string[], options: O, allowPositionals = true) {
  try {
    return parseArgs({ args: argv, options: { ...commonOptions, ...options }, allowPositionals, strict: true });
  } catch (error) {
    throw new UsageError(`${messageOf(error).replace(/\. To specify.*$/s, '')} (see \`rewind ${command} --help\`)`);
  }
}
