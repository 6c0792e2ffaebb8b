// A conformance run nobody here wrote (issue 30): Debian's vttest, driven through tmux twice,
// bare and as `rewind -- vttest`, its screens compared cell by cell (text, attributes that
// show, the cursor) at every prompt. Rewind's pane must show what the bare terminal shows;
// where the two differ, the difference is named below with why, and must still occur (a
// named difference that went away is reported, so the list cannot rot).
// Needs vttest, tmux and script(1) (`.ci/run` installs them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../helpers/tempRepo.js';
import { describeDifference, rowDifferences, type RowDifference } from './vttestCompare.js';
import { MENU, walk, type Step } from './vttestPlan.js';
import { requireTools, VttestRun, type Screens } from './vttestRun.js';

/**
 * A difference between the two screens that is not Rewind's: on menu `menu`'s screens (those
 * showing `screen`, if given), in `rows` (every row: 'all'); with `blanks`, only where each
 * differing cell is a blank on both sides.
 */
interface Named {
  menu: string;
  screen?: string;
  rows: readonly number[] | 'all';
  blanks?: boolean;
  why: string;
}

const from = (first: number, last: number) => Array.from({ length: last - first + 1 }, (_, i) => first + i);

const named: Named[] = [
  {
    menu: '1',
    screen: 'Test of autowrap, mixing control and print characters',
    rows: from(2, 19),
    why: "tmux's backspace from the last column with a wrap pending stays in that column (a VT100 and xterm go one column left), so every fourth right-margin letter wraps to the next row; in Rewind each row has its pair of letters, as vttest asks",
  },
  {
    menu: '2',
    screen: 'Origin mode test',
    rows: [1, 23],
    why: 'tmux homes the cursor to the top left of the screen after DECSTBM even in origin mode (xterm: to the top of the scroll region), so the line vttest puts "at the bottom of the screen" is on row 2 bare; in Rewind it is at the bottom',
  },
  { menu: '3', screen: 'Character set A (British)', rows: [7], why: "tmux has no British set (ESC ( A): its '#' stays '#' where a VT100 and xterm.js show '£'" },
  {
    menu: '3',
    screen: 'DEC Special graphics',
    rows: [11],
    why: "tmux draws + , - . 0 of the DEC graphics set as arrows and a block (ncurses's ACS extension); a VT100 has no graphics there and xterm, as xterm.js, prints them as they are",
  },
  {
    menu: '6.5',
    screen: 'Secondary Device Attributes',
    rows: [2, 3, 4],
    why: "each terminal names itself: tmux answers DA2 as tmux (84;0;0), the emulator in Rewind's pane as xterm.js does (0;276;0). Rewind answers the agent's queries from its own screen, which is what the agent is drawing on",
  },
  { menu: '11.5.4', rows: [1, 2, 4], why: 'tmux 3.3 has no CHT (CSI I): the marks it should tab forward pile up at the left' },
  { menu: '11.5.5', rows: from(5, 17), why: "tmux 3.3 has no HPR (CSI a): the box's right side is drawn at the left" },
  { menu: '11.5.9', rows: from(6, 17), why: "tmux 3.3 has no VPR (CSI e): the box's sides are missing" },
  { menu: '11.6.4', rows: 'all', blanks: true, why: "tmux's capture-pane leaves out erased cells past a row's last written one, their background with them: the same blue (BCE) cells come out as blanks of the background from tmux's own erase and as plain blanks from Rewind's (drawn as an erase). The text and the written cells are compared" },
  { menu: '11.6.5', rows: 'all', blanks: true, why: 'as 11.6.4 (BCE with ECH and indexing)' },
  { menu: '11.7.4', rows: from(0, 19), why: 'tmux 3.3 has no SL (CSI SP @): the diagonal vttest scrolls left into a column stays a diagonal' },
  { menu: '11.7.5', rows: from(0, 19), why: 'tmux 3.3 has no SR (CSI SP A): the diagonal vttest scrolls right into a column stays a diagonal' },
];

/** How long a screen may take to look the same on both sides (Rewind draws at its frame pace). */
const SETTLE_MS = 5_000;

describe('vttest through tmux, bare and in Rewind', () => {
  let sb: Sandbox;
  let run: VttestRun;
  beforeAll(async () => {
    requireTools();
    sb = createSandbox('rewind-vttest-');
    run = await VttestRun.start(sb);
  });
  afterAll(async () => {
    await run?.close();
    await sb?.cleanup();
  });

  it('shows every screen of menus 1-4, 6 and 8-11 as the bare terminal does, but the differences named', { timeout: 240_000 }, async () => {
    const unexplained: string[] = [];
    const seen = new Set<Named>();
    const screenText = (screens: Screens) => screens.bare.map((row) => row.map((cell) => cell.chars).join('')).join('\n');
    /** Waits for the two screens to agree but for named differences; notes what is left after SETTLE_MS. */
    const compare = async (step: Step, prompt: string) => {
      const deadline = Date.now() + SETTLE_MS;
      for (;;) {
        const screens = await run.screens();
        const text = screenText(screens);
        const applying = named.filter((name) => name.menu === step.menu && text.includes(name.screen ?? ''));
        const covers = (name: Named, difference: RowDifference) => (name.rows === 'all' || name.rows.includes(difference.row)) && (!name.blanks || difference.blanksOnly);
        const differences = rowDifferences(screens);
        const left = differences.filter((difference) => !applying.some((name) => covers(name, difference)));
        const cursor = JSON.stringify(screens.cursors.bare) === JSON.stringify(screens.cursors.rewind) ? '' : `cursor: bare ${JSON.stringify(screens.cursors.bare)}, rewind ${JSON.stringify(screens.cursors.rewind)}`;
        if ((left.length === 0 && cursor === '') || Date.now() > deadline) {
          for (const name of applying) if (differences.some((difference) => covers(name, difference))) seen.add(name);
          if (left.length > 0 || cursor !== '') unexplained.push(`menu ${step.menu}, at "${prompt}":\n${[...left.map(describeDifference), cursor].filter(Boolean).join('\n')}`);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const started = Date.now();
    await run.started([MENU]);
    for (const step of walk) {
      let prompt = await run.step(step.keys, step.prompt);
      await compare(step, prompt);
      while (step.untilMenu && prompt !== MENU) {
        prompt = await run.step('\r', step.prompt);
        await compare(step, prompt);
      }
    }
    // Leaving vttest from its main menu ends it, and Rewind with it.
    await run.quit();
    console.log(`vttest walk: ${walk.length} steps in ${Date.now() - started} ms`);
    expect(unexplained.join('\n\n')).toBe('');
    expect(named.filter((name) => !seen.has(name)).map((name) => `${name.menu} "${name.screen}": no longer differs (${name.why})`)).toEqual([]);
  });
});
