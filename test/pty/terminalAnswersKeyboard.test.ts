// What the pane answers and keeps of an agent's keyboard and terminal questions (issue 30):
// @xterm/headless answers DA1, DA2, DSR and DECRQM itself; the kitty flags (`CSI ? u`) and
// XTVERSION (`CSI > q`) it leaves unanswered, so the pane answers them as the outer terminal
// would (nothing from one that did not answer them); the title stack (XTWINOPS 22/23) is kept.
import { afterEach, describe, expect, it } from 'vitest';
import { ScreenModel, type OuterKeyboard } from '../../src/pty/screen.js';
import { withoutTerminalAnswers } from '../../src/pty/terminalAnswers.js';
import { OUTER_COLOUR_QUERIES, readOuterKeyboard } from '../../src/runtime/session/outerColours.js';

const screens: ScreenModel[] = [];
afterEach(() => {
  for (const screen of screens.splice(0)) screen.dispose();
});

/** The pane's answers to `queries` (and the titles it sets), from a screen whose outer terminal told `outer`. */
async function answersTo(queries: string, outer?: OuterKeyboard): Promise<{ answers: string; titles: string[]; screen: ScreenModel }> {
  const screen = new ScreenModel(40, 5);
  screens.push(screen);
  if (outer) screen.setOuterKeyboard(outer);
  let answers = '';
  const titles: string[] = [];
  screen.onResponse((answer) => (answers += answer));
  screen.onTitle((title) => titles.push(title));
  screen.write(queries);
  await screen.flush();
  return { answers, titles, screen };
}

describe("the pane's answers", () => {
  it('answers CSI ? u with the flags in force on the active screen, where the outer terminal speaks the protocol, in order with DA1', async () => {
    const { answers, screen } = await answersTo('\x1b[>1u\x1b[?u\x1b[c\x1b[?1049h\x1b[?u\x1b[>7u\x1b[?u', { kitty: true });
    expect(answers).toBe('\x1b[?1u\x1b[?1;2c\x1b[?0u\x1b[?7u');
    expect(screen.modes()).toMatchObject({ kittyFlags: 7 });
  });

  it('leaves CSI ? u unanswered where the outer terminal does not speak the protocol (nor told yet), as it does', async () => {
    expect((await answersTo('\x1b[>1u\x1b[?u\x1b[c', { kitty: false })).answers).toBe('\x1b[?1;2c');
    expect((await answersTo('\x1b[?u\x1b[c')).answers).toBe('\x1b[?1;2c');
  });

  it("answers XTVERSION with the outer terminal's name, if it told one", async () => {
    expect((await answersTo('\x1b[>0q\x1b[>q', { kitty: true, version: 'kitty(0.35.2)' })).answers).toBe('\x1bP>|kitty(0.35.2)\x1b\\'.repeat(2));
    expect((await answersTo('\x1b[>q', { kitty: false })).answers).toBe('');
  });

  it('keeps modifyOtherKeys; a reset (RIS) drops it and the kitty flags', async () => {
    const { screen } = await answersTo('\x1b[>1u\x1b[>4;2m');
    expect(screen.modes()).toMatchObject({ kittyFlags: 1, modifyOtherKeys: 2 });
    screen.write('\x1bc');
    await screen.flush();
    expect(screen.modes()).toMatchObject({ kittyFlags: 0, modifyOtherKeys: undefined });
  });

  it('keeps the title stack: a title popped is set again (and so reaches the outer terminal)', async () => {
    const { titles } = await answersTo('\x1b]0;mine\x07\x1b[22;0t\x1b]0;agent\x07\x1b[23;0t');
    expect(titles).toEqual(['mine', 'agent', 'mine']);
  });
});

describe("the outer terminal's keyboard, asked as the app starts", () => {
  it('is asked for its kitty flags and XTVERSION before DA1', () => {
    expect(OUTER_COLOUR_QUERIES.endsWith('\x1b[?u\x1b[>0q\x1b[c')).toBe(true);
  });

  it('speaks the kitty protocol if it answered CSI ? u before DA1; its name from XTVERSION', () => {
    expect(readOuterKeyboard('\x1b[?0u\x1bP>|WezTerm 20240203\x1b\\\x1b[?62;22c')).toEqual({ kitty: true, version: 'WezTerm 20240203' });
    expect(readOuterKeyboard('\x1b[?1;2c')).toEqual({ kitty: false });
  });

  it('its answers are taken out of the input, never typed at the agent', () => {
    expect(withoutTerminalAnswers(Buffer.from('a\x1b[?0ub\x1bP>|kitty(0.35.2)\x1b\\c', 'latin1')).toString('latin1')).toBe('abc');
  });
});
