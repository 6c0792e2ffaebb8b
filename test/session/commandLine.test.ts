// The command bar's parsing and editing, and the status line's checkpoint part.
import { describe, expect, it } from 'vitest';
import { editCommandLine, parseCommandLine } from '../../src/session/commandLine.js';
import { checkpointStatus } from '../../src/session/viewParts.js';
import type { CheckpointRecord } from '../../src/checkpoints/record.js';

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
    expect(parseCommandLine('/c')).toMatchObject({ ok: false, error: expect.stringContaining('/checkpoint') });
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
