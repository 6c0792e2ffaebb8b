// The command bar's parsing and editing, and the status line's checkpoint part.
import { describe, expect, it } from 'vitest';
import { commandHint, completeCommand, editCommandLine, parseCommandLine } from '../../src/runtime/session/commandLine.js';
import { checkpointStatus } from '../../src/runtime/session/viewParts.js';
import type { CheckpointRecord } from '../../src/checkpoints/store/record.js';

describe('parseCommandLine', () => {
  it('takes /name and an argument, with or without the slash, and unique prefixes', () => {
    expect(parseCommandLine('/checkpoint before the refactor')).toEqual({ ok: true, name: 'checkpoint', argument: 'before the refactor' });
    expect(parseCommandLine('redo')).toEqual({ ok: true, name: 'redo', argument: '' });
    expect(parseCommandLine('/he')).toEqual({ ok: true, name: 'help', argument: '' });
    // `checkpoint` is exact even though `checkpoints` shares the prefix.
    expect(parseCommandLine('/checkpoint')).toMatchObject({ ok: true, name: 'checkpoint' });
    expect(parseCommandLine('/checkpoints')).toMatchObject({ ok: true, name: 'checkpoints' });
  });

  it('says what to do with an empty, unknown or ambiguous command', () => {
    expect(parseCommandLine('  ')).toMatchObject({ ok: false, error: expect.stringContaining('type a command') });
    expect(parseCommandLine('/frobnicate')).toMatchObject({ ok: false, error: expect.stringContaining('unknown command /frobnicate') });
    expect(parseCommandLine('/c')).toEqual({ ok: false, error: '/c is more than one command: /checkpoint or /checkpoints or /config' });
    expect(parseCommandLine('/re')).toEqual({ ok: false, error: '/re is more than one command: /rewind or /redo' });
  });
});

describe('editCommandLine', () => {
  it('appends text, deletes with Backspace, clears with Ctrl-U, keeps a paste without its markers', () => {
    expect(editCommandLine('chec', 'kpoint x')).toBe('checkpoint x');
    expect(editCommandLine('redoo', '\x7f')).toBe('redo');
    expect(editCommandLine('anything', '\x15new')).toBe('new');
    expect(editCommandLine('', '\x1b[200~pasted label\x1b[201~')).toBe('pasted label');
    expect(editCommandLine('a', '\x01\x02b')).toBe('ab');
  });
});

describe('the command bar hint', () => {
  it('lists every command while nothing is typed, then those that match what is typed', () => {
    expect(commandHint('')).toBe('/checkpoint [label]  /checkpoints  /rewind  /redo  /bisect <test>  /config  /help  /quit · Esc closes');
    expect(commandHint('/c')).toBe('/checkpoint [label]  /checkpoints  /config');
    expect(commandHint('che')).toBe('/checkpoint [label]  /checkpoints · Tab completes');
    expect(commandHint('/re')).toBe('/rewind  /redo');
  });

  it('says what the one command it names does, and when none matches', () => {
    expect(commandHint('/red')).toBe('/redo: undo the last rewind · Tab completes · Enter runs');
    expect(commandHint('/redo')).toBe('/redo: undo the last rewind · Enter runs');
    expect(commandHint('/checkpoint before the refactor')).toBe('/checkpoint [label]: take a checkpoint now · Enter runs');
    expect(commandHint('/x')).toBe('no command starts with /x · Backspace to fix, Esc closes');
    expect(commandHint('/x y')).toBe('no command /x: Esc closes · /help lists them');
  });
});

describe('Tab in the command bar', () => {
  it('completes a unique prefix (with a space), a shared one as far as it goes, nothing else', () => {
    expect(completeCommand('/red')).toBe('/redo ');
    expect(completeCommand('q')).toBe('quit ');
    expect(completeCommand('/chec')).toBe('/checkpoint');
    expect(completeCommand('/checkpoints')).toBe('/checkpoints ');
    expect(completeCommand('/c')).toBe('/c');
    expect(completeCommand('')).toBe('');
    expect(completeCommand('/x')).toBe('/x');
    expect(completeCommand('/red it')).toBe('/red it');
    expect(editCommandLine('/he', '\tx')).toBe('/help x');
  });
});

describe('checkpointStatus', () => {
  const newest = { id: 14, time: '2026-01-15T14:30:00.000Z' } as CheckpointRecord;
  it('shows the newest checkpoint, its age and the store size, or why checkpoints are off', () => {
    const now = Date.parse('2026-01-15T14:32:00.000Z');
    expect(checkpointStatus(undefined, undefined, now).checkpoints).toBe('opening checkpoints…');
    expect(checkpointStatus({ on: false, reason: 'this is your home folder' }, undefined, now)).toEqual({ checkpoints: 'checkpoints off: this is your home folder', checkpointsOff: true });
    expect(checkpointStatus({ on: true } as never, { count: 0 }, now).checkpoints).toBe('no checkpoints yet');
    expect(checkpointStatus({ on: true } as never, { count: 3, newest, storeBytes: 2_200_000 }, now).checkpoints).toBe('#14 · 2m ago · 2.1 MB');
  });
});
