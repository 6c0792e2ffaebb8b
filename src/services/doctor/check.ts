// One line of `rewind doctor`: what was checked, how it stands, and what to do about it.

export type CheckStatus = 'passed' | 'warned' | 'failed';

export interface Check {
  /** What was checked, in a word or two (`git`, `store`, `claude`). */
  name: string;
  status: CheckStatus;
  /** What was found. */
  detail: string;
  /** What to do (warned and failed checks). */
  fix?: string;
}

export const passed = (name: string, detail: string): Check => ({ name, status: 'passed', detail });
export const warned = (name: string, detail: string, fix: string): Check => ({ name, status: 'warned', detail, fix });
export const failed = (name: string, detail: string, fix: string): Check => ({ name, status: 'failed', detail, fix });

/** `[major, minor, patch]` of the first `x.y[.z]` in `text`, if any. */
export function versionIn(text: string): [number, number, number] | undefined {
  const match = /(\d+)\.(\d+)(?:\.(\d+))?/.exec(text);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)] : undefined;
}

/** Whether `version` is at least `least`. */
export function atLeast(version: readonly number[], least: readonly number[]): boolean {
  for (let i = 0; i < least.length; i++) {
    const [have = 0, need = 0] = [version[i], least[i]];
    if (have !== need) return have > need;
  }
  return true;
}
