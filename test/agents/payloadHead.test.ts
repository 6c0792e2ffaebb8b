// The head of a payload too long to keep (or that never ended): what is whole in it reads as
// JSON.parse reads it, what the cut leaves unfinished is dropped, except a string already
// longer than any path, kept as far as it came.
import { describe, expect, it } from 'vitest';
import { parsePayload } from '../../src/agents/payload.js';
import { parseHead } from '../../src/agents/payloadHead.js';

const long = 'x'.repeat(5000);

describe('parseHead', () => {
  it('reads whole JSON as JSON.parse does', () => {
    for (const text of ['{"a":1,"b":[true,false,null,-1.5e3,"s\\u00e9\\"q\\\\"],"c":{}}', '[]', '"s"', ' {"__proto__":{"x":1}} ']) {
      expect(parseHead(text)).toEqual(JSON.parse(text));
    }
    const own = parseHead('{"__proto__":{"x":1}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(own)).toBe(Object.prototype);
    expect(Object.keys(own)).toEqual(['__proto__']);
  });

  it('keeps what is whole before the cut, and closes what it leaves open', () => {
    expect(parseHead('{"tool_name":"Write","tool_input":{"file_path":"/p/a.txt","content":"abc')).toEqual({ tool_name: 'Write', tool_input: { file_path: '/p/a.txt' } });
    expect(parseHead('{"tool_name":"Bash","tool_input":{"command":"ls"},"n":12')).toEqual({ tool_name: 'Bash', tool_input: { command: 'ls' } });
    expect(parseHead('{"a":[1,2,{"b":tr')).toEqual({ a: [1, 2, {}] });
    expect(parseHead('{"a":"b","c')).toEqual({ a: 'b' });
    expect(parseHead('{"a":"b",')).toEqual({ a: 'b' });
    expect(parseHead('{"a":-')).toEqual({});
  });

  it('keeps a cut string only when it is already longer than any path (no cut of it names a file)', () => {
    expect(parseHead(`{"transcript_path":"/home/u/.claude/projects/p/abc`)).toEqual({});
    expect(parseHead(`{"tool_input":{"command":"${long}`)).toEqual({ tool_input: { command: long } });
    // Cut inside an escape: what came of the escape is dropped.
    expect(parseHead(`{"c":"${long}\\u00`)).toEqual({ c: long });
    expect(parseHead(`{"c":"${long}\\`)).toEqual({ c: long });
  });

  it('is undefined for what is not JSON, cut or not', () => {
    for (const text of ['not json', '{"a" 1', '{"a":1}}', '{"a":1} x', '[1,,2', '{"a":"\\q"}', `${'['.repeat(10_000)}`]) expect(parseHead(text), text).toBeUndefined();
  });
});

describe('parsePayload', () => {
  it('reads a cut payload by its head, a whole one strictly', () => {
    const head = Buffer.from('{"tool_name":"Bash","tool_input":{"command":"ls"},"pad":"xx');
    expect(parsePayload(head)).toBeUndefined();
    expect(parsePayload(head, true)).toEqual({ tool_name: 'Bash', tool_input: { command: 'ls' } });
    expect(parsePayload(Buffer.from('  '), true)).toBeUndefined();
  });
});
