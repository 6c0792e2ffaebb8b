// The strings and booleans of a TOML document, each with its full dotted path: what Rewind
// reads of Codex's config.toml (the hook trust Codex records there, hookTrust.ts). Tables,
// dotted and quoted keys, inline tables and all four kinds of string are followed; arrays and
// arrays of tables are passed over (nothing Rewind reads lives in one), and numbers and dates
// are skipped. A document that is not TOML throws, saying on which line.

export interface TomlScalar {
  path: string[];
  value: string | boolean;
}

const bareKey = /[A-Za-z0-9_-]/;
const escapes: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', e: '\x1b', '"': '"', '\\': '\\' };

class Reader {
  i = 0;
  constructor(readonly text: string) {}

  fail(what: string): never {
    const line = this.text.slice(0, this.i).split('\n').length;
    throw new Error(`not valid TOML at line ${line}: ${what}`);
  }
  at(token: string): boolean {
    return this.text.startsWith(token, this.i);
  }
  expect(token: string): void {
    if (!this.at(token)) this.fail(`"${token}" expected`);
    this.i += token.length;
  }
  spaces(): void {
    while (this.at(' ') || this.at('\t')) this.i++;
  }
  /** Spaces, line ends and comments. */
  blanks(): void {
    for (;;) {
      this.spaces();
      if (this.at('#')) while (this.i < this.text.length && !this.at('\n')) this.i++;
      if (this.at('\n') || this.at('\r\n')) this.i += this.at('\n') ? 1 : 2;
      else return;
    }
  }
  endOfLine(): void {
    this.spaces();
    if (this.at('#')) while (this.i < this.text.length && !this.at('\n')) this.i++;
    if (this.i < this.text.length && !this.at('\n') && !this.at('\r\n')) this.fail('the end of the line expected');
  }

  key(): string[] {
    const parts: string[] = [];
    for (;;) {
      this.spaces();
      if (this.at('"')) parts.push(this.basic());
      else if (this.at("'")) parts.push(this.literal());
      else {
        const start = this.i;
        while (bareKey.test(this.text[this.i] ?? '')) this.i++;
        if (this.i === start) this.fail('a key expected');
        parts.push(this.text.slice(start, this.i));
      }
      this.spaces();
      if (!this.at('.')) return parts;
      this.i++;
    }
  }

  /** A value: its strings and booleans by their path below it (`[]` for a plain one). */
  value(): TomlScalar[] {
    if (this.at('"""')) return [{ path: [], value: this.multiline('"""') }];
    if (this.at("'''")) return [{ path: [], value: this.multiline("'''") }];
    if (this.at('"')) return [{ path: [], value: this.basic() }];
    if (this.at("'")) return [{ path: [], value: this.literal() }];
    if (this.at('[')) return this.skipArray();
    if (this.at('{')) return this.inlineTable();
    // A boolean, a number or a date (whose time may follow after one space).
    const word = /^[\w.:+-]+(?: (?=\d)[\w.:+-]+)?/.exec(this.text.slice(this.i))?.[0];
    if (word === undefined) this.fail('a value expected');
    this.i += word.length;
    return word === 'true' || word === 'false' ? [{ path: [], value: word === 'true' }] : [];
  }

  inlineTable(): TomlScalar[] {
    this.expect('{');
    const found: TomlScalar[] = [];
    for (this.blanks(); !this.at('}'); ) {
      const key = this.key();
      this.expect('=');
      this.spaces();
      for (const scalar of this.value()) found.push({ path: [...key, ...scalar.path], value: scalar.value });
      this.blanks();
      if (this.at(',')) this.i++;
      else if (!this.at('}')) this.fail('"," or "}" expected');
      this.blanks();
    }
    this.i++;
    return found;
  }

  skipArray(): TomlScalar[] {
    this.expect('[');
    for (this.blanks(); !this.at(']'); ) {
      this.value();
      this.blanks();
      if (this.at(',')) this.i++;
      else if (!this.at(']')) this.fail('"," or "]" expected');
      this.blanks();
    }
    this.i++;
    return [];
  }

  basic(): string {
    this.expect('"');
    let out = '';
    while (!this.at('"')) {
      if (this.i >= this.text.length || this.at('\n')) this.fail('a string not closed on its line');
      out += this.at('\\') ? this.escape() : this.text[this.i++];
    }
    this.i++;
    return out;
  }

  literal(): string {
    this.expect("'");
    const end = this.text.indexOf("'", this.i);
    const newline = this.text.indexOf('\n', this.i);
    if (end < 0 || (newline >= 0 && newline < end)) this.fail('a string not closed on its line');
    const out = this.text.slice(this.i, end);
    this.i = end + 1;
    return out;
  }

  multiline(quotes: '"""' | "'''"): string {
    this.expect(quotes);
    if (this.at('\r\n') || this.at('\n')) this.i += this.at('\n') ? 1 : 2;
    let out = '';
    for (;;) {
      if (this.i >= this.text.length) this.fail('a multi-line string not closed');
      if (this.at(quotes)) {
        this.i += 3;
        // Up to two more quotes belong to the string (`""""` ends with one in it).
        for (let extra = 0; extra < 2 && this.at(quotes[0] ?? ''); extra++) out += this.text[this.i++];
        return out;
      }
      if (quotes === '"""' && this.at('\\')) {
        const rest = /^\\[ \t]*\r?\n[\s]*/.exec(this.text.slice(this.i));
        if (rest) this.i += rest[0].length;
        else out += this.escape();
        continue;
      }
      out += this.text[this.i++];
    }
  }

  escape(): string {
    const letter = this.text[this.i + 1] ?? '';
    const simple = escapes[letter];
    if (simple !== undefined) {
      this.i += 2;
      return simple;
    }
    const digits = letter === 'u' ? 4 : letter === 'U' ? 8 : letter === 'x' ? 2 : 0;
    const hex = this.text.slice(this.i + 2, this.i + 2 + digits);
    if (digits === 0 || !new RegExp(`^[0-9A-Fa-f]{${digits}}$`).test(hex)) this.fail(`an unknown escape \\${letter}`);
    this.i += 2 + digits;
    return String.fromCodePoint(Number.parseInt(hex, 16));
  }
}

/** The strings and booleans of the TOML document `text`, each with its full path (table, then keys); throws when it is not TOML. */
export function tomlScalars(text: string): TomlScalar[] {
  const reader = new Reader(text.replace(/^\uFEFF/, ''));
  const found: TomlScalar[] = [];
  let table: string[] = [];
  for (reader.blanks(); reader.i < reader.text.length; reader.blanks()) {
    if (reader.at('[[')) {
      reader.i += 2;
      // An array of tables: what lies in it is not read (a path no key of Rewind's starts with).
      table = ['[]', ...reader.key()];
      reader.expect(']]');
    } else if (reader.at('[')) {
      reader.i++;
      table = reader.key();
      reader.expect(']');
    } else {
      const key = reader.key();
      reader.expect('=');
      reader.spaces();
      for (const scalar of reader.value()) found.push({ path: [...table, ...key, ...scalar.path], value: scalar.value });
    }
    reader.endOfLine();
  }
  return found;
}
