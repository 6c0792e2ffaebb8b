// Notices fit the terminal: at 80, 120 and 200 columns a notice keeps what happened and what
// to do, gives up its detail first, and is never cut inside a word.
import React from 'react';
import { Text } from 'ink';
import { describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { fitNotice } from '../../src/app/noticeFit.js';
import { statusLineRow } from '../../src/app/bottomLine.js';
import { demoHint } from '../../src/commands/demo.js';
import { renderWait } from './renderWait.js';

// eslint-disable-next-line no-control-regex -- SGR sequences start with ESC
const plain = (row: string) => row.replace(/\x1b\[[0-9;]*m/g, '');
const status = { checkpoints: '#14 · 2m ago · 2.1 MB', checkpointsOff: false, agent: 'agent idle', keys: 'Esc Esc rewind · Ctrl+] commands' };
const row = (text: string, width: number) => plain(statusLineRow({ ...status, notice: { text, tone: 'info' } }, width));

// The notices the app says, as it says them (pickerFlow, hookCalls, the restore coordinator):
// the step a rewind went back to is named as its row names it, its free text quoted.
const both = 'restored the files and the conversation to before prompt “fix the login” (1 turn dropped): 4 file(s) changed (3 written, 1 deleted) — undo with /redo or Esc Esc → undo last rewind';
const files = 'restored the files to just before “Edit server.js”: 4 file(s) changed (3 written, 1 deleted) — undo with /redo or Esc Esc → undo last rewind';
const meanwhile = 'restored the files to just before “Edit server.js”, kept 2 written meanwhile (by something else: a.txt, b.txt): 4 file(s) changed (3 written, 1 deleted) — /redo brings them back';
const afresh = 'started the agent afresh (no message was left at that point); your files are untouched';
const undo = 'undid the rewind to just before “Bash rm -rf tests” (the files; the conversation stays as it is): 2 file(s) changed (2 written, 0 deleted) — Esc Esc → “undo of …” takes the undo back';
const noHooks = 'no hook call came from gemini: its checkpoints come only from Enter and file changes (see the README, "Agents and their hooks")';
const busy =
  'restored the files to just before “Bash npm test” and the conversation to before prompt “run the tests” (1 turn dropped) while the agent was still busy (Ctrl-C did not stop it in 5 s: it may write over them): 3 file(s) changed (3 written, 0 deleted) — undo with /redo or Esc Esc → undo last rewind';
/** A prompt with the notice's own marks in it: a colon, brackets, a dash, a semicolon, an `or`. */
const odd = 'restored the files to just before prompt “fix: the (login) — now; or not”: 4 file(s) changed (3 written, 1 deleted) — undo with /redo or Esc Esc → undo last rewind';
const all = [both, files, meanwhile, afresh, undo, noHooks, busy, odd];

/** The words of a text, without the `…` of a cut and the punctuation a cut leaves. */
const words = (text: string) =>
  text
    .split(' ')
    .map((word) => word.replace(/…$/, '').replace(/[,;:]$/, ''))
    .filter(Boolean);

describe('a notice fitted to the width', () => {
  it('is left whole when it fits', () => {
    for (const text of all) expect(fitNotice(text, 300)).toBe(text);
  });

  it('at 80 columns keeps what was restored and how to undo it, and drops the detail, then the step it went back to', () => {
    expect(row(both, 80)).toBe(' ◈ restored the files and the conversation: 4 file(s) changed — undo with /redo');
    expect(row(files, 80)).toBe(' ◈ restored the files to just before “Edit server.js” — undo with /redo');
    expect(row(meanwhile, 80)).toBe(' ◈ restored the files, kept 2 written meanwhile — /redo brings them back');
    expect(row(afresh, 80)).toBe(' ◈ started the agent afresh; your files are untouched');
    expect(row(undo, 80)).toBe(' ◈ undid the rewind: 2 file(s)… — Esc Esc → “undo of …” takes the undo back');
    // An undo that also took back later changes says so, and how to get them back, at 80 columns too.
    const undoSince = 'undid the rewind to just before “Bash rm -rf tests” (the files; the conversation stays as it is) and later changes (to README.md, docs/usage.md): 5 file(s) changed (2 written, 3 deleted) — Esc Esc → “undo of …” brings them back';
    expect(row(undoSince, 80)).toBe(' ◈ undid the rewind and later changes — Esc Esc → “undo of …” brings them back');
    const chosenSince = 'undid the rewind of chosen files to just before “Bash rm -rf tests” (the files; the conversation stays as it is) and later changes (to README.md): 1 file(s) changed (1 written, 0 deleted) — Esc Esc → “undo of …” brings them back';
    expect(row(chosenSince, 80)).toBe(' ◈ undid the rewind and later changes — Esc Esc → “undo of …” brings them back');
    expect(row(noHooks, 80)).toBe(' ◈ no hook call came from gemini: its checkpoints come only from Enter and file…');
    // The name's own colon, brackets, dash and `or` are not the notice's: it goes whole, never cut there.
    expect(row(odd, 80)).toBe(' ◈ restored the files: 4 file(s) changed — undo with /redo');
  });

  it('at 120 columns keeps the step it went back to and the count, and drops the asides (and where short, the other way to undo)', () => {
    expect(row(both, 120)).toBe(' ◈ restored the files and the conversation to before prompt “fix the login”: 4 file(s) changed — undo with /redo');
    expect(row(files, 120)).toBe(' ◈ restored the files to just before “Edit server.js”: 4 file(s) changed — undo with /redo or Esc Esc → undo last rewind');
    expect(row(noHooks, 120)).toBe(' ◈ no hook call came from gemini: its checkpoints come only from Enter and file changes');
    expect(row(busy, 120)).toBe(' ◈ restored the files and the conversation while the agent was still busy: 3 file(s) changed — undo with /redo');
    expect(row(odd, 120)).toBe(' ◈ restored the files to just before prompt “fix: the (login) — now; or not”: 4 file(s) changed — undo with /redo');
  });

  it('at 200 columns says all of a restore, and of a longer one all but its asides and the other way', () => {
    expect(row(both, 200)).toBe(` ◈ rewind ${both}`);
    expect(row(meanwhile, 200)).toBe(` ◈ rewind ${meanwhile}`);
    expect(row(busy, 200)).toBe(
      ' ◈ restored the files to just before “Bash npm test” and the conversation to before prompt “run the tests” while the agent was still busy: 3 file(s) changed — undo with /redo',
    );
  });

  it("the demo's first notice keeps what to type at 80 columns", () => {
    expect(row(demoHint, 80)).toBe(' ◈ type 1, 2 or 3 and Enter for a demo task — Esc Esc rewinds what it did…');
    expect(row(demoHint, 120)).toBe(` ◈ rewind ${demoHint}`);
  });

  it('counts the files changed as the rewind\'s row does, never a part of them: how they changed goes whole or not at all', () => {
    const twoCounts = 'undid the rewind to just before “Edit a.txt”: 5 file(s) changed (3 written, 2 deleted) — Esc Esc → “undo of …” takes the undo back';
    expect(fitNotice(twoCounts, 80)).toBe('undid the rewind: 5 file(s) changed — Esc Esc → “undo of …” takes the undo back');
    expect(fitNotice(twoCounts, 117)).toBe('undid the rewind to just before “Edit a.txt”: 5 file(s) changed — Esc Esc → “undo of …” takes the undo back');
    for (let width = 60; width <= 200; width++) {
      const shown = fitNotice(twoCounts, width);
      if (shown.includes('file(s)')) expect(shown, `${width}`).toContain('5 file(s)');
      if (/written|deleted/.test(shown)) expect(shown, `${width}`).toContain('(3 written, 2 deleted)');
    }
  });

  it('drops how the files changed before any other aside: what to tell the agent stays longer', () => {
    const tell = 'restored the files to just before “Edit src/server.js” (tell aider its edits after it are gone): 4 file(s) changed (3 written, 1 deleted) — undo with /redo or Esc Esc → undo last rewind';
    const withoutHow = tell.replace(' (3 written, 1 deleted)', '');
    expect(fitNotice(tell, withoutHow.length)).toBe(withoutHow);
    expect(fitNotice(tell, withoutHow.length - 1)).not.toContain('(tell aider');
  });

  it('never goes over the width nor cuts a word, at any width from 80 to 200', () => {
    for (const text of all) {
      for (let width = 80; width <= 200; width++) {
        const shown = row(text, width);
        expect(stringWidth(shown), `${width}: ${shown}`).toBeLessThanOrEqual(width);
        for (const word of words(shown.replace(/^ ◈ (rewind )?/, ''))) expect(words(text), `${width}: "${word}" in ${shown}`).toContain(word);
        // What happened stays; so does how to undo a restore.
        expect(shown).toMatch(/ ◈ (rewind )?(restored the files|started the agent afresh|undid the rewind|no hook call came from gemini)/);
        if (text.includes('— undo with /redo')) expect(shown).toContain('— undo with /redo');
      }
    }
  });

  it('never cuts inside a name, nor ends a cut on a dash or an arrow, at any width from 20 to 200', () => {
    const commaName = 'nothing to restore to just before “Bash git add a, b, c”: the files already match it (no redo point made)';
    for (const text of [...all, commaName]) {
      for (let width = 20; width <= 200; width++) {
        const shown = fitNotice(text, width);
        expect(stringWidth(shown), `${width}: ${shown}`).toBeLessThanOrEqual(width);
        expect(shown.split('“').length, `${width}: ${shown}`).toBe(shown.split('”').length);
        expect(shown, `${width}`).not.toMatch(/[—→]…$/);
      }
    }
    expect(fitNotice(commaName, 88)).toBe('nothing to restore to just before “Bash git add a, b, c”: the files already match it');
    expect(fitNotice(commaName, 60)).toBe('nothing to restore to just before “Bash git add a, b, c”');
    expect(fitNotice(commaName, 50)).toBe('nothing to restore: the files already match it');
  });

  it('is one line in Ink at 80, 120 and 200 columns, as the status line is drawn', () => {
    for (const width of [80, 120, 200]) {
      const view = renderWait(<Text>{statusLineRow({ ...status, notice: { text: both, tone: 'info' } }, width)}</Text>, { columns: width });
      try {
        expect(view.lines(), `${width} columns`).toHaveLength(1);
        expect(view.frame()).toMatch(/restored the files and the conversation.* — undo with \/redo/);
      } finally {
        view.unmount();
      }
    }
  });
});
