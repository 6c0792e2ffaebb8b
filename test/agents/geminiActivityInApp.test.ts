// Gemini CLI (the pinned release) inside Rewind's app, against the fake model: the status line
// says `agent busy` only while Gemini works on a prompt. Gemini draws its screen for seconds
// as it starts, and again when a conversation restore starts it resumed; it is idle then, at
// its prompt. The restore's notice is still shown when Gemini's prompt is back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInPty, type TermSession } from '../helpers/term.js';
import { conversationScripts as scripts, first, second, third, rewindTo, sendPrompt } from './conversationScript.js';
import { createWorld, geminiSetup, type AgentWorld } from './harness.js';
import { insideRewind } from './inApp.js';
import { stopTui } from './proof.js';

const ready = /Type your message/;

/** Every state the status line was drawn with in the app's output from `from` on, in order. */
function statesFrom(session: TermSession, from: number): string[] {
  return [...session.output().slice(from).matchAll(/agent (busy|idle)/g)].map((match) => match[1] ?? '');
}

/** The status line (the screen's last row). */
const statusLine = (session: TermSession) => session.lines().at(-1) ?? '';

describe('gemini busy and idle in the app', () => {
  let world: AgentWorld;
  let session: TermSession | undefined;
  beforeAll(async () => {
    world = await createWorld(scripts);
  });
  afterAll(async () => {
    if (session) await stopTui(session);
    await world?.close();
  });

  it('is idle as it starts and after a resume, busy only while it answers a prompt; the restore notice outlasts the restart', { timeout: 240_000 }, async () => {
    const start = insideRewind(geminiSetup(world).interactive(), world);
    const here = startInPty(start.command, start.args, { cwd: start.cwd, env: start.env, cols: 110, rows: 32 }, 'rewind');
    session = here;
    try {
      // Start: from the first frame until Gemini's prompt is drawn and the status line says idle.
      await here.waitFor((screen) => ready.test(screen) && statusLine(here).includes('agent idle'), 60_000, 'Gemini ready, idle');
      const atStart = statesFrom(here, 0);
      expect(atStart.length).toBeGreaterThan(0);
      expect(atStart.filter((state) => state === 'busy'), `the status line as Gemini started: ${atStart.join(' ')}`).toEqual([]);

      // A prompt: busy while Gemini answers it, idle once it has.
      const beforePrompt = here.output().length;
      await sendPrompt(here, first, /Wrote a\./, ready);
      expect(statesFrom(here, beforePrompt)).toContain('busy');
      expect(statesFrom(here, beforePrompt).at(-1)).toBe('idle');
      await sendPrompt(here, second, /Made b\./, ready);

      // A conversation restore: Gemini is started again, resumed.
      const beforeRestore = here.output().length;
      await rewindTo(here, 'echo two', 'b');
      await here.waitFor(/restored the files[^\n]*? and the conversation/, 30_000, 'the restore notice');
      await here.waitFor(ready, 60_000, 'Gemini ready again');
      expect(statusLine(here), 'the notice when Gemini’s prompt is back').toMatch(/restored the files[^\n]*? and the conversation/);
      // The notice fades once Gemini is back, and the status line says what Gemini does.
      await here.waitFor(() => /agent (busy|idle)/.test(statusLine(here)), 60_000, 'the notice gone');
      const afterResume = statesFrom(here, beforeRestore);
      expect(afterResume.filter((state) => state === 'busy'), `the status line from the restore on: ${afterResume.join(' ')}`).toEqual([]);
      expect(statusLine(here)).toContain('agent idle');

      // And busy again for the next prompt, in the resumed session.
      const beforeThird = here.output().length;
      await sendPrompt(here, third, /Only a is there\./, ready);
      expect(statesFrom(here, beforeThird)).toContain('busy');
    } catch (error) {
      throw new Error(`${String(error)}\nscreen:\n${here.text()}`, { cause: error });
    }
  });
});
