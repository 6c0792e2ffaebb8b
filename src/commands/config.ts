// `rewind config`: show, get, set and validate config.json.
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { commonOptions, parseCommandArgs } from './shared/args.js';
import { writeLine, type CommandIO } from './shared/io.js';
import { CONFIG_KEYS, assertConfigKey, configDefaults, configFilePath, formatValue, inspectConfig, setConfigValue } from '../config/config.js';
import { describeExpected, propertySchema } from '../config/schema.js';
import { BugError, UsageError } from '../shared/errors.js';
import { effectiveConfig } from './shared/effectiveConfig.js';
import { commandHelp } from './shared/help.js';
import { commandTable } from './shared/table.js';

/** config.json's keys for the help: each with its default and what it takes. */
function keyLines(): string[] {
  const defaults = configDefaults();
  const width = Math.max(...CONFIG_KEYS.map((key) => key.length));
  return CONFIG_KEYS.map((key) => {
    const schema = propertySchema(key);
    const expected = schema ? describeExpected(schema) : '';
    return `  ${key.padEnd(width)}  default ${formatValue(defaults[key])}: ${expected}`;
  });
}

/** Each subcommand (the table's forms) and how many words it takes after its name. */
const subcommands = new Map(
  commandTable.config.forms.flatMap((form) => {
    const [sub, ...params] = form.args.split(' ');
    // Options in the form (`[--json]`) are not words it takes.
    return sub ? [[sub, { arity: params.filter((param) => !param.startsWith('[')).length, usage: form.args }] as const] : [];
  }),
);

/** Entry point of `rewind config`. */
export async function main(argv: string[], io: CommandIO): Promise<number> {
  const valueAt = setValueIndex(argv);
  const { values, positionals } = parseCommandArgs('config', valueAt < 0 ? argv : argv.filter((_, index) => index !== valueAt));
  if (valueAt >= 0) positionals.splice(2, 0, argv[valueAt] ?? '');
  if (values.help) {
    writeLine(io.stdout, commandHelp('config', { configKeys: keyLines() }));
    return 0;
  }
  const [sub, ...args] = positionals;
  if (values.json && sub !== 'get') throw new UsageError('--json goes with `rewind config get KEY` (`rewind config` alone prints the settings as JSON already)');
  if (sub === undefined) return show(io);
  const form = subcommands.get(sub);
  if (form === undefined) throw new UsageError(`unknown config subcommand '${sub}' (see \`rewind config --help\`)`);
  if (args.length !== form.arity) throw new UsageError(`usage: rewind config ${form.usage} (see \`rewind config --help\`)`);
  const [key = '', value = ''] = args;
  switch (sub) {
    case 'path':
      writeLine(io.stdout, configFilePath(io.env));
      return 0;
    case 'get':
      assertConfigKey(key);
      if (values.json) {
        writeLine(io.stdout, JSON.stringify({ key, value: (await effectiveConfig(io))[key], default: configDefaults()[key] }, null, 2));
        return 0;
      }
      writeLine(io.stdout, formatValue((await effectiveConfig(io))[key]));
      return 0;
    case 'set': {
      const result = setConfigValue(key, value, io.env);
      writeLine(io.stdout, `set ${result.key} = ${formatValue(result.value)} in ${result.file}`);
      return 0;
    }
    case 'validate': {
      const { file, exists } = inspectConfig(io.env);
      writeLine(io.stdout, `${file}: ok${exists ? '' : ' (no file: defaults apply)'}`);
      return 0;
    }
    default:
      throw new BugError(`config subcommand '${sub}' is in the command table but not here`);
  }
}

/**
 * Where `set KEY VALUE`'s VALUE is in argv when it starts with '-' (`set gc_every -5`), so
 * that it is read as the value, not as an option; -1 otherwise.
 */
function setValueIndex(argv: string[]): number {
  const { tokens } = parseArgs({ args: argv, options: commonOptions, strict: false, allowPositionals: true, tokens: true });
  const [sub, key] = tokens.filter((token) => token.kind === 'positional');
  if (sub?.value !== 'set' || key === undefined) return -1;
  const at = key.index + 1;
  const value = argv[at];
  return value !== undefined && value.startsWith('-') && value !== '--' ? at : -1;
}

async function show(io: CommandIO): Promise<number> {
  const file = configFilePath(io.env);
  const config = await effectiveConfig(io);
  writeLine(io.stdout, `config file: ${file}${existsSync(file) ? '' : ' (does not exist: all defaults)'}`);
  writeLine(io.stdout, JSON.stringify(config, null, 2));
  return 0;
}
