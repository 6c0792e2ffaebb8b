// The sandbox's cleanup and a writer still in a store: a hook that checkpoints by itself
// after the app was killed writes into the store while the test removes it. The cleanup waits
// for that writer (the store's lock released) and removes everything, rather than failing
// the test that ended with ENOTEMPTY.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { createSandbox } from './tempRepo.js';
import { waitFor } from './waitFor.js';

it('waits for a process writing into a store under its lock, then removes the whole sandbox', async () => {
  const sb = createSandbox();
  const project = sb.repo('project');
  await sb.open(project).snapshot({ label: 'one' });
  const [storeDir] = fs.readdirSync(path.join(sb.store, 'history')).map((name) => path.join(sb.store, 'history', name));
  if (!storeDir) throw new Error('no store was made');
  // As the real lock holds it: a JSON file naming the writer's pid, removed when it is done.
  const writer = spawn('sh', ['-c', 'printf \'{"pid":%d}\' $$ > lock; i=0; while [ $i -lt 60 ]; do mkdir -p "late/$i" && : > "late/$i/object"; sleep 0.01; i=$((i+1)); done; rm lock'], { cwd: storeDir, stdio: 'ignore' });
  const exited = new Promise((resolve) => writer.on('exit', resolve));
  await waitFor(() => fs.existsSync(path.join(storeDir, 'late', '3')), 10_000, 'the writer under way');
  await sb.cleanup();
  expect(fs.existsSync(sb.base)).toBe(false);
  expect(await exited).toBe(0);
});
