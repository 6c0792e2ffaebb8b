// `rewind config`: show, get, set and validate config.json.
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { commonOptions, parseCommandArgs } from './args.js';
import { writeLine, type CommandIO } from './io.js';
import { CONFIG_KEYS, assertConfigKey, configDefaults, configFilePath, formatValue, inspectConfig, setConfigValue } from '../config/config.js';
import { describeExpected, propertySchema } from '../config/schema.js';
import { UsageError } from '../shared/errors.js';
import { effectiveConfig } from './effectiveConfig.js';

function help(): string {
  const defaults = configDefaults();
  const width = Math.max(...CONFIG_KEYS.map((key) => key.length));
  const keys = CONFIG_KEYS.map((key) => {
    const schema = propertySchema(key);
    const expected = schema ? describeExpected(schema) : '';
    return `  ${key.padEnd(width)}  default ${formatValue(defaults[key])}: ${expected}`;
  });
  return `Usage:
  rewind config                 the effective settings (config.json over defaults) and the file's path
  rewind config path            the path of config.json
  rewind config get KEY         one setting's effective value (lists as JSON)
  rewind config set KEY VALUE   check, then write one setting; other keys are kept
  rewind config validate        check config.json against config.schema.json

Keys:
${keys.join('\n')}

Lists take JSON ('["*.log","tmp/"]') or commas ('*.log,tmp/'). A VALUE starting with '-'
is a value, never an option. A bad key in the file is reported by every command and takes
its default; \`validate\` fails on it.
The file lives in $REWIND_CONFIG_DIR, else the OS config folder.

Examples:
  rewind config set checkpoint_max_file_mb 50
  rewind config get checkpoint_exclude
  rewind config validate`;
}

const subcommandArity: Record<string, number> = { path: 0, get: 1, set: 2, validate: 0 };

/** Entry point of `rewind config`. */
export async function main(argv: string[], io: CommandIO): Promise<number> {
  const valueAt = setValueIndex(argv);
  const { values, positionals } = parseCommandArgs('config', valueAt < 0 ? argv : argv.filter((_, index) => index !== valueAt), {});
  if (valueAt >= 0) positionals.splice(2, 0, argv[valueAt] ?? '');
  if (values.help) {
    writeLine(io.stdout, help());
    return 0;
  }
  const [sub, ...args] = positionals;
  if (sub === undefined) return show(io);
  const arity = subcommandArity[sub];
  if (arity === undefined) throw new UsageError(`unknown config subcommand '${sub}' (see \`rewind config --help\`)`);
  if (args.length !== arity) {
    const wanted = sub === 'get' ? ' KEY' : sub === 'set' ? ' KEY VALUE' : '';
    throw new UsageError(`usage: rewind config ${sub}${wanted} (see \`rewind config --help\`)`);
  }
  const [key = '', value = ''] = args;
  switch (sub) {
    case 'path':
      writeLine(io.stdout, configFilePath(io.env));
      return 0;
    case 'get':
      assertConfigKey(key);
      writeLine(io.stdout, formatValue((await effectiveConfig(io))[key]));
      return 0;
    case 'set': {
      const result = setConfigValue(key, value, io.env);
      writeLine(io.stdout, `set ${result.key} = ${formatValue(result.value)} in ${result.file}`);
      return 0;
    }
    default: {
      // validate
      const { file, exists } = inspectConfig(io.env);
      writeLine(io.stdout, `${file}: ok${exists ? '' : ' (no file: defaults apply)'}`);
      return 0;
    }
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
