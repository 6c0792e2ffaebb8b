// The restore note, proven on a real agent inside Rewind's app against the fake model: after
// `b` (files and conversation) the next request carries no note; after `f` (files only) the
// next one carries it (its prompt hook's added context), said on the status line too; the
// one after that carries no new one.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { Script } from './fakeModel/script.js';
import type { TermSession } from '../helpers/term.js';
import { startInPty } from '../helpers/term.js';
import { first, rewindTo, second, sendPrompt, third } from './conversationScript.js';
import { createWorld, type AgentSetup, type AgentWorld } from './harness.js';
import { insideRewind } from './inApp.js';
import { stopTui } from './proof.js';

export const fourth = 'Fourth prompt: go on';
export const fifth = 'Fifth prompt: and on';

/** The conversation: two prompts with a tool step each, then three that only answer. */
export const noteScripts = (root: string): Script[] => [
  { prompt: 'First prompt', root, steps: [{ tool: 'write', path: 'a.txt', content: 'one\n' }, { text: 'Wrote a.' }] },
  { prompt: 'Second prompt', root, steps: [{ tool: 'shell', command: 'echo two > b.txt' }, { text: 'Made b.' }] },
  { prompt: 'Third prompt', root, steps: [{ text: 'Only a is there.' }] },
  { prompt: 'Fourth prompt', root, steps: [{ text: 'Going on.' }] },
  { prompt: 'Fifth prompt', root, steps: [{ text: 'Still going.' }] },
];

/** A phrase of the note only it has (no quote in it: it is looked for in JSON). */
const notePhrase = 'Your edits after that are gone; re-read files before relying on them.';

/** How often the note is in a request's body. */
function notesIn(body: unknown): number {
  return JSON.stringify(body).split(notePhrase).length - 1;
}

export interface NoteRun {
  /** The agent's name in Rewind (on the status line). */
  agent: string;
  setup: (world: AgentWorld) => AgentSetup;
  /** The agent's prompt, on screen when it is ready for one. */
  ready: RegExp;
  /** The row the `f` restore goes to: the first prompt's write. */
  writeRow: string;
  /** Waits until the agent has written its second step where a conversation restore reads it (Codex writes its rollout late). */
  stepWritten?: (world: AgentWorld) => Promise<void>;
  /** The request's text that shows which prompt it answers. */
  sent: (body: unknown) => string;
}

/** The first model turn among the requests after `before`. */
function turnAfter(world: AgentWorld, before: number): unknown {
  const turn = world.model.requests.slice(before).find((request) => request.kind === 'turn');
  if (!turn) throw new Error('no turn request');
  return turn.body;
}

export async function proveRestoreNote(run: NoteRun): Promise<void> {
  const world = await createWorld(noteScripts);
  let here: TermSession | undefined;
  try {
    const start = insideRewind(run.setup(world).interactive(), world);
    here = startInPty(start.command, start.args, { cwd: start.cwd, env: start.env, cols: 110, rows: 32 }, 'rewind');
    const session = here;
    try {
      await session.waitFor(run.ready, 60_000, `${run.agent} ready`);
      await session.waitFor(/agent idle/, 30_000, 'the agent idle at its prompt');
      await sendPrompt(session, first, /Wrote a\./, run.ready);
      await sendPrompt(session, second, /Made b\./, run.ready);
      await run.stepWritten?.(world);

      // Files and conversation: the conversation forgets the second turn too, no note.
      await rewindTo(session, 'echo two', 'b');
      await session.waitFor(/restored the files[^\n]*? and the conversation|started the agent afresh|failed|cannot/, 30_000, 'the restore notice');
      expect(session.text()).toMatch(/restored the files[^\n]*? and the conversation/);
      await session.waitFor(run.ready, 60_000, `${run.agent} ready again`);
      await session.waitFor(/agent idle/, 30_000, 'the agent idle again');
      let before = world.model.requests.length;
      await sendPrompt(session, third, /Only a is there\./, run.ready);
      const afterBoth = turnAfter(world, before);
      expect(run.sent(afterBoth)).toContain(third);
      expect(notesIn(afterBoth)).toBe(0);

      // Files only: the agent keeps its conversation, and is told at its next prompt.
      await rewindTo(session, run.writeRow, 'f');
      await session.waitFor(/restored the files to just before “[^”\n]*”: \d+ file\(s\) changed/, 30_000, 'the restore notice');
      expect(fs.existsSync(path.join(world.root, 'a.txt'))).toBe(false);
      before = world.model.requests.length;
      const told = session.waitFor(new RegExp(`told ${run.agent} its files are back to just before “[^”\\n]*”( \\(1 file: a\\.txt\\))?: its edits`), 60_000, 'the notice that the agent was told');
      await sendPrompt(session, fourth, /Going on\./, run.ready);
      await told;
      const afterFiles = turnAfter(world, before);
      expect(run.sent(afterFiles)).toContain(fourth);
      expect(notesIn(afterFiles)).toBe(1);
      const sent = JSON.stringify(afterFiles);
      expect(sent).toMatch(/Note from Rewind: the user restored the project's files to checkpoint #\d+/);
      expect(sent).toContain('1 file put back: a.txt (removed: it did not exist then).');

      // Once: the next prompt's request holds the note only where its history has it (each
      // agent keeps added context in its history); given again, it would be there twice.
      before = world.model.requests.length;
      await sendPrompt(session, fifth, /Still going\./, run.ready);
      const later = turnAfter(world, before);
      expect(run.sent(later)).toContain(fifth);
      expect(notesIn(later)).toBe(1);
    } catch (error) {
      throw new Error(`${String(error)}\nscreen:\n${session.text()}`, { cause: error });
    }
  } finally {
    if (here) await stopTui(here);
    await world.close();
  }
}
