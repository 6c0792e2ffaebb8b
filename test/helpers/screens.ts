// Emulated screens for a test file: `screenWith(data)` is a ScreenModel with `data` written
// and parsed; every one made is disposed after each test.
import { afterEach } from 'vitest';
import { ScreenModel } from '../../src/pty/screen.js';

export function screensForTests(): (data: string, cols?: number, rows?: number) => Promise<ScreenModel> {
  const screens: ScreenModel[] = [];
  afterEach(() => {
    for (const screen of screens.splice(0)) screen.dispose();
  });
  return async (data, cols = 20, rows = 5) => {
    const screen = new ScreenModel(cols, rows);
    screens.push(screen);
    screen.write(data);
    await screen.flush();
    return screen;
  };
}
