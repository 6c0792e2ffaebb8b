import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError, messageOf } from '../../shared/errors.js';
import { commandTable, type CommandName } from './table.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Options every subcommand accepts. */
export const commonOptions = {
  C: { type: 'string', short: 'C' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Options;

/** What parseArgs makes of command `N`'s argv with its table options. */
type ParseConfigOf<N extends CommandName> = {
  args: string[];
  options: typeof commonOptions & Extract<(typeof commandTable)[N]['options'], Options>;
  allowPositionals: (typeof commandTable)[N]['positionals'];
  strict: true;
};
export type ParsedCommandArgs<N extends CommandName> = ReturnType<typeof parseArgs<ParseConfigOf<N>>>;

/**
 * Strict argv parsing for one subcommand, with the options the command table gives it (the
 * ones its help lists): unknown flags and missing values become a UsageError (exit 2)
 * naming the command's help.
 */
export function parseCommandArgs<N extends CommandName>(command: N, argv: string[]): ParsedCommandArgs<N> {
  const { options, positionals } = commandTable[command];
  try {
    return parseArgs({ args: argv, options: { ...commonOptions, ...options }, allowPositionals: positionals, strict: true }) as ParsedCommandArgs<N>;
  } catch (error) {
    throw new UsageError(`${messageOf(error).replace(/\. To specify.*$/s, '')} (see \`rewind ${command} --help\`)`);
  }
}
