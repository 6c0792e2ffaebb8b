import { defineConfig } from 'vitest/config';

// Tests of what a process holds once (the watch fence's one folder, the modules it has loaded)
// need a process of their own; every other file shares its worker's modules with the files
// before it (evaluating the same graph anew for each of 235 files: 86 s of import time summed
// over a run, against 15 s shared; the run ~80 s shorter).
const ownProcess = ['test/checkpoints/foldersOfNewest.test.ts', 'test/runtime/watchFence.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: real git and real ptys are the load, not the test runner.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts', 'test/**/*.test.tsx'], exclude: ownProcess, isolate: false } },
      { extends: true, test: { name: 'own process', include: ownProcess, isolate: true } },
    ],
  },
});
