// Enter checkpoints are labelled with the line as the screen shows it at the Enter, with a
// real bash (line editing, history) and a TUI-like input box in a real pty; and the agent
// answering the keys typed is not the agent being busy.
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { SessionController } from '../../src/runtime/session/controller.js';
import { sessionSandbox } from '../helpers/session.js';
import { write } from '../helpers/tempRepo.js';
import { waitFor } from '../helpers/waitFor.js';

const sessions = sessionSandbox('rewind-enter-labels-');
const inputBox = path.resolve(import.meta.dirname, '../fixtures/inputBox.mjs');

/** The session around `command`, with checkpoints open, and its pane's text as the user sees it. */
async function startSession(root: string, command: string, args: string[]): Promise<{ session: SessionController; screen: () => string[] }> {
  const { session, openCheckpoints } = await sessions.start(root, command, args);
  let rows: readonly string[] = [];
  session.onPaneFrame((frame) => {
    rows = frame.rows;
  });
  session.attachCheckpoints(await openCheckpoints());
  await session.checkpointsOpened();
  return { session, screen: () => rows.map((row) => stripVTControlCharacters(row)) };
}

/** Types `keys` as one read. */
function type(session: SessionController, keys: string): void {
  session.input(Buffer.from(keys));
}

/** The labels of the project's Enter checkpoints, oldest first. */
function enterLabels(session: SessionController): string[] {
  return (session.checkpoints?.engine.list() ?? []).filter((record) => record.trigger === 'enter').map((record) => record.label);
}

const bash = ['PS1=agent$ ', 'bash', '--norc', '--noprofile'];
const lastPrompt = (screen: string[]) => screen.filter((row) => row.startsWith('agent$')).at(-1);

describe('the label of an Enter', () => {
  it('is the line bash shows: edits in the middle of the line, and a line recalled with Up', async () => {
    const root = sessions.sandbox().repo('bash-edits');
    const { session, screen } = await startSession(root, 'env', bash);
    await waitFor(() => lastPrompt(screen()) === 'agent$', 10_000, 'the prompt');
    type(session, 'echo abc');
    await waitFor(() => lastPrompt(screen()) === 'agent$ echo abc', 10_000, 'the typed line');
    type(session, '\x7f\x7f');
    await waitFor(() => lastPrompt(screen()) === 'agent$ echo a', 10_000, 'two characters deleted');
    type(session, 'XY');
    await waitFor(() => lastPrompt(screen()) === 'agent$ echo aXY', 10_000, 'XY typed');
    type(session, '\x1b[D\x1b[D');
    type(session, 'Q');
    await waitFor(() => lastPrompt(screen()) === 'agent$ echo aQXY', 10_000, 'Q typed two to the left');
    // Something new for the Enter's checkpoint to hold (an unchanged tree adds no entry).
    write(root, 'one.txt', 'one\n');
    type(session, '\r');
    await waitFor(() => screen().includes('aQXY'), 10_000, "bash's answer");
    expect(enterLabels(session)).toEqual(['echo aQXY']);

    type(session, '\x1b[A');
    await waitFor(() => lastPrompt(screen()) === 'agent$ echo aQXY' && screen().filter((row) => row === 'agent$ echo aQXY').length === 2, 10_000, 'the line recalled');
    write(root, 'two.txt', 'two\n');
    type(session, '\r');
    await waitFor(() => screen().filter((row) => row === 'aQXY').length === 2, 10_000, "bash's second answer");
    expect(enterLabels(session)).toEqual(['echo aQXY', 'echo aQXY']);
  }, 30_000);

  it('is the line bash shows when the keys and the Enter come in one read (the echo is waited for)', async () => {
    const root = sessions.sandbox().repo('bash-one-read');
    const { session, screen } = await startSession(root, 'env', bash);
    await waitFor(() => lastPrompt(screen()) === 'agent$', 10_000, 'the prompt');
    write(root, 'one.txt', 'one\n');
    type(session, 'echo abc\x7f\x7fXY\x1b[D\x1b[DQ\r');
    await waitFor(() => screen().includes('aQXY'), 10_000, "bash's answer");
    expect(enterLabels(session)).toEqual(['echo aQXY']);
  }, 30_000);

  it("is the text in a TUI's input box, without its prompt, borders and blanks", async () => {
    const root = sessions.sandbox().repo('input-box');
    const { session, screen } = await startSession(root, process.execPath, [inputBox]);
    await waitFor(() => screen().some((row) => row.startsWith('│ > type a message')), 10_000, 'the input box');
    type(session, 'fix the bg');
    await waitFor(() => screen().some((row) => row.startsWith('│ > fix the bg ')), 10_000, 'the typed text');
    type(session, '\x1b[D');
    type(session, 'u');
    await waitFor(() => screen().some((row) => row.startsWith('│ > fix the bug ')), 10_000, 'the text edited');
    write(root, 'one.txt', 'one\n');
    type(session, '\r');
    // The box cleared too: Up is pressed on the prompt the user sees, not while the box still holds the line.
    await waitFor(() => screen().includes('sent: fix the bug') && screen().some((row) => row.startsWith('│ > type a message')), 10_000, 'the line sent');
    expect(enterLabels(session)).toEqual(['fix the bug']);

    type(session, '\x1b[A');
    await waitFor(() => screen().some((row) => row.startsWith('│ > fix the bug ')), 10_000, 'the line recalled');
    write(root, 'two.txt', 'two\n');
    type(session, '\r');
    await waitFor(() => screen().filter((row) => row === 'sent: fix the bug').length === 2, 10_000, 'the line sent again');
    expect(enterLabels(session)).toEqual(['fix the bug', 'fix the bug']);
  }, 30_000);
});

describe('busy or idle', () => {
  it('an idle bash that answered an Enter and a first Esc is idle when Esc Esc opens the picker', async () => {
    const root = sessions.sandbox().repo('idle');
    const { session, screen } = await startSession(root, 'env', bash);
    await waitFor(() => lastPrompt(screen()) === 'agent$', 10_000, 'the prompt');
    // Its start (the first prompt) was output of its own: idle once that is a while ago.
    await waitFor(() => !session.agentBusy, 10_000, 'bash idle after its start');
    type(session, 'true');
    type(session, '\r');
    await waitFor(() => screen().filter((row) => row.startsWith('agent$')).length === 2, 10_000, 'the next prompt');
    type(session, '\x1b\x1b');
    await waitFor(() => session.view().picker !== undefined, 10_000, 'the picker');
    expect(session.view().picker?.agentBusy).toBe(false);
    expect(session.agentBusy).toBe(false);
  }, 30_000);

  it('an agent writing on its own is busy', async () => {
    const root = sessions.sandbox().repo('busy');
    const { session, screen } = await startSession(root, 'env', bash);
    await waitFor(() => lastPrompt(screen()) === 'agent$', 10_000, 'the prompt');
    type(session, 'while :; do echo tick; sleep 0.1; done');
    type(session, '\r');
    await waitFor(() => screen().filter((row) => row === 'tick').length >= 5, 10_000, 'the agent ticking');
    expect(session.agentBusy).toBe(true);
  }, 30_000);
});
