import { describe, expect, it } from 'vitest';
import { spelledOut } from '../../src/app/AgentPane.js';

describe('the pane drawn by Ink (under an overlay)', () => {
  it('spells out a row erased to its end with a background as spaces of that background, to the width', () => {
    expect(spelledOut('\x1b[48;5;238m› hi\x1b[K\x1b[0m', 10)).toBe('\x1b[48;5;238m› hi      \x1b[0m');
    expect(spelledOut('✅ ok\x1b[41m\x1b[K\x1b[0m', 8)).toBe('✅ ok\x1b[41m   \x1b[0m');
    expect(spelledOut('plain', 10)).toBe('plain');
  });
});
