import fs from 'node:fs';
import path from 'node:path';
import React from 'react';
import { render } from 'ink-testing-library';
import { CheckpointEngine } from '../src/checkpoints/checkpointEngine.js';
import type { CheckpointRecord } from '../src/checkpoints/store/record.js';
import { readRedoStack } from '../src/checkpoints/store/redoStack.js';
import { Picker } from '../src/app/picker/Picker.js';
import type { PickerPreview } from '../src/app/picker/types.js';
import { pickerCheckpoints } from '../src/runtime/restore/pickerData.js';
import { benchEnv, makeRepo, median, percentile, round } from './lib.js';

const settings = { checkpointMaxFileMb: 20, checkpointExclude: [], gcEvery: 1_000_000, checkpointWarnGb: 2 };

export interface PickerRow {
  checkpoints: number;
  /** In the app: the engine read the list when the session started (and after each snapshot). */
  openMs: { median: number; p90: number };
  /** A first open in a fresh engine: the whole list parsed from disk too. */
  coldOpenMs: { median: number; p90: number };
  target: string;
}

/**
 * Picker open time with 10,000 checkpoints: reading the list, building the rows, the redo
 * stack, and the picker's first frame (what Esc Esc costs before anything shows). The list
 * is one real checkpoint repeated: opening reads no git objects, only the list.
 */
export async function benchPicker(work: string, count: number, runs: number): Promise<PickerRow> {
  const project = makeRepo(work, 200);
  const home = path.join(work, 'picker-store');
  fs.rmSync(home, { recursive: true, force: true });
  const engine = CheckpointEngine.open({ cwd: project, settings, home, env: { ...benchEnv, REWIND_HOME: home } });
  const { record } = await engine.snapshot({ label: 'the real one' });
  const sessions = ['s-one', 's-two', 's-three'];
  const records: CheckpointRecord[] = Array.from({ length: count }, (_, index) => ({
    ...record,
    id: index + 1,
    session: sessions[Math.floor((index * sessions.length) / count)] ?? null,
    label: `step ${index + 1}: edit src/module${index % 97}.ts to implement feature ${index % 13}`,
    changedSincePrevious: (index % 7) + 1,
    changedPaths: [`src/module${index % 97}.ts`],
  }));
  engine.log.rewrite(records);
  const stat = (values: number[]) => ({ median: round(median(values)), p90: round(percentile(values, 0.9)) });
  const cold = await openTimes(() => CheckpointEngine.open({ cwd: project, settings, home, env: { ...benchEnv, REWIND_HOME: home } }), count, runs);
  engine.list();
  const warm = await openTimes(() => engine, count, runs);
  return { checkpoints: count, openMs: stat(warm), coldOpenMs: stat(cold), target: 'under 100 ms' };
}

async function openTimes(engineFor: () => CheckpointEngine, count: number, runs: number): Promise<number[]> {
  const keys = { subscribe: () => () => undefined };
  const preview = (): Promise<PickerPreview> => new Promise(() => undefined);
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const engine = engineFor();
    const start = performance.now();
    const list = engine.list();
    const checkpoints = pickerCheckpoints(list);
    const canUndo = (await readRedoStack(engine.repo)).length > 0;
    const instance = render(
      <Picker
        checkpoints={checkpoints}
        width={100}
        height={40}
        keys={keys}
        loadPreview={preview}
        modes={() => ({ both: { enabled: false }, files: { enabled: true }, conversation: { enabled: false } })}
        canUndo={canUndo}
        agentBusy={false}
        onChoose={() => undefined}
        onClose={() => undefined}
      />,
    );
    const first = instance.lastFrame() ?? '';
    times.push(performance.now() - start);
    instance.unmount();
    instance.cleanup();
    if (!first.includes(`step ${count}:`)) throw new Error(`the first frame does not show the newest checkpoint:\n${first}`);
  }
  return times;
}
