// The layer and cycle rules of `npm run lint` (.dependency-cruiser.cjs) do fail on a bad
// import: a small tree shaped like src/, cruised with the project's own rules.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/restoreKit.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rewind-layers-'));
  fs.copyFileSync(path.join(repoRoot, '.dependency-cruiser.cjs'), path.join(dir, '.dependency-cruiser.cjs'));
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', allowImportingTsExtensions: true, noEmit: true } }));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function tree(files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
}

/**
 * `depcruise src --config .dependency-cruiser.cjs` in the tree, as `npm run lint` runs it, but in
 * this process: the same rules file and reporter (`err`); its exit code is the error count.
 */
async function lint(): Promise<{ code: number; out: string }> {
  const options = await extractDepcruiseOptions(path.join(dir, '.dependency-cruiser.cjs'));
  // The CLI reads the rules' tsconfig.json from its working folder: here, the tree's.
  const tsConfig = path.join(dir, options.tsConfig?.fileName ?? 'tsconfig.json');
  const result = await cruise(['src'], { ...options, tsConfig: { fileName: tsConfig }, baseDir: dir, outputType: 'err' }, {}, { tsConfig: extractTSConfig(tsConfig) });
  return { code: result.exitCode, out: String(result.output) };
}

const door = { 'src/checkpoints/index.ts': "export { engine } from './engine.js';\n", 'src/checkpoints/engine.ts': 'export const engine = 1;\n' };

describe('the layer rules', () => {
  it('pass the imports the layers allow', async () => {
    tree({ ...door, 'src/runtime/session.ts': "import { engine } from '../checkpoints/index.js';\nexport const x = engine;\n" });
    expect(await lint()).toMatchObject({ code: 0 });
  });

  it('fail an import against the arrows: the engine reaching up into the runtime', async () => {
    tree({ ...door, 'src/runtime/session.ts': 'export const x = 1;\n', 'src/checkpoints/engine.ts': "import { x } from '../runtime/session.js';\nexport const engine = x;\n" });
    const result = await lint();
    expect(result.code).not.toBe(0);
    expect(result.out).toMatch(/not-in-allowed: src\/checkpoints\/engine\.ts → src\/runtime\/session\.ts/);
  });

  it('fail layer 1 (files) importing layer 2 (conversation), and the other way round', async () => {
    tree({ ...door, 'src/conversation/store.ts': 'export const store = 1;\n', 'src/checkpoints/engine.ts': "import { store } from '../conversation/store.js';\nexport const engine = store;\n" });
    const up = await lint();
    expect(up.code).not.toBe(0);
    expect(up.out).toMatch(/not-in-allowed: src\/checkpoints\/engine\.ts → src\/conversation\/store\.ts/);
    tree({ ...door, 'src/conversation/store.ts': "import { engine } from '../checkpoints/index.js';\nexport const store = engine;\n" });
    const down = await lint();
    expect(down.code).not.toBe(0);
    expect(down.out).toMatch(/not-in-allowed: src\/conversation\/store\.ts → src\/checkpoints\/index\.ts/);
  });

  it('fail an import of the engine past its door', async () => {
    tree({ ...door, 'src/runtime/session.ts': "import { engine } from '../checkpoints/engine.js';\nexport const x = engine;\n" });
    const result = await lint();
    expect(result.code).not.toBe(0);
    expect(result.out).toMatch(/engine-through-its-door: src\/runtime\/session\.ts → src\/checkpoints\/engine\.ts/);
  });

  it("fail an engine part importing a part above it (git below store below snapshot…), pass one importing below", async () => {
    tree({ ...door, 'src/checkpoints/store/log.ts': "import { run } from '../git/run.js';\nexport const log = run;\n", 'src/checkpoints/git/run.ts': 'export const run = 1;\n' });
    expect(await lint()).toMatchObject({ code: 0 });
    tree({ 'src/checkpoints/git/run.ts': "import { log } from '../store/log.js';\nexport const run = () => log;\n", 'src/checkpoints/store/log.ts': 'export const log = 1;\n' });
    const up = await lint();
    expect(up.code).not.toBe(0);
    expect(up.out).toMatch(/engine-git-below-.*: src\/checkpoints\/git\/run\.ts → src\/checkpoints\/store\/log\.ts/);
    tree({ 'src/checkpoints/restore/plan.ts': "import { engine } from '../engine.js';\nexport const plan = engine;\n" });
    expect((await lint()).out).toMatch(/engine-restore-below-.*: src\/checkpoints\/restore\/plan\.ts → src\/checkpoints\/engine\.ts/);
  });

  it("fail SnapshotEngine importing the restore, pass its reading the restore's journal", async () => {
    tree({ 'src/checkpoints/snapshotEngine.ts': "import { journal } from './restore/journal.js';\nexport const engine = journal;\n", 'src/checkpoints/restore/journal.ts': 'export const journal = 1;\n' });
    expect(await lint()).toMatchObject({ code: 0 });
    tree({ 'src/checkpoints/snapshotEngine.ts': "import { restore } from './restore/restore.js';\nexport const engine = restore;\n", 'src/checkpoints/restore/restore.ts': 'export const restore = 1;\n' });
    const result = await lint();
    expect(result.code).not.toBe(0);
    expect(result.out).toMatch(/snapshot-engine-below-restore: src\/checkpoints\/snapshotEngine\.ts → src\/checkpoints\/restore\/restore\.ts/);
  });

  it('fail a cycle', async () => {
    tree({ 'src/app/a.ts': "import { b } from './b.js';\nexport const a = b;\n", 'src/app/b.ts': "import { a } from './a.js';\nexport const b = () => a;\n" });
    const result = await lint();
    expect(result.code).not.toBe(0);
    expect(result.out).toMatch(/no-cycles/);
  });
});
