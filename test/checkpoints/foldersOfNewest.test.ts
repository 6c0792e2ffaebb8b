// The folders of the newest checkpoint (what the app's watcher watches from the start): asked
// at every app start while the agent starts, so through the runner, not simple-git, whose load
// holds the event loop ~30 ms (an agent's question to its terminal waits that long).
import { createRequire } from 'node:module';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-folders-');
});
afterEach(() => sb.cleanup());

const simpleGitLoaded = () => Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes('/node_modules/simple-git/'));

it('are every folder of its tree, odd names included, read without loading simple-git', async () => {
  const root = sb.repo('folders');
  write(root, 'a/b/c.txt', 'c\n');
  write(root, 'sp ace/ü/é.txt', 'e\n');
  write(root, 'top.txt', 'top\n');
  const engine = sb.open(root);
  await engine.snapshot({ label: 'one' });
  expect(simpleGitLoaded()).toBe(false);
  expect((await engine.folders()).sort()).toEqual(['a', 'a/b', 'sp ace', 'sp ace/ü']);
  expect(simpleGitLoaded()).toBe(false);
});
