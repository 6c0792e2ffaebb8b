// The picker's rows on a real agent inside Rewind's app, against the fake model: three turns
// (turn 1 writes, turn 2 edits and runs a shell command that deletes a file, the user edits
// a file between turns 2 and 3, turn 3 writes and edits), then Esc Esc. The rows are the
// session's steps: each turn with its steps folded under it, the user's edit a row of its
// own, no row that repeats a step; the picker opens on turn 3's last step; each mode's
// preview says what that mode does; Enter then `f` undoes exactly that step's files.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { Script } from './fakeModel/script.js';
import { startInPty, type TermSession } from '../helpers/term.js';
import { waitFor } from '../helpers/waitFor.js';
import { rewindIn, sendPrompt } from './conversationScript.js';
import { createWorld, type AgentSetup, type AgentWorld } from './harness.js';
import { insideRewind } from './inApp.js';
import { stopTui } from './proof.js';

export const turnOne = 'Turn one: write the notes';
export const turnTwo = 'Turn two: fix and tidy';
export const turnThree = 'Turn three: plan and fix again';

/** The three turns the fake model plays. */
export const rowsScripts = (root: string): Script[] => [
  {
    prompt: 'Turn one',
    root,
    steps: [{ tool: 'write', path: 'notes.txt', content: 'one\n' }, { tool: 'write', path: 'scratch.txt', content: 'scratch\n' }, { text: 'Wrote the notes.' }],
  },
  {
    prompt: 'Turn two',
    root,
    steps: [{ tool: 'edit', path: 'notes.txt', oldText: 'one\n', newText: 'two\n' }, { tool: 'shell', command: 'rm scratch.txt' }, { text: 'Tidied up.' }],
  },
  {
    prompt: 'Turn three',
    root,
    steps: [{ tool: 'write', path: 'todo.txt', content: 'later\n' }, { tool: 'edit', path: 'notes.txt', oldText: 'two\n', newText: 'three\n' }, { text: 'Fixed again.' }],
  },
];

/** What the agent calls each turn's two steps (its tools' labels). */
export type TurnLabels = readonly [readonly [string, string], readonly [string, string], readonly [string, string]];

export interface RowsRun {
  setup: (world: AgentWorld) => AgentSetup;
  /** The agent's prompt, on screen when it is ready for one. */
  ready: RegExp;
  /** Answers what the agent asks before its first prompt (a trust dialog). */
  drive?: (session: TermSession) => Promise<void>;
  labels: TurnLabels;
}

/** The project's files (no .git) as path -> text. */
function project(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of fs.readdirSync(root)) if (name !== '.git') files[name] = fs.readFileSync(path.join(root, name), 'utf8');
  return files;
}

/** The picker's list as drawn: each row's count and title (a turn's steps indented under it). */
export function listedRows(screen: string): string[] {
  const lines = screen.split('\n');
  const top = lines.findIndex((line) => line.includes('rewind to a checkpoint'));
  const rows: string[] = [];
  for (const line of lines.slice(top + 1)) {
    const row = /^│ [› ] \d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}(.{10}) {2}(.*?)\s*│$/.exec(line);
    if (!row) break;
    rows.push(`${(row[1] ?? '').trim()} | ${row[2] ?? ''}`);
  }
  return rows;
}

/** The selected row's title. */
const selected = (screen: string) => /^│ › \d{4}-\S+ \S+ {2}.{10} {2}(.*?)\s*│$/m.exec(screen)?.[1] ?? '';

/** The screen's text with the box drawn around it gone and runs of blanks as one: what a wrapped line says. */
const said = (screen: string) => screen.replaceAll(/[│╭╮╰╯─]/g, ' ').replaceAll(/\s+/g, ' ');

/** The newest checkpoint marks the turn's end (the agent's Stop hook): the writes of what ran last are checkpointed. */
const settled = (world: AgentWorld) => () => world.sandbox.open(world.root).list().at(-1)?.trigger === 'end';

