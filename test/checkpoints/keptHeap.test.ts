// Every git process on the shadow repo runs with glibc's heap kept between the objects it
// writes (src/checkpoints/git/gitEnv.ts): the setting must reach each one a snapshot and a
// restore start, whatever the user's environment holds, and be one glibc takes (it ignores a
// misspelt one in silence). The questions to the user's own repository write no object and
// run as they are, and so does the background gc (off every path a user waits on).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { restoreCheckpoint } from '../../src/checkpoints/restore/restore.js';
import { startBackgroundGc } from '../../src/checkpoints/store/maintenance.js';
import { gitFirstOnPath } from '../helpers/gitSpy.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';
import { running } from '../helpers/children.js';
import { waitFor } from '../helpers/waitFor.js';

/** The dynamic loader git runs under, when it is glibc's and lists its tunables (glibc 2.33 and later). */
function glibcLoader(): string | undefined {
  try {
    const git = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    const loader = /^\s*(\/\S*ld-linux\S*)/m.exec(execFileSync('ldd', [git], { encoding: 'utf8' }))?.[1];
    if (loader) execFileSync(loader, ['--list-tunables'], { stdio: 'ignore' });
    return loader;
  } catch {
    return undefined;
  }
}

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-kept-heap-');
});
afterEach(() => sb.cleanup());

const kept = 'glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=67108864';

describe("the shadow repo's git keeps its heap", () => {
  it('in every git a snapshot and a restore start, never with the glibc settings of the user', async () => {
    const log = path.join(sb.base, 'git.log');
    const spy = gitFirstOnPath(sb.base, `printf '%s %s\\n' "\${GLIBC_TUNABLES-unset}" "$*" >>'${log}'`);
    const root = sb.repo('project');
    write(root, 'a.txt', 'one\n');
    const engine = sb.open(root, {}, { ...spy, GLIBC_TUNABLES: 'glibc.malloc.check=3' });
    const first = await engine.snapshot({ label: 'first' });
    write(root, 'a.txt', 'two\n');
    write(root, 'b.txt', 'new\n');
    await engine.snapshot({ label: 'second' });
    await restoreCheckpoint(engine, first.record.id);
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('one\n');
    const all = fs.readFileSync(log, 'utf8').trim().split('\n');
    expect(all.filter((line) => line.includes('malloc.check'))).toEqual([]);
    const shadow = `--git-dir=${engine.repo.gitDir}`;
    const lines = all.filter((line) => line.includes(shadow));
    const commands = new Set(lines.map((line) => line.split(' ').find((word, index) => index > 0 && !word.startsWith('-'))));
    for (const command of ['add', 'write-tree', 'commit-tree', 'update-ref', 'cat-file']) expect(commands).toContain(command);
    expect(lines.filter((line) => !line.startsWith(`${kept} `))).toEqual([]);
    // The read-only questions to the user's own repository: as they are.
    const own = all.filter((line) => !line.includes(shadow));
    expect(own.length).toBeGreaterThan(0);
    expect(own.filter((line) => !line.startsWith('unset '))).toEqual([]);
  });

  it('not in the background gc', async () => {
    const log = path.join(sb.base, 'git.log');
    const spy = gitFirstOnPath(sb.base, `printf '%s %s\\n' "\${GLIBC_TUNABLES-unset}" "$*" >>'${log}'`);
    const root = sb.repo('project');
    const engine = sb.open(root, {}, spy);
    await engine.snapshot({ label: 'first' });
    fs.rmSync(log, { force: true });
    const pid = startBackgroundGc(engine.repo, path.join(sb.base, 'gc-failed'));
    expect(pid).toBeDefined();
    await waitFor(() => !running(pid ?? 0), 10_000, 'the background gc to end');
    const gc = fs.readFileSync(log, 'utf8').trim().split('\n').filter((line) => / gc( |$)/.test(line));
    expect(gc.length).toBe(1);
    expect(gc.filter((line) => !line.startsWith('unset '))).toEqual([]);
  });

  it.runIf(glibcLoader() !== undefined)('by a setting the C library takes', () => {
    // The dynamic loader git runs under lists the tunables as it read them from the environment.
    const engine = sb.open(sb.repo('project'));
    const tunables = execFileSync(glibcLoader() ?? '', ['--list-tunables'], { env: engine.repo.env, encoding: 'utf8' });
    expect(tunables).toMatch(/^glibc\.malloc\.mmap_threshold: 0x2000000 /m);
    expect(tunables).toMatch(/^glibc\.malloc\.trim_threshold: 0x4000000 /m);
  });
});
