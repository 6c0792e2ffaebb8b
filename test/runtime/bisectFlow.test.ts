// `/bisect <command>` in the app: runs in the background with its progress in the status
// line, then `/bisect` opens the picker at the first bad checkpoint, whose `d` diff is there.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionController } from '../../src/runtime/session/controller.js';
import { runAppCommand } from '../../src/runtime/session/appCommands.js';
import { openPicker } from '../../src/runtime/restore/pickerFlow.js';
import { fingerprint } from '../helpers/fingerprint.js';
import { sessionSandbox } from '../helpers/session.js';
import { waitFor } from '../helpers/waitFor.js';
import { write } from '../helpers/tempRepo.js';

const sessions = sessionSandbox('rewind-bisect-flow-');

/** Waits for a notice matching `pattern`, keeping every notice seen meanwhile. */
async function noticeLike(current: SessionController, pattern: RegExp, seen: Set<string>): Promise<string> {
  let found = '';
  await waitFor(
    () => {
      const text = current.view().status.notice?.text ?? '';
      if (text) seen.add(text);
      if (pattern.test(text)) found = text;
      return found !== '';
    },
    30_000,
    `a notice like ${String(pattern)}`,
  );
  return found;
}

describe('/bisect in the app', () => {
  it('finds the first bad checkpoint in the background, then /bisect opens the picker there', async () => {
    const root = sessions.sandbox().repo('app');
    write(root, 'status', 'ok\n');
    const { session: current, openCheckpoints } = await sessions.start(root, 'sh', ['-c', 'while :; do sleep 1; done']);
    current.attachCheckpoints(await openCheckpoints());
    await current.checkpointsOpened();
    for (let step = 2; step <= 8; step++) {
      write(root, 'status', step >= 6 ? 'broken\n' : 'ok\n');
      write(root, 'step.txt', `step ${step}\n`);
      await runAppCommand(current, 'checkpoint', `step ${step}`);
    }
    const engine = current.checkpoints?.engine;
    if (!engine) throw new Error('no checkpoints');
    await waitFor(() => engine.list().length === 8, 10_000, 'eight checkpoints');
    const firstBad = engine.list()[5]?.id;
    const before = fingerprint(root);

    expect(await runAppCommand(current, 'line', '/bisect')).toMatch(/^name the test command: \/bisect npm test/);
    expect(await runAppCommand(current, 'line', "/bisect grep -q '^ok$' status")).toBeUndefined();
    expect(await runAppCommand(current, 'line', '/bisect true')).toBe('a bisect is already running: /bisect stop stops it');
    const seen = new Set<string>();
    const found = await noticeLike(current, /first bad checkpoint/, seen);
    expect(found).toMatch(new RegExp(`^bisect: #${firstBad} is the first bad checkpoint, after the step of #${(firstBad ?? 0) - 1} step 5 \\(\\d runs\\) — Esc Esc opens the picker there$`));
    expect([...seen].some((text) => /^bisect: (starting|testing #\d+|#\d+ (good|bad))/.test(text))).toBe(true);
    expect(fingerprint(root)).toEqual(before);

    // The offer: the next Esc Esc opens the picker there, once.
    await openPicker(current);
    await waitFor(() => current.view().picker !== undefined, 5_000, 'the picker');
    expect(current.view().picker?.selectId).toBe(firstBad);
    current.view().picker?.onClose();
    await waitFor(() => current.view().picker === undefined, 5_000, 'the picker closed');
    await openPicker(current);
    await waitFor(() => current.view().picker !== undefined, 5_000, 'the picker again');
    expect(current.view().picker?.selectId).toBeUndefined();
    current.view().picker?.onClose();
    await waitFor(() => current.view().picker === undefined, 5_000, 'the picker closed');
    // `/bisect` opens it there again.
    expect(await runAppCommand(current, 'line', '/bisect')).toBeUndefined();
    await waitFor(() => current.view().picker !== undefined, 5_000, 'the picker');
    const picker = current.view().picker;
    expect(picker?.selectId).toBe(firstBad);
    const diff = (await picker?.loadStepDiff?.((firstBad ?? 0) - 1)) ?? [];
    expect(diff[0]).toBe('# step 5');
    expect(diff).toContain('+broken');
    picker?.onClose();
  }, 60_000);

  it('a failing bisect says why in the status line; /bisect stop stops one that runs', async () => {
    const root = sessions.sandbox().repo('fails');
    const { session: current, openCheckpoints } = await sessions.start(root, 'sh', ['-c', 'while :; do sleep 1; done']);
    current.attachCheckpoints(await openCheckpoints());
    await current.checkpointsOpened();
    write(root, 'b.txt', 'b\n');
    await runAppCommand(current, 'checkpoint', 'two');
    const seen = new Set<string>();
    await runAppCommand(current, 'line', '/bisect false');
    expect(await noticeLike(current, /^bisect: the test already fails/, seen)).toMatch(/at the good end, checkpoint #1 \(exit 1\)/);
    expect(current.view().status.notice?.tone).toBe('error');

    const marker = path.join(sessions.sandbox().base, 'started');
    await runAppCommand(current, 'line', `/bisect touch '${marker}'; sleep 30`);
    await waitFor(() => fs.existsSync(marker), 10_000, 'the test to start');
    expect(await runAppCommand(current, 'line', '/bisect stop')).toBeUndefined();
    await noticeLike(current, /^bisect stopped; its scratch folder was removed$/, seen);
    const stores = fs.readdirSync(path.join(sessions.sandbox().store, 'history'));
    for (const store of stores) expect(fs.readdirSync(path.join(sessions.sandbox().store, 'history', store)).filter((name) => name.startsWith('scratch-'))).toEqual([]);
  }, 60_000);

  it('a test that writes into the project by its path: the outcome names what it changed', async () => {
    const root = sessions.sandbox().repo('reach');
    write(root, 'status', 'ok\n');
    const { session: current, openCheckpoints } = await sessions.start(root, 'sh', ['-c', 'while :; do sleep 1; done']);
    current.attachCheckpoints(await openCheckpoints());
    await current.checkpointsOpened();
    write(root, 'status', 'broken\n');
    await runAppCommand(current, 'checkpoint', 'broke it');
    const seen = new Set<string>();
    await runAppCommand(current, 'line', `/bisect echo x >> '${root}/log.txt'; grep -q '^ok$' status`);
    const found = await noticeLike(current, /first bad checkpoint/, seen);
    expect(found).toMatch(/ · your project changed while the tests ran \(#\d+: added log\.txt; #\d+: changed log\.txt\)$/);
    expect(current.view().status.notice?.tone).toBe('warning');
  }, 60_000);
});
