// The rewind picker end to end: a plain bash as the agent, checkpoints from Enter, Esc Esc,
// a restore of files, the agent still there, /redo.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../helpers/fingerprint.js';
import type { TermSession } from '../helpers/term.js';
import { termSandbox } from '../helpers/termSandbox.js';

const terms = termSandbox('rewind-picker-e2e-');

function type(term: TermSession, line: string): void {
  term.write(line);
  term.write('\r');
}

/**
 * Ctrl-C at bash's prompt, waiting for the new prompt it prints. The first Esc of Esc Esc
 * reached bash, whose readline may still hold it as the start of an Alt+key (README): a
 * Ctrl-C clears that, as it would for a user. Sent alone: a Ctrl-C also flushes whatever
 * else is in the terminal's input queue.
 */
async function clearLine(term: TermSession): Promise<void> {
  const interrupts = (term.text().match(/\^C/g) ?? []).length;
  term.write('\x03');
  await term.waitFor((screen) => (screen.match(/\^C/g) ?? []).length > interrupts && /^agent\$ *$/m.test(screen.slice(screen.lastIndexOf('^C'))), 10_000, 'a fresh prompt after Ctrl-C');
}

describe('Esc Esc → pick → restore files', () => {
  it('restores the oldest checkpoint from the picker, the agent carries on, and /redo undoes it', async () => {
    const sb = terms.sandbox();
    const root = sb.repo('picker');
    const gitBefore = fingerprint(path.join(root, '.git'));
    const term = terms.start(['--', 'bash', '--norc', '--noprofile'], { cwd: root, env: { ...sb.env, PS1: 'agent$ ' } });
    await term.waitFor(/agent\$/, 15_000, 'the agent prompt');

    type(term, 'echo one > a.txt');
    await term.waitFor(() => fs.existsSync(path.join(root, 'a.txt')), 10_000, 'a.txt');
    type(term, 'echo two > b.txt');
    await term.waitFor(() => fs.existsSync(path.join(root, 'b.txt')), 10_000, 'b.txt');
    type(term, 'echo three >> a.txt');
    await term.waitFor(() => fs.readFileSync(path.join(root, 'a.txt'), 'utf8') === 'one\nthree\n', 10_000, 'a.txt edited');
    await term.waitFor(/#\d+ ·/, 10_000, 'the checkpoints in the status line');

    term.write('\x1b');
    term.write('\x1b');
    // The oldest row is the checkpoint the session started with: before any of the above.
    await term.waitFor(/rewind to a checkpoint[\s\S]*session start/, 10_000, 'the picker with the first checkpoint');
    term.write('\x1b[H');
    term.write('\r');
    await term.waitFor(/files only/, 10_000, 'the restore modes');
    expect(term.text()).toMatch(/conversation/);
    term.write('f');
    await term.waitFor(/restored the files to just before “session start”/, 15_000, 'the restore notice');
    expect(fs.existsSync(path.join(root, 'a.txt'))).toBe(false);
    expect(fs.existsSync(path.join(root, 'b.txt'))).toBe(false);
    expect(fs.readFileSync(path.join(root, 'README.md'), 'utf8')).toBe('# project\n');
    expect(fingerprint(path.join(root, '.git'))).toEqual(gitBefore);

    await clearLine(term);
    type(term, 'echo still-here');
    await term.waitFor(/^still-here$/m, 10_000, 'the agent answering after the restore');

    term.write('\x1d');
    await term.waitFor(/◈ \/ +\/checkpoint \[label\]/, 5_000, 'the command bar, listing the commands');
    term.write('redo');
    term.write('\r');
    await term.waitFor(/undid the rewind/, 15_000, 'the redo notice');
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('one\nthree\n');
    expect(fs.readFileSync(path.join(root, 'b.txt'), 'utf8')).toBe('two\n');
    expect(fingerprint(path.join(root, '.git'))).toEqual(gitBefore);
  });

  it('with no checkpoints yet, Esc Esc says so and opens no dialog', async () => {
    const sb = terms.sandbox();
    // With checkpointing on, a session starts with a checkpoint; off, this project has none.
    const root = sb.repo('empty');
    fs.mkdirSync(sb.configDir, { recursive: true });
    fs.writeFileSync(path.join(sb.configDir, 'config.json'), '{ "checkpointing_disabled": true }\n');
    const term = terms.start(['--', 'cat'], { cwd: root, env: sb.env });
    await term.waitFor(/◈ rewind/, 15_000, 'the status line');
    term.write('\x1b\x1b');
    await term.waitFor(/no checkpoints yet — taken on session start, Enter and file changes/, 10_000, 'the message');
    expect(term.text()).not.toMatch(/files only|╭/);
  });

  it('while the agent is busy the picker says so, and restoring stops it first', async () => {
    const sb = terms.sandbox();
    const root = sb.repo('busy');
    const term = terms.start(['--', 'bash', '--norc', '--noprofile'], { cwd: root, env: { ...sb.env, PS1: 'agent$ ' } });
    await term.waitFor(/agent\$/, 15_000, 'the agent prompt');
    type(term, 'echo one > a.txt');
    await term.waitFor(() => fs.existsSync(path.join(root, 'a.txt')), 10_000, 'a.txt');
    // In its own sh: one Ctrl-C ends it whenever it lands (bash's own loop can miss one that
    // lands while it starts the next sleep).
    type(term, "sh -c 'while true; do echo tick; sleep 0.2; done'");
    await term.waitFor(/tick\s+tick/, 10_000, 'the agent working');
    await term.waitFor(/agent busy/, 5_000, 'the status line saying busy');
    term.write('\x1b');
    term.write('\x1b');
    await term.waitFor(/rewind to a checkpoint[\s\S]*the agent is busy: restoring stops it first/, 10_000, 'the picker with the busy note');
    term.write('\x1b[H');
    await term.waitFor(/› [^\n]*session start/, 5_000, 'the first checkpoint selected');
    term.write('\r');
    await term.waitFor(/files only/, 5_000, 'the restore modes');
    term.write('f');
    await term.waitFor(/restored the files to just before “session start”/, 20_000, 'the restore notice');
    expect(fs.existsSync(path.join(root, 'a.txt'))).toBe(false);
    // The loop was interrupted: the prompt comes back (empty) and takes a command.
    await term.waitFor(/^agent\$ *$/m, 10_000, 'the prompt back after the loop');
    await clearLine(term);
    type(term, 'echo after-the-interrupt');
    await term.waitFor(/^after-the-interrupt$/m, 10_000, 'the agent answering again');
  });

  it('with checkpointing turned off in config.json, earlier checkpoints still open in the picker, under a warning banner', async () => {
    const sb = terms.sandbox();
    const root = sb.repo('off');
    fs.writeFileSync(path.join(root, 'a.txt'), 'a\n');
    await sb.open(root).snapshot({ label: 'taken while it was on' });
    fs.mkdirSync(sb.configDir, { recursive: true });
    fs.writeFileSync(path.join(sb.configDir, 'config.json'), '{ "checkpointing_disabled": true }\n');
    const term = terms.start(['--', 'cat'], { cwd: root, env: sb.env });
    await term.waitFor(/checkpoints off: disabled in config\.json/, 15_000, 'the status line');
    term.write('\x1b\x1b');
    await term.waitFor(/checkpointing is off[\s\S]*taken while it was on/, 10_000, 'the picker with the banner');
  });
});
