// What git said of a changed path's ignore rules is kept until something it rests on
// changes: the path (an event about it), any .gitignore, the shadow's rules or its index.
// Every answer is checked against git's own, asked afresh, on a real project and store.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IgnoreVerdicts } from '../../src/runtime/checkpointing/ignoreVerdicts.js';
import { createSandbox, type Sandbox } from '../helpers/tempRepo.js';

describe('IgnoreVerdicts', () => {
  let sb: Sandbox;
  beforeEach(() => {
    sb = createSandbox('rewind-verdicts-');
  });
  afterEach(async () => {
    await sb.cleanup();
  });

  async function setUp() {
    const root = sb.repo('p');
    fs.writeFileSync(path.join(root, '.gitignore'), '*.log\n');
    fs.writeFileSync(path.join(root, 'a.ts'), 'a\n');
    fs.writeFileSync(path.join(root, 'x.log'), 'x\n');
    const engine = sb.open(root);
    await engine.snapshot({ label: 'start' });
    const asked: string[][] = [];
    const git = async (paths: string[]) => {
      asked.push(paths);
      return engine.ignored(paths);
    };
    return { root, engine, asked, git, verdicts: new IgnoreVerdicts(() => engine.ignoreStamp()) };
  }

  it('answers as git does, and asks git once for paths that did not change since', async () => {
    const { asked, git, verdicts, engine } = await setUp();
    const first = await verdicts.ignoredAmong(['a.ts', 'x.log', 'new.log'], git);
    expect([...first].sort()).toEqual([...(await engine.ignored(['a.ts', 'x.log', 'new.log']))].sort());
    expect([...first].sort()).toEqual(['new.log', 'x.log']);
    expect([...(await verdicts.ignoredAmong(['x.log', 'a.ts'], git))].sort()).toEqual(['x.log']);
    expect(asked).toEqual([['a.ts', 'x.log', 'new.log']]);
  });

  it('asks again for a path after an event about it, and for every path after a .gitignore event', async () => {
    const { root, asked, git, verdicts } = await setUp();
    await verdicts.ignoredAmong(['a.ts', 'x.log'], git);
    verdicts.forget('a.ts');
    await verdicts.ignoredAmong(['a.ts', 'x.log'], git);
    expect(asked.at(-1)).toEqual(['a.ts']);
    // The rules change: x.log is no longer ignored, b.ts (new, untracked) now is.
    await verdicts.ignoredAmong(['b.ts'], git);
    fs.writeFileSync(path.join(root, '.gitignore'), '*.ts\n');
    verdicts.forget('.gitignore');
    expect([...(await verdicts.ignoredAmong(['b.ts', 'x.log'], git))]).toEqual(['b.ts']);
    expect(asked.at(-1)).toEqual(['b.ts', 'x.log']);
  });

  it("asks again once the shadow's rules or index changed (a snapshot), and keeps no answer that an event overtook", async () => {
    const { root, asked, git, verdicts, engine } = await setUp();
    await verdicts.ignoredAmong(['x.log'], git);
    fs.writeFileSync(path.join(root, 'a.ts'), 'a2\n');
    await engine.snapshot({ label: 'next' });
    await verdicts.ignoredAmong(['x.log'], git);
    expect(asked).toEqual([['x.log'], ['x.log']]);
    // An event while git answers: that answer is given, not kept.
    const slow = async (paths: string[]) => {
      verdicts.forget('other.txt');
      return git(paths);
    };
    await verdicts.ignoredAmong(['b.log'], slow);
    await verdicts.ignoredAmong(['b.log'], git);
    expect(asked.slice(2)).toEqual([['b.log'], ['b.log']]);
  });

  it('a file the shadow tracks is never ignored, though the rules match it', async () => {
    const { root, git, verdicts, engine } = await setUp();
    fs.writeFileSync(path.join(root, '.gitignore'), '*.log\n*.ts\n');
    verdicts.forget('.gitignore');
    // a.ts is in the shadow index (the first snapshot took it): git says it is not ignored.
    expect([...(await engine.ignored(['a.ts', 'b.ts']))]).toEqual(['b.ts']);
    expect([...(await verdicts.ignoredAmong(['a.ts', 'b.ts'], git))]).toEqual(['b.ts']);
  });
});
