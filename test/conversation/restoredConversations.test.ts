// The conversation restores a project has made, kept for the picker's count of the turns a
// later one drops: read back in order, a damaged or half-written line skipped, none when
// the file is missing, and never a reason for a restore to fail.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { conversationRestores, noteConversationRestored } from '../../src/conversation/restoredConversations.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rewind-restored-conv-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the conversation restores made', () => {
  it('are read back in the order they were made, with the newest checkpoint of each', () => {
    const conv = path.join(dir, 'conv');
    expect(conversationRestores(conv)).toEqual([]);
    noteConversationRestored(conv, 3, () => 7);
    noteConversationRestored(conv, 6, () => undefined);
    expect(conversationRestores(conv)).toEqual([
      { to: 3, after: 7 },
      { to: 6, after: 6 },
    ]);
    expect(fs.statSync(path.join(conv, 'restores.jsonl')).mode & 0o777).toBe(0o600);
  });

  it('skip a damaged line and a half-written last one', () => {
    const conv = path.join(dir, 'conv');
    noteConversationRestored(conv, 3, () => 7);
    fs.appendFileSync(path.join(conv, 'restores.jsonl'), '{"to":"x","after":1}\nnot json\n{"to":-1,"after":2}\n');
    noteConversationRestored(conv, 4, () => 9);
    fs.appendFileSync(path.join(conv, 'restores.jsonl'), '{"to":5,"af');
    expect(conversationRestores(conv)).toEqual([
      { to: 3, after: 7 },
      { to: 4, after: 9 },
    ]);
  });

  it('are noted or not without failing: an unwritable folder, a list that cannot be read', () => {
    const file = path.join(dir, 'a-file');
    fs.writeFileSync(file, '');
    expect(() => noteConversationRestored(path.join(file, 'conv'), 3, () => 7)).not.toThrow();
    expect(() =>
      noteConversationRestored(path.join(dir, 'conv'), 3, () => {
        throw new Error('the list cannot be read');
      }),
    ).not.toThrow();
    expect(conversationRestores(path.join(dir, 'conv'))).toEqual([]);
  });
});
