// Rewind as users install it: the packed tarball installed globally into an empty prefix,
// its dependencies from a registry on the loopback that holds only the lockfile's packages
// (the real registry out of reach; a fresh npm cache), then run from there with nothing of
// the checkout: the version, a snapshot and restore, and `rewind demo` in a pty up to the picker. What the tarball holds is
// only what runs (no source maps).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/restoreKit.js';
import { startInPty } from '../helpers/term.js';
import { createSandbox, type Sandbox } from '../helpers/tempRepo.js';
import { waitFor } from '../helpers/waitFor.js';
import { packAndInstall, type Packed } from './install.js';

let sb: Sandbox;
let packed: Packed;
let rewindBin: string;
const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, { cwd, stdio: 'ignore' });
}

beforeAll(async () => {
  sb = createSandbox('rewind-installed-');
  const installed = await packAndInstall(sb.base, 1);
  packed = installed.packed;
  rewindBin = installed.installs[0]?.bin ?? '';
}, 180_000);

afterAll(async () => {
  await sb?.cleanup();
});

describe('the installed package', () => {
  it('holds only what runs', () => {
    const files = packed.files.map((file) => file.path);
    expect(files.filter((file) => file.endsWith('.map') || file.endsWith('.cache') || file.startsWith('src/') || file.startsWith('test/'))).toEqual([]);
    expect(files).toEqual(expect.arrayContaining(['dist/cli.js', 'dist/bundle/app.cjs', 'dist/bundle/ink.mjs', 'dist/cli-bundle/snapshot.cjs', 'dist/cli-bundle/hook.cjs', 'dist/hooks/rewind-hook.sh', 'dist/demo/agent.js', 'config.schema.json']));
  });

  it('says its version, and snapshots and restores a project', () => {
    const env = { ...sb.env, PATH: `${path.dirname(rewindBin)}:${process.env.PATH ?? ''}` };
    expect(execFileSync(rewindBin, ['--version'], { env, encoding: 'utf8' }).trim()).toContain(manifest.version);
    const project = path.join(sb.base, 'p', 'installed');
    fs.mkdirSync(project, { recursive: true });
    git(project, 'init', '-q');
    fs.writeFileSync(path.join(project, 'a.txt'), 'one\n');
    execFileSync(rewindBin, ['snapshot', '--label', 'before'], { cwd: project, env });
    fs.writeFileSync(path.join(project, 'a.txt'), 'two\n');
    fs.writeFileSync(path.join(project, 'b.txt'), 'new\n');
    execFileSync(rewindBin, ['restore', '1', '--yes'], { cwd: project, env });
    expect(fs.readFileSync(path.join(project, 'a.txt'), 'utf8')).toBe('one\n');
    expect(fs.existsSync(path.join(project, 'b.txt'))).toBe(false);
  });

  it('runs `rewind demo` up to the picker (Ink imported from the app bundle), and quits', { timeout: 120_000 }, async () => {
    const env = { ...sb.env, PATH: `${path.dirname(rewindBin)}:${process.env.PATH ?? ''}`, REWIND_DEMO_STEP_MS: '0' };
    const dir = path.join(sb.base, 'try-it');
    const term = startInPty(rewindBin, ['demo', dir], { cwd: sb.base, env, cols: 120, rows: 32 }, 'rewind');
    try {
      await term.waitFor(/type 1, 2 or 3/, 30_000, 'the demo agent');
      term.write('1');
      term.write('\r');
      await term.waitFor(/agent idle/, 30_000, 'the demo agent idle after task 1');
      await waitFor(() => fs.existsSync(path.join(dir, 'server.config.json')), 15_000, 'task 1 written');
      term.write('\x1b\x1b');
      await term.waitFor(/rewind to a checkpoint/, 15_000, 'the picker');
      term.write('\x1b');
      await term.waitFor((screen) => !screen.includes('rewind to a checkpoint'), 15_000, 'the picker closed');
      term.write('\x1d');
      await term.waitFor(/◈ \//, 15_000, 'the command bar');
      term.write('/quit\r');
      const exit = await term.exited;
      expect(exit.exitCode).toBe(0);
    } finally {
      term.close();
    }
  });
});
