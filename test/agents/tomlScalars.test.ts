// The TOML reader behind Rewind's reading of Codex's config.toml: the strings and booleans
// by their full path, whatever way the document writes them, and nothing taken from where it
// only looks like TOML (inside strings and arrays); a document that is not TOML throws.
import { describe, expect, it } from 'vitest';
import { tomlScalars } from '../../src/agents/codex/tomlScalars.js';

const read = (text: string) => tomlScalars(text).map(({ path, value }) => [path.join(' > '), value]);

describe('tomlScalars', () => {
  it('reads tables, quoted and dotted keys, inline tables and every kind of string', () => {
    const text = [
      '\uFEFFmodel = "gpt-5.5" # a comment',
      'check_for_update_on_startup = false',
      'count = 3',
      'when = 1979-05-27 07:32:00Z',
      '',
      '[hooks.state."/<session-flags>/config.toml:pre_tool_use:0:0"]',
      'trusted_hash = "sha256:ab"',
      '',
      "[ hooks . 'state' ]",
      '"a.b".enabled = true',
      'c = { trusted_hash = \'lit\\eral\', inner = { deep = "x" } }',
      '',
      '[escapes]',
      'basic = "tab\\tquote\\" slash\\\\ u\\u00e9 U\\U0001F600"',
      'multi = """',
      'one \\',
      '   two"""',
      "raw = '''",
      "[not.a.table]'''",
    ].join('\r\n');
    expect(read(text)).toEqual([
      ['model', 'gpt-5.5'],
      ['check_for_update_on_startup', false],
      ['hooks > state > /<session-flags>/config.toml:pre_tool_use:0:0 > trusted_hash', 'sha256:ab'],
      ['hooks > state > a.b > enabled', true],
      ['hooks > state > c > trusted_hash', 'lit\\eral'],
      ['hooks > state > c > inner > deep', 'x'],
      ['escapes > basic', 'tab\tquote" slash\\ u\u00e9 U\u{1F600}'],
      ['escapes > multi', 'one two'],
      ['escapes > raw', '[not.a.table]'],
    ]);
  });

  it('passes over arrays (across lines, with comments) and arrays of tables', () => {
    const text = [
      'hooks.PreToolUse = [',
      '  { matcher = "Bash", hooks = [{ type = "command", command = "echo ]", timeout = 5 }] }, # a comment',
      '  "[hooks.state.fake]",',
      ']',
      '[[profiles]]',
      'name = "x"',
      '[after]',
      'seen = true',
    ].join('\n');
    expect(read(text)).toEqual([
      ['[] > profiles > name', 'x'],
      ['after > seen', true],
    ]);
  });

  it('throws on what is not TOML, naming the line', () => {
    expect(() => tomlScalars('a = "b"\n[hooks.state\n')).toThrow('not valid TOML at line 2: "]" expected');
    expect(() => tomlScalars('a = "open\nb = 1\n')).toThrow(/line 1: a string not closed on its line/);
    expect(() => tomlScalars('a = 1 b = 2\n')).toThrow(/line 1/);
    expect(() => tomlScalars('a = "\\q"\n')).toThrow(/unknown escape \\q/);
    expect(() => tomlScalars('= 1\n')).toThrow(/a key expected/);
  });
});
