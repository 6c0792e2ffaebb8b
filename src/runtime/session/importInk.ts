import type { mountApp } from '../../app/mountApp.js';

/**
 * Ink, React and the app's views (~0.2 s of loading): imported only once they are needed.
 * In the built app this module is swapped for scripts/importInkInBundle.mjs (see there).
 */
export function importInk(): Promise<{ mountApp: typeof mountApp }> {
  return import('../../app/mountApp.js');
}
