// DEC mode 2026 (synchronized output) in the emulated screen: which update is in progress,
// and the answer to the agent's question whether the terminal supports the mode (DECRQM).
import { afterEach, describe, expect, it } from 'vitest';
import { ScreenModel } from '../../src/pty/screen.js';

const screens: ScreenModel[] = [];

function screenOf(): ScreenModel {
  const screen = new ScreenModel(20, 5);
  screens.push(screen);
  return screen;
}

async function written(screen: ScreenModel, data: string): Promise<void> {
  screen.write(data);
  await screen.flush();
}

afterEach(() => {
  for (const screen of screens.splice(0)) screen.dispose();
});

describe('a synchronized update (DEC mode 2026)', () => {
  it('is in progress from ?2026h to ?2026l, each update told from the one before', async () => {
    const screen = screenOf();
    expect(screen.synchronizedUpdate()).toBeUndefined();
    await written(screen, '\x1b[?2026hhalf');
    const first = screen.synchronizedUpdate();
    expect(first).toBeDefined();
    // A second begin inside the update is the same update.
    await written(screen, '\x1b[?2026h drawn');
    expect(screen.synchronizedUpdate()).toBe(first);
    await written(screen, '\x1b[?2026l');
    expect(screen.synchronizedUpdate()).toBeUndefined();
    await written(screen, '\x1b[?2026hnext');
    expect(screen.synchronizedUpdate()).toBeDefined();
    expect(screen.synchronizedUpdate()).not.toBe(first);
  });

  it('ends with a reset of the terminal (RIS)', async () => {
    const screen = screenOf();
    await written(screen, '\x1b[?2026h');
    await written(screen, '\x1bc');
    expect(screen.synchronizedUpdate()).toBeUndefined();
  });

  it('is a mode the terminal says it supports (DECRQM: set or reset, never "not recognised"), answered once', async () => {
    const screen = screenOf();
    const answers: string[] = [];
    screen.onResponse((data) => answers.push(data));
    await written(screen, '\x1b[?2026$p');
    await written(screen, '\x1b[?2026h\x1b[?2026$p\x1b[?2026l');
    expect(answers).toEqual(['\x1b[?2026;2$y', '\x1b[?2026;1$y']);
  });
});
