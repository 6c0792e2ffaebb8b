import path from 'node:path';

/** Verdicts kept at most; past it they start again (a build writing thousands of files). */
const maxKept = 20_000;

/**
 * What git said of each changed path's ignore rules, kept until the path changes again: the
 * watcher's settle asks git, and the step that stages the path a moment later is answered
 * from here instead of asking the same again (at 250,000 files each `check-ignore` reads
 * the whole shadow index). Exact by construction: a verdict is kept only while nothing it
 * rests on has changed since it was asked: not the path (every event about it forgets it),
 * not a .gitignore anywhere (one forgets them all), not the shadow's rules or its index
 * (`stamp`).
 */
export class IgnoreVerdicts {
  private verdicts = new Map<string, boolean>();
  private stampNow: string | undefined;
  /** Counts the forgets: an answer that arrives after one is not kept (it may be older than the event). */
  private forgets = 0;

  constructor(private readonly stamp: () => string) {}

  /** A file event about `relative`: its verdict, and every verdict if it is a .gitignore, are asked again. */
  forget(relative: string): void {
    this.forgets += 1;
    if (path.posix.basename(relative) === '.gitignore') this.verdicts.clear();
    else this.verdicts.delete(relative);
  }

  /** Which of `paths` are ignored: from the kept verdicts, `ask` (git) for the others. */
  async ignoredAmong(paths: readonly string[], ask: (paths: string[]) => Promise<Set<string>>): Promise<Set<string>> {
    const stamp = this.stamp();
    if (stamp !== this.stampNow) {
      this.verdicts.clear();
      this.stampNow = stamp;
    }
    const unknown = paths.filter((file) => !this.verdicts.has(file));
    const knownIgnored = paths.filter((file) => this.verdicts.get(file) === true);
    const forgets = this.forgets;
    const asked = unknown.length > 0 ? await ask(unknown) : new Set<string>();
    const ignored = new Set([...knownIgnored, ...unknown.filter((file) => asked.has(file))]);
    if (this.forgets === forgets && this.stamp() === stamp) {
      if (this.verdicts.size + unknown.length > maxKept) this.verdicts.clear();
      for (const file of unknown) this.verdicts.set(file, asked.has(file));
    }
    return ignored;
  }
}
