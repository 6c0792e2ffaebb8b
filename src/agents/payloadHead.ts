// The head of a hook payload too long to keep whole, or one that stopped coming: JSON cut at
// its end. What is whole in it is read as JSON.parse would read it; what the cut leaves
// unfinished is dropped, except a string already longer than any path (a Write's content, a
// long command): kept as far as it came, since a label needs only its start and no cut of it
// can name a file.

/** Longer than any path the system opens (PATH_MAX): such a string, cut, names no file. */
const longerThanAnyPath = 4096;
/** Deeper than any payload an agent sends. */
const maxDepth = 512;

class NotJson extends Error {}

const number = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

class HeadReader {
  private at = 0;
  /** The cut was reached: every value still open ends here, with what it holds so far. */
  ended = false;

  constructor(private readonly text: string) {}

  /** The value at the reader (undefined when the cut leaves it unfinished). */
  value(depth: number): unknown {
    if (depth > maxDepth) throw new NotJson();
    this.space();
    if (this.atEnd()) return undefined;
    const c = this.text[this.at];
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"') return this.string(true);
    if (c === 't') return this.literal('true', true);
    if (c === 'f') return this.literal('false', false);
    if (c === 'n') return this.literal('null', null);
    return this.number();
  }

  /** After the top value: only white space may follow. */
  finish(): void {
    this.space();
    if (!this.ended && this.at < this.text.length) throw new NotJson();
  }

  private object(depth: number): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    this.at++;
    this.space();
    if (this.atEnd()) return result;
    if (this.text[this.at] === '}') {
      this.at++;
      return result;
    }
    for (;;) {
      this.space();
      if (this.atEnd()) return result;
      if (this.text[this.at] !== '"') throw new NotJson();
      const key = this.string(false);
      if (this.ended || key === undefined) return result;
      this.expect(':');
      if (this.ended) return result;
      const value = this.value(depth + 1);
      // As JSON.parse makes it: an own property, whatever the name (`__proto__` too).
      if (value !== undefined) Object.defineProperty(result, key, { value, enumerable: true, writable: true, configurable: true });
      if (this.ended || !this.more('}')) return result;
    }
  }

  private array(depth: number): unknown[] {
    const result: unknown[] = [];
    this.at++;
    this.space();
    if (this.atEnd()) return result;
    if (this.text[this.at] === ']') {
      this.at++;
      return result;
    }
    for (;;) {
      const value = this.value(depth + 1);
      if (value !== undefined) result.push(value);
      if (this.ended || !this.more(']')) return result;
    }
  }

  /** After a member: true when a `,` says another follows, false at the closing `close` (or the cut). */
  private more(close: string): boolean {
    this.space();
    if (this.atEnd()) return false;
    const c = this.text[this.at++];
    if (c === ',') return true;
    if (c === close) return false;
    throw new NotJson();
  }

  private expect(c: string): void {
    this.space();
    if (this.atEnd()) return;
    if (this.text[this.at++] !== c) throw new NotJson();
  }

  /** A string; one the cut leaves unfinished is kept only as a value longer than any path. */
  private string(isValue: boolean): string | undefined {
    const start = this.at;
    for (let from = start + 1; ; ) {
      const quote = this.text.indexOf('"', from);
      if (quote < 0) {
        this.ended = true;
        return isValue ? cutString(this.text.slice(start + 1)) : undefined;
      }
      let slashes = 0;
      for (let i = quote - 1; i > start && this.text[i] === '\\'; i--) slashes++;
      if (slashes % 2 === 0) {
        this.at = quote + 1;
        return decode(this.text.slice(start, quote + 1));
      }
      from = quote + 1;
    }
  }

  private literal<T>(word: string, value: T): T | undefined {
    if (this.text.startsWith(word, this.at)) {
      this.at += word.length;
      return value;
    }
    if (word.startsWith(this.text.slice(this.at, this.at + word.length))) {
      this.ended = true;
      return undefined;
    }
    throw new NotJson();
  }

  private number(): number | undefined {
    number.lastIndex = this.at;
    const match = number.exec(this.text);
    if (!match) {
      if (this.text.slice(this.at) !== '-') throw new NotJson();
      this.ended = true;
      return undefined;
    }
    this.at += match[0].length;
    // A number the cut ends may have had more digits.
    if (this.at >= this.text.length) {
      this.ended = true;
      return undefined;
    }
    return Number(match[0]);
  }

  private space(): void {
    while (this.at < this.text.length && ' \t\n\r'.includes(this.text[this.at] ?? '')) this.at++;
  }

  private atEnd(): boolean {
    if (this.at < this.text.length) return false;
    this.ended = true;
    return true;
  }
}

/** A whole JSON string token, decoded. */
function decode(token: string): string {
  try {
    return JSON.parse(token) as string;
  } catch {
    throw new NotJson();
  }
}

/** The decoded start of a string the cut ends (`body`: after its opening quote), if it is longer than any path. */
function cutString(body: string): string | undefined {
  if (body.length <= longerThanAnyPath) return undefined;
  // The cut may fall inside an escape (`\`, `\u00`): drop what of it came.
  for (let drop = 0; drop <= 6; drop++) {
    try {
      return JSON.parse(`"${body.slice(0, body.length - drop)}"`) as string;
    } catch {
      // Try a shorter cut.
    }
  }
  return undefined;
}

/**
 * The head of a JSON text (cut at its end: the rest was too long to keep, or never came):
 * what is whole in it, as JSON.parse reads it, and what the cut leaves open closed where it
 * stands. Undefined when what is there is not JSON.
 */
export function parseHead(text: string): unknown {
  const reader = new HeadReader(text);
  try {
    const value = reader.value(0);
    reader.finish();
    return value;
  } catch (error) {
    if (error instanceof NotJson) return undefined;
    throw error;
  }
}
