import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { codeCacheFileOf, loadCodeCachedScript } from '../../src/runtime/session/codeCachedScript.js';

const loader = path.resolve(import.meta.dirname, '../../dist/runtime/session/codeCachedScript.js');
const builtApp = path.resolve(import.meta.dirname, '../../dist/bundle/app.cjs');
const folders: string[] = [];

function folder(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rewind-codecache-')));
  folders.push(dir);
  return dir;
}

/** The V8 flags `rewind` starts Node with: none (a sh header on dist/cli.js's second line would carry them). */
function cliNodeFlags(): string[] {
  const line = fs.readFileSync(path.resolve(import.meta.dirname, '../../dist/cli.js'), 'utf8').split('\n')[1] ?? '';
  return /exec node (.*) "\$0"/.exec(line)?.[1]?.split(' ') ?? [];
}

/** Loads `file` with the built loader in a fresh Node (the cache is per process); prints the cache use. */
function loadInNode(file: string, writeCacheAtExit = false, flags: string[] = []): string {
  const script = `import { loadCodeCachedScript } from ${JSON.stringify(loader)};
const { cache } = loadCodeCachedScript(${JSON.stringify(file)}, { writeCacheAtExit: ${writeCacheAtExit} });
process.stdout.write(cache);`;
  return execFileSync(process.execPath, [...flags, '--input-type=module', '-e', script], { encoding: 'utf8' });
}

afterEach(() => {
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('loadCodeCachedScript', () => {
  it('runs a CommonJS bundle with its own require, __filename and an importer relative to it', async () => {
    const dir = folder();
    fs.writeFileSync(path.join(dir, 'helper.mjs'), 'export const answer = 42;\n');
    const bundle = path.join(dir, 'bundle.cjs');
    fs.writeFileSync(
      bundle,
      "const { join } = require('node:path');\nexports.where = join(__dirname, require('node:path').basename(__filename));\nexports.load = () => __rewindImport('./helper.mjs');\n",
    );
    const loaded = loadCodeCachedScript(bundle);
    const exported = loaded.exports as { where: string; load: () => Promise<{ answer: number }> };
    expect(loaded.cache).toBe('none');
    expect(exported.where).toBe(bundle);
    expect((await exported.load()).answer).toBe(42);
  });

  it('writes the cache at exit when asked, and the next Node compiles from it', () => {
    const dir = folder();
    const bundle = path.join(dir, 'bundle.cjs');
    fs.writeFileSync(bundle, 'exports.twice = (n) => n * 2;\nexports.twice(21);\n');
    expect(loadInNode(bundle, true)).toBe('none');
    expect(fs.existsSync(codeCacheFileOf(bundle))).toBe(true);
    expect(loadInNode(bundle)).toBe('used');
  });

  it('compiles as usual when the cache does not fit (another Node, a damaged file)', () => {
    const dir = folder();
    const bundle = path.join(dir, 'bundle.cjs');
    fs.writeFileSync(bundle, 'exports.value = 7;\n');
    fs.writeFileSync(codeCacheFileOf(bundle), 'not a code cache');
    const loaded = loadCodeCachedScript(bundle);
    expect(loaded.cache).toBe('rejected');
    expect((loaded.exports as { value: number }).value).toBe(7);
  });

  it('the build leaves the app bundle in ASCII (it is read as Latin-1), and it loads', () => {
    const source = fs.readFileSync(builtApp);
    expect(source.every((byte) => byte < 0x80)).toBe(true);
    const { exports } = loadCodeCachedScript(builtApp);
    expect(typeof (exports as { runSession: unknown }).runSession).toBe('function');
  });

  it('the build leaves a trained cache this Node accepts beside the app bundle', () => {
    // Compiling the bundle alone caches ~120 KB; a session's functions bring it to ~490 KB.
    expect(fs.statSync(codeCacheFileOf(builtApp)).size).toBeGreaterThan(250_000);
    expect(loadInNode(builtApp, false, cliNodeFlags())).toBe('used');
  });
});