export async function proveRows(run: RowsRun): Promise<void> {
  const world = await createWorld(rowsScripts);
  let here: TermSession | undefined;
  const engine = () => world.sandbox.open(world.root);
  const [, two, three] = run.labels;
  try {
    const start = insideRewind(run.setup(world).interactive(), world);
    here = startInPty(start.command, start.args, { cwd: start.cwd, env: start.env, cols: 110, rows: 32 }, 'rewind');
    const session = here;
    try {
      await run.drive?.(session);
      await session.waitFor(run.ready, 60_000, 'the agent ready');
      await session.waitFor(/agent idle/, 30_000, 'the agent idle at its prompt');
      await sendPrompt(session, turnOne, /Wrote the notes\./, run.ready);
      await waitFor(settled(world), 20_000, 'the writes of turn one checkpointed');
      await sendPrompt(session, turnTwo, /Tidied up\./, run.ready);
      await waitFor(settled(world), 20_000, 'the writes of turn two checkpointed');
      expect(project(world.root)).toEqual({ 'README.md': '# project\n', 'notes.txt': 'two\n' });
      // The user's own edit between the turns.
      fs.writeFileSync(path.join(world.root, 'README.md'), '# project\n\nmine\n');
      await waitFor(() => engine().list().some((record) => record.trigger === 'watch' && (record.changedPaths ?? []).includes('README.md')), 20_000, 'the user edit checkpointed');
      await sendPrompt(session, turnThree, /Fixed again\./, run.ready);
      await waitFor(settled(world), 20_000, 'the writes of turn three checkpointed');
      const final = { 'README.md': '# project\n\nmine\n', 'notes.txt': 'three\n', 'todo.txt': 'later\n' };
      expect(project(world.root)).toEqual(final);
      const records = engine().list();
      const last = records.filter((record) => record.label === three[1]).at(-1);
      if (!last) throw new Error(`no checkpoint labelled ${three[1]}: ${JSON.stringify(records)}`);

      // The picker opens on turn three's last step, its turn open above it, the others folded.
      session.write('\x1b\x1b');
      await session.waitFor((screen) => selected(screen) === `    ${three[1]}` && screen.includes('undoing this step now changes'), 10_000, "the picker on turn three's last step");
      const screen = session.text();
      expect(listedRows(screen)).toEqual([
        '0 files | session start',
        `2 files | ▸ prompt: ${turnOne}  (2 steps)`,
        `2 files | ▸ prompt: ${turnTwo}  (2 steps)`,
        '1 file | edits outside any step: 1 edited: README.md',
        `2 files | ▾ prompt: ${turnThree}  (2 steps)`,
        `1 file | ${' '.repeat(4)}${three[0]}`,
        `1 file | ${' '.repeat(4)}${three[1]}`,
      ]);
      expect(screen).not.toMatch(/files changed|step: \d+ file\(s\)/);
      expect(screen).toMatch(/undoing this step now changes 1 file\(s\)/);
      expect(screen).toMatch(/ M notes\.txt {2}\+1 -1/);

      // Turn two opened: its edit and its shell step under it, each with its own file.
      for (let up = 0; up < 4; up++) {
        const before = selected(session.text());
        session.write('\x1b[A');
        await session.waitFor((now) => selected(now) !== before, 5_000, 'the selection up');
      }
      expect(selected(session.text())).toBe(`▸ prompt: ${turnTwo}  (2 steps)`);
      session.write('\x1b[C');
      await session.waitFor((now) => selected(now) === `▾ prompt: ${turnTwo}  (2 steps)`, 5_000, 'turn two open');
      expect(listedRows(session.text()).slice(2, 5)).toEqual([`2 files | ▾ prompt: ${turnTwo}  (2 steps)`, `1 file | ${' '.repeat(4)}${two[0]}`, `1 file | ${' '.repeat(4)}${two[1]}`]);
      session.write('\x1b[D');
      await session.waitFor((now) => selected(now) === `▸ prompt: ${turnTwo}  (2 steps)`, 5_000, 'turn two folded again');
      session.write('\x1b[F');
      await session.waitFor((now) => selected(now) === `    ${three[1]}` && now.includes('undoing this step now changes'), 5_000, 'End: back on the last step');

      // Each mode previews what it does.
      session.write('\r');
      await session.waitFor(new RegExp(`rewind to just before ${three[1]} \\(it changed 1 file\\)`), 5_000, 'the modes');
      const cut = `the conversation cut to before prompt "${turnThree}", whose turn ${three[1]} is in: 1 turn dropped (that one)`;
      await session.waitFor((now) => now.includes('› b  restore conversation and files') && said(now).includes(cut) && / M notes\.txt/.test(now), 5_000, 'both previewed');
      session.write('\x1b[B');
      await session.waitFor((now) => now.includes('› f  restore files only') && / M notes\.txt/.test(now), 5_000, 'files previewed');
      expect(said(session.text())).not.toContain('the conversation cut');
      session.write('\x1b[B');
      await session.waitFor((now) => now.includes('› c  restore conversation only') && said(now).includes(cut) && now.includes('files untouched: they stay as they are now'), 5_000, 'conversation previewed');
      expect(session.text()).not.toMatch(/ M notes\.txt/);

      // Files only: exactly that step undone; the user's edit, turn three's write and turn two's deletion stay.
      session.write('f');
      await session.waitFor(new RegExp(`restored the files to just before “${three[1]}”: 1 file\\(s\\) changed — `), 15_000, 'the restore notice');
      expect(project(world.root)).toEqual({ ...final, 'notes.txt': 'two\n' });

      const list = rewindIn(world, 'list');
      expect(list.status, list.stderr).toBe(0);
      expect(list.stdout).not.toMatch(/files changed/);
      expect(list.stdout).toContain('edits outside any step: 1 edited: README.md');
      // Every step of every turn is listed there, under its turn.
      for (const label of run.labels.flat()) expect(list.stdout).toContain(label);
    } catch (error) {
      throw new Error(`${String(error)}\nrecords: ${JSON.stringify(engine().list().map(({ id, trigger, label, changedSincePrevious, changedPaths }) => ({ id, trigger, label, changedSincePrevious, changedPaths })))}\nscreen:\n${session.text()}`, { cause: error });
    }
  } finally {
    if (here) await stopTui(here);
    await world.close();
  }
}
