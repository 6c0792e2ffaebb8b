/** How an agent's command line takes its options' values (as its --help lists them). */
export interface OptionShapes {
  /** Options that take one value. */
  oneValue: ReadonlySet<string>;
  /** Options that take every value up to the next option. */
  manyValues: ReadonlySet<string>;
  /** Options whose value is optional (taken when the next argument is not an option). */
  optionalValue: ReadonlySet<string>;
}

const isOption = (arg: string) => arg.startsWith('-') && arg !== '-';

/**
 * The options of `args` (with their values) but those in `dropped`, up to a `--`: the words
 * that are no option's value (the prompt) go too. Which options take a value decides what
 * the prompt is. `stopAtWord`: everything from the first such word on goes (a subcommand's).
 */
export function optionsWithout(args: readonly string[], shapes: OptionShapes, dropped: ReadonlySet<string>, stopAtWord = false): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') break;
    if (!isOption(arg)) {
      // A command whose first word is a subcommand or the prompt: what follows is not its options.
      if (stopAtWord) break;
      continue;
    }
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), true] : [arg, false];
    const values: string[] = [];
    if (!inline) {
      if (shapes.oneValue.has(name) && i + 1 < args.length) values.push(args[++i] as string);
      else if (shapes.manyValues.has(name)) while (i + 1 < args.length && !isOption(args[i + 1] as string) && args[i + 1] !== '--') values.push(args[++i] as string);
      else if (shapes.optionalValue.has(name) && i + 1 < args.length && !isOption(args[i + 1] as string)) values.push(args[++i] as string);
    }
    if (dropped.has(name)) continue;
    out.push(arg, ...values);
  }
  return out;
}
