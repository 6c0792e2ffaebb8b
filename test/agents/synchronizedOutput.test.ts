// Synchronized output (DEC mode 2026) on a real agent (issue 30): Codex draws each frame of
// its TUI as one synchronized update. Relayed to Rewind's pane as a slow link would (each
// update cut in two, 120 ms apart: test/fixtures/splitUpdates.mjs), no frame Rewind draws on
// its terminal may show the pane from the middle of an update: every pane Rewind draws must
// be a screen the agent's own output went through between updates (any point outside one, the
// end of each). Rewind's frames are told apart by its own synchronized updates (ScreenWriter).
import fs from 'node:fs';
import path from 'node:path';
import xtermHeadless from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { useCurrentWidths } from '../../src/pty/cellWidth.js';
import { startInPty, type TermSession } from '../helpers/term.js';
import { waitForQuiet } from '../helpers/waitFor.js';
import type { Script } from './fakeModel/script.js';
import { codexSetup, createWorld } from './harness.js';
import { insideRewind } from './inApp.js';
import { stopTui } from './proof.js';

const { Terminal } = xtermHeadless;
const BEGIN = '\x1b[?2026h';
const END = '\x1b[?2026l';
const cols = 100;
const rows = 30;
const prompt = 'List the checks';
const lastLine = 'END OF THE LIST';
const answer = ['The checks, one a line:', '', ...Array.from({ length: 12 }, (_, index) => `- check ${index + 1}: fine`), '', lastLine].join('\n');
const scripts = (root: string): Script[] => [{ root, steps: [{ text: answer }] }];
const splitter = path.resolve(import.meta.dirname, '../fixtures/splitUpdates.mjs');

/** An emulated terminal that records its rows' text (trailing blanks trimmed) after each piece written. */
function recorder(height: number) {
  const term = new Terminal({ cols, rows: height, allowProposedApi: true, scrollback: 1000 });
  useCurrentWidths(term);
  const screens: string[] = [];
  const snapshot = () => {
    const buffer = term.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < height; y++) lines.push((buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '').trimEnd());
    screens.push(lines.join('\n'));
  };
  snapshot();
  return {
    screens,
    /** Writes `piece`, then records the screen (xterm calls back in order, once the piece is parsed). */
    write: (piece: string) => term.write(piece, snapshot),
    done: () => new Promise<void>((resolve) => term.write('', resolve)).then(() => term.dispose()),
  };
}

/** Every screen the agent's output `record` went through outside its synchronized updates: after each character outside one, and at each one's end. */
async function screensBetweenUpdates(record: string, height: number): Promise<Set<string>> {
  const agent = recorder(height);
  for (let at = 0; at < record.length; ) {
    const begin = record.indexOf(BEGIN, at);
    for (const character of record.slice(at, begin < 0 ? record.length : begin)) agent.write(character);
    if (begin < 0) break;
    const end = record.indexOf(END, begin);
    at = end < 0 ? record.length : end + END.length;
    agent.write(record.slice(begin, at));
  }
  await agent.done();
  return new Set(agent.screens);
}

/** The pane (all rows but the status row) after each frame Rewind wrote to its terminal (`output`): each ends its synchronized update. */
async function framesDrawn(output: string): Promise<string[]> {
  const outer = recorder(rows);
  let at = 0;
  for (let end = output.indexOf(END); end >= 0; end = output.indexOf(END, at)) {
    outer.write(output.slice(at, end + END.length));
    at = end + END.length;
  }
  await outer.done();
  return outer.screens.map((screen) => screen.split('\n').slice(0, -1).join('\n'));
}

describe('codex in Rewind, its output reaching the pane in pieces', () => {
  it('is never drawn from the middle of one of its synchronized updates', { timeout: 180_000 }, async () => {
    const world = await createWorld(scripts);
    const record = path.join(world.sandbox.base, 'codex-output');
    let session: TermSession | undefined;
    try {
      const start = codexSetup(world).interactive(prompt);
      const split = start.args.lastIndexOf('--');
      const relayed = { ...start, args: [...start.args.slice(0, split + 1), process.execPath, splitter, record, ...start.args.slice(split + 1)] };
      const run = insideRewind(relayed, world);
      session = startInPty(run.command, run.args, { cwd: run.cwd, env: run.env, cols, rows }, 'rewind');
      const current = session;
      await current.waitFor((screen) => screen.includes(lastLine), 90_000, 'the answer');
      await waitForQuiet(() => current.text(), 1_000, 15_000, 'the pane to settle');
      const agentOutput = fs.readFileSync(record, 'utf8');
      const updates = agentOutput.split(BEGIN).length - 1;
      expect(updates, 'codex draws in synchronized updates').toBeGreaterThan(5);
      const legal = await screensBetweenUpdates(agentOutput, rows - 1);
      const frames = await framesDrawn(current.output());
      expect(frames.length).toBeGreaterThan(5);
      const half = frames.filter((frame) => !legal.has(frame));
      expect(half.length, `${half.length} of ${frames.length} frames show the pane half way through an update (${updates} updates); the first:\n${half[0] ?? ''}`).toBe(0);
    } finally {
      if (session) await stopTui(session);
      await world.close();
    }
  });
});
