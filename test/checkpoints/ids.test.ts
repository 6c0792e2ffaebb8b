// Issue 11 item 6: checkpoint ids are never reused. A list that is missing, empty or shorter
// than the refs is rebuilt from the refs (keeping what it still holds) before the next id is
// chosen, so no snapshot overwrites refs/checkpoints/<id> of an earlier one.
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rewind } from '../helpers/io.js';
import { shadowGit } from '../helpers/shadow.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-ids-');
});
afterEach(() => sb.cleanup());

async function threeCheckpoints(root: string): Promise<string[]> {
  const commits: string[] = [];
  for (let i = 1; i <= 3; i++) {
    write(root, 'f.txt', `version ${i}\n`);
    const { record } = await sb.open(root).snapshot({ label: `v${i}` });
    commits.push(record.commit);
  }
  return commits;
}

describe('checkpoint ids', () => {
  it.each([
    ['emptied', (file: string) => fs.writeFileSync(file, '')],
    ['deleted', (file: string) => fs.rmSync(file)],
    ['cut short', (file: string) => fs.writeFileSync(file, `${fs.readFileSync(file, 'utf8').split('\n')[0]}\n`)],
  ])('a list %s: the next snapshot takes a new id and every earlier ref survives', async (_how, damage) => {
    const root = sb.repo('ids');
    const commits = await threeCheckpoints(root);
    const engine = sb.open(root);
    damage(engine.store.log);
    write(root, 'f.txt', 'version 4\n');
    const { record } = await engine.snapshot({ label: 'v4' });
    expect(record.id).toBe(4);
    commits.forEach((commit, index) => expect(shadowGit(engine.repo.gitDir, 'rev-parse', `refs/checkpoints/${index + 1}`).trim()).toBe(commit));
    expect(engine.list().map((entry) => entry.id)).toEqual([1, 2, 3, 4]);
    expect(engine.list()[0]?.label).toBe('v1');
  });

  it('every command rebuilds an emptied list first', async () => {
    const root = sb.repo('ids-list');
    await threeCheckpoints(root);
    fs.writeFileSync(sb.open(root).store.log, '');
    const listed = await rewind(['list', '--json'], sb.env, root);
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as { id: number; label: string }[]).map((row) => [row.id, row.label])).toEqual([
      [1, 'v1'],
      [2, 'v2'],
      [3, 'v3'],
    ]);
  });
});
