import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';

/** The function a CommonJS bundle's source becomes: CommonJS's own names, and an importer. */
type BundleFunction = (
  exports: object,
  require: NodeJS.Require,
  module: { exports: object },
  filename: string,
  dirname: string,
  rewindImport: (specifier: string) => Promise<unknown>,
) => void;

/** Where the code cache of `file` lives: beside it, made by the build (scripts/postbuild.mjs). */
export function codeCacheFileOf(file: string): string {
  return `${file}.cache`;
}

/** Whether V8 compiled from the cache: `none` without a cache file, `rejected` for one made by another Node or build. */
export type CodeCacheUse = 'used' | 'rejected' | 'none';

function readIfPresent(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Runs the CommonJS bundle `file` (ASCII only) and returns its exports, compiled from V8's code cache
 * beside it when there is one that fits this Node (otherwise compiled as usual: a cache
 * V8 rejects costs nothing but the read). Node 20 has no compile cache for modules
 * (module.enableCompileCache is Node 22), and parsing the app's ~1 MB of JavaScript, then
 * compiling each function on first call, is a good part of its start-up.
 *
 * A vm script cannot `import()` on Node 20 without flags: the bundle imports ES modules
 * through `__rewindImport(specifier)`, a specifier relative to the bundle.
 *
 * The cache is `cacheFile` (default: beside the bundle, where the build trains it). With
 * `writeCacheAtExit` it is (re)written when the process exits, holding every function
 * compiled by then: always (the build's training session), or only when there was none that
 * fit this Node (`'unless-used'`: an installed copy makes its own on its first session). A
 * cache that cannot be written is no error: the next start compiles again.
 */
export function loadCodeCachedScript(file: string, options: { cacheFile?: string; writeCacheAtExit?: boolean | 'unless-used' } = {}): { exports: unknown; cache: CodeCacheUse } {
  const cacheFile = options.cacheFile ?? codeCacheFileOf(file);
  // ASCII (the build escapes the rest): read as Latin-1, V8 keeps it as one-byte text.
  const source = fs.readFileSync(file, 'latin1');
  // On the first line, so that line numbers in stack traces are the bundle's own.
  const wrapped = `(function (exports, require, module, __filename, __dirname, __rewindImport) {${source}\n})`;
  const cachedData = readIfPresent(cacheFile);
  const script = new vm.Script(wrapped, { filename: file, cachedData });
  const bundle = script.runInThisContext() as BundleFunction;
  const module = { exports: {} };
  const base = pathToFileURL(file);
  bundle(module.exports, createRequire(file), module, file, path.dirname(file), (specifier) => import(new URL(specifier, base).href));
  const cache: CodeCacheUse = !cachedData ? 'none' : script.cachedDataRejected ? 'rejected' : 'used';
  if (options.writeCacheAtExit === true || (options.writeCacheAtExit === 'unless-used' && cache !== 'used')) {
    process.once('exit', () => writeCache(cacheFile, script));
  }
  return { exports: module.exports, cache };
}

function writeCache(cacheFile: string, script: vm.Script): void {
  const temporary = `${cacheFile}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(path.dirname(cacheFile), { recursive: true, mode: 0o700 });
    fs.writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
    fs.renameSync(temporary, cacheFile);
  } catch {
    fs.rmSync(temporary, { force: true });
  }
}
