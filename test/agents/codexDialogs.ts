// Answering Codex's TUI as a person would: its lists are numbered (`› 1. …`), and its hook
// review dialog (shown at start while hooks nobody has trusted are configured) offers to
// trust them all.
import type { TermSession } from '../helpers/term.js';
import { waitForQuiet } from '../helpers/waitFor.js';

/**
 * Moves the selection of a numbered list (`› 1. …`) to the entry starting with `label`. Keys
 * Codex receives before it has settled its keyboard mode are dropped, so each press is
 * repeated until the screen shows the selection moved (or overshot, then back).
 */
export async function select(session: TermSession, label: string): Promise<void> {
  // Keys are sent once the dialog is drawn out: Codex discards what comes while it sets up (and
  // gives up if input keeps coming for a second).
  await waitForQuiet(() => session.text(), 300, 5_000, 'the dialog drawn').catch(() => undefined);
  const deadline = Date.now() + 15_000;
  const entries = () => session.lines().map((line) => /^\s*(›)?\s*\d+\. (.*)$/.exec(line)).filter((match) => match !== null);
  for (;;) {
    const list = entries();
    const target = list.findIndex((match) => match[2]?.startsWith(label));
    const current = list.findIndex((match) => match[1] === '›');
    if (target >= 0 && target === current) return;
    if (Date.now() > deadline) throw new Error(`could not select "${label}"; screen:\n${session.text()}`);
    const before = session.text();
    session.write(target > current ? '\x1b[B' : '\x1b[A');
    await session.waitFor((screen) => screen !== before, 1_000, 'the selection to move').catch(() => undefined);
  }
}

/** Answers Codex's hook review dialog with "Trust all and continue" and waits for the composer. */
export async function trustAll(session: TermSession): Promise<void> {
  await session.waitFor(/Trust all and continue/, 30_000, 'the hook review dialog');
  await select(session, 'Trust all and continue');
  session.write('\r');
  await session.waitFor((screen) => !screen.includes('Trust all and continue') && screen.includes('Ask Codex to do anything'), 15_000, 'the composer');
}
