// /bisect in the app end to end: a plain bash as the agent breaks a file, /bisect finds the
// first bad checkpoint in the background, /bisect opens the picker there, and `d` shows the
// step that broke it.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../helpers/fingerprint.js';
import type { TermSession } from '../helpers/term.js';
import { termSandbox } from '../helpers/termSandbox.js';
import { write } from '../helpers/tempRepo.js';

const terms = termSandbox('rewind-bisect-e2e-');


/** Runs `line` in the agent's bash, waits for `done`, then takes a checkpoint with /checkpoint (and waits for its notice). */
async function step(term: TermSession, line: string, done: () => boolean, label: string): Promise<void> {
  term.write(`${line}\r`);
  await term.waitFor(done, 10_000, line);
  term.write('\x1d');
  await term.waitFor(/◈ \//, 5_000, 'the command bar');
  term.write(`checkpoint ${label}\r`);
  // Named as its row will read (each step's label is its own).
  await term.waitFor((screen) => screen.includes(`checkpoint taken: “${label}”`), 10_000, `checkpoint ${label}`);
}

describe('/bisect in the app', () => {
  it('finds the first bad checkpoint, opens the picker there, and d shows the step that broke it', async () => {
    const sb = terms.sandbox();
    const root = sb.repo('bisect');
    write(root, 'status', 'ok\n');
    const term = terms.start(['--', 'bash', '--norc', '--noprofile'], { cwd: root, env: { ...sb.env, PS1: 'agent$ ' }, cols: 160, rows: 30 });
    await term.waitFor(/agent\$/, 15_000, 'the agent prompt');
    const file = (name: string) => path.join(root, name);
    await step(term, 'echo two > s.txt', () => fs.existsSync(file('s.txt')), 'two');
    await step(term, 'echo broken > status', () => fs.readFileSync(file('status'), 'utf8') === 'broken\n', 'three');
    await step(term, 'echo four > s.txt', () => fs.readFileSync(file('s.txt'), 'utf8') === 'four\n', 'four');
    const before = fingerprint(root);

    term.write('\x1d');
    await term.waitFor(/◈ \//, 5_000, 'the command bar');
    term.write("bisect grep -q '^ok$' status\r");
    await term.waitFor(/bisect: #\d+ is the first bad checkpoint, after the step of #\d+ .*Esc Esc opens the picker there/, 30_000, 'the bisect result in the status line');
    expect(fingerprint(root)).toEqual(before);

    // The offer: Esc Esc opens the picker at the first bad checkpoint.
    term.write('\x1b');
    term.write('\x1b');
    await term.waitFor(/rewind to a checkpoint[\s\S]*d diff/, 10_000, 'the picker, with d for the diff');
    // The row above the first bad one is the step that broke it.
    term.write('\x1b[A');
    term.write('d');
    await term.waitFor(/: what it changed \(\d+ lines\)/, 10_000, 'the diff view');
    await term.waitFor((screen) => /^\W*-ok\W*$/m.test(screen) && /^\W*\+broken\W*$/m.test(screen), 10_000, 'the breaking change in the diff');
    term.write('\x1b');
    await term.waitFor((screen) => !screen.includes('+broken') && screen.includes('d diff'), 10_000, 'back to the list');
  });
});
