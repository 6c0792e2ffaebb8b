// After tsc: make the CLI executable, bundle the command line and the full-screen app.
//
// dist/bundle/app.cjs: the app without Ink, one CommonJS file, required once the agent was
// started (src/commands/run.ts; src/runtime/session/runApp.ts, not bundled). Loading ~60
// modules one by one cost ~0.6 s of start-up; bundled as ES modules, ~0.15 s. (A V8 code cache
// of it, trained at build time by a short session in a pty, went: it bought 8-13% of the
// session's start, under the 20% a trick must buy.)
// dist/bundle/ink.mjs: Ink, React and the views, an ES module (they need top-level await),
// imported only when an overlay or the picker first needs them.
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { build } from 'esbuild';

const dist = new URL('../dist/', import.meta.url).pathname;
const outdir = path.join(dist, 'bundle');
const cli = path.join(dist, 'cli.js');
const app = path.join(outdir, 'app.cjs');
const cliBundle = path.join(dist, 'cli-bundle');
// The agents' hook client (a POSIX sh script, not compiled) beside the CLI it falls back to.
mkdirSync(path.join(dist, 'hooks'), { recursive: true });
copyFileSync(new URL('../src/hooks/rewind-hook.sh', import.meta.url), path.join(dist, 'hooks', 'rewind-hook.sh'));
chmodSync(path.join(dist, 'hooks', 'rewind-hook.sh'), 0o755);
// The engine's shell scripts (run as `sh <file>`), where src/shared/bundles.ts finds them.
const engineScripts = new URL('../src/checkpoints/scripts/', import.meta.url);
mkdirSync(path.join(dist, 'checkpoints', 'scripts'), { recursive: true });
for (const name of readdirSync(engineScripts)) copyFileSync(new URL(name, engineScripts), path.join(dist, 'checkpoints', 'scripts', name));
rmSync(outdir, { recursive: true, force: true });
rmSync(cliBundle, { recursive: true, force: true });

const shared = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  external: ['@lydell/node-pty'],
  // Nothing in the app fetches; yoga's wasm loader would otherwise load Node's HTTP client
  // (~50 ms) to read its own inlined binary.
  define: { fetch: 'undefined' },
  logLevel: 'warning',
  // What the package ships, smaller (a third less to download and for V8 to read at each start);
  // names kept, so a stack trace of an internal error still says which function.
  minifyWhitespace: true,
  minifySyntax: true,
  keepNames: true,
};

const importInkInBundle = {
  name: 'import-ink-in-bundle',
  setup(builder) {
    builder.onResolve({ filter: /\/importInk\.js$/ }, () => ({ path: new URL('./importInkInBundle.mjs', import.meta.url).pathname }));
    // dist/bundle/ink.mjs, beside app.cjs: imported from there at run time, not bundled in.
    builder.onResolve({ filter: /^\.\/ink\.mjs$/ }, () => ({ path: './ink.mjs', external: true }));
  },
};

/** Ink's devtools module (only imported with DEV=true) is left out: scripts/devtools-stub.mjs. */
const inkWithoutDevtools = {
  name: 'ink-without-devtools',
  setup(builder) {
    builder.onResolve({ filter: /^\.\/devtools\.js$/ }, (args) => (/[\\/]node_modules[\\/]ink[\\/]/.test(args.importer) ? { path: new URL('./devtools-stub.mjs', import.meta.url).pathname } : undefined));
  },
};

/**
 * Each `import fs from 'node:fs'` in a CommonJS bundle becomes its own copy of the module's
 * properties (esbuild's __toESM): 32 copies of fs cost ~40 ms of start-up. Routed through
 * one re-exporting module per built-in, each is copied once. Those modules have no side
 * effects: a built-in imported only by code the bundle leaves out (`rewind list` holds none of
 * bisect's test runs) is not loaded at all (node:child_process with what it loads: ~5-10 ms).
 */
const builtinsCopiedOnce = {
  name: 'builtins-copied-once',
  setup(builder) {
    builder.onResolve({ filter: /^node:/ }, (args) => (args.namespace === 'builtin' ? { path: args.path, external: true } : { path: args.path, namespace: 'builtin', sideEffects: false }));
    builder.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({ contents: `export * from '${args.path}';\nexport { default } from '${args.path}';\n`, loader: 'js' }));
  },
};

/**
 * In the command line's bundle the app always comes from dist/bundle/app.cjs, which this build
 * makes (commands/run.ts): its fallback, the app from its modules for a build without that
 * file (runSession.js, and through it Ink's loader), would ship ~90 KB of chunks that nothing
 * loads. It stays a module that says what is wrong, should the file be gone.
 */
const appOnlyFromItsBundle = {
  name: 'app-only-from-its-bundle',
  setup(builder) {
    builder.onResolve({ filter: /\/runSession\.js$/ }, (args) => (args.kind === 'dynamic-import' ? { path: 'runSession', namespace: 'app-bundle-missing' } : undefined));
    builder.onLoad({ filter: /.*/, namespace: 'app-bundle-missing' }, () => ({
      contents: "export function runSession() { throw new Error('the app bundle (dist/bundle/app.cjs) is missing: reinstall rewind'); }\n",
      loader: 'js',
    }));
  },
};

/**
 * The commands a user runs now and then, one chunk for all of them instead of a chunk each
 * and one per combination of the small modules only some of them share: fewer files to ship
 * and to load when one runs. The ones a script, an orchestrator or the app runs (list, diff,
 * restore, run, demo) keep their own (list is list.cjs's, below), and so does config: it loads conf (~90 ms), which the
 * others would then all load too (the build stops if the group's chunk imports a package
 * again). Through one module (`rewind:commands`) that holds each
 * as a namespace: dist/cli/main.js's `import('../commands/x.js')` becomes
 * `import('rewind:commands').then((commands) => commands.x)`. `rewind snapshot` and
 * `rewind hook` never come here (dist/cli.js sends them to snapshot.cjs and hook.cjs), nor
 * `rewind list` (list.cjs): here they load those files too, not a second copy of themselves.
 */
const commandGroup = ['redo', 'checkpoints', 'prune', 'clean', 'doctor', 'bisect', 'fork', 'show', 'export', 'import'];
const ownBundles = [
  { name: 'snapshot', file: './snapshot.cjs' },
  { name: 'hook', file: './hook.cjs' },
  { name: 'list', file: './list.cjs' },
];
const commandsInOneChunk = {
  name: 'commands-in-one-chunk',
  setup(builder) {
    builder.onLoad({ filter: /[\\/]dist[\\/]cli[\\/]main\.js$/ }, (args) => {
      let source = readFileSync(args.path, 'utf8');
      for (const name of [...commandGroup, ...ownBundles.map((own) => own.name)]) {
        const load = `import('../commands/${name}.js')`;
        if (!source.includes(load)) throw new Error(`dist/cli/main.js: no ${load} to put in rewind:commands`);
        source = source.replace(load, `import('rewind:commands').then((commands) => commands.${name})`);
      }
      return { contents: source, loader: 'js', resolveDir: path.dirname(args.path) };
    });
    builder.onResolve({ filter: /^rewind:commands$/ }, () => ({ path: 'commands', namespace: 'rewind' }));
    builder.onLoad({ filter: /.*/, namespace: 'rewind' }, () => ({
      contents: [
        "import { createRequire } from 'node:module';",
        ...commandGroup.map((name) => `export * as ${name} from './commands/${name}.js';`),
        ...ownBundles.map(({ name, file }) => `export const ${name} = { main: (args, io) => createRequire(import.meta.url)('${file}').commands.${name}().then(({ main }) => main(args, io)) };`),
      ].join('\n'),
      loader: 'js',
      resolveDir: dist,
    }));
  },
};

/**
 * The command line as a few ES modules instead of ~90 (`rewind snapshot` and the hook's
 * `rewind hook` start a Node process each time: loading the modules one by one was most of
 * what such a process paid beyond Node and git). Each command is a chunk of its own, loaded
 * when it runs; packages stay in node_modules. The chunks sit one folder below dist/, as the
 * modules they come from do, so the files they find beside them (`new URL('../hooks/…',
 * import.meta.url)`) are the same. dist/cli.js (below) is the entry users run. They are
 * named .mjs (snapshot.cjs and the others beside them .cjs): the folder needs no package.json to say what they are.
 */
const cliBuild = await build({
  ...shared,
  entryPoints: { cli: path.join(dist, 'cli/main.js') },
  outdir: cliBundle,
  format: 'esm',
  splitting: true,
  packages: 'external',
  chunkNames: 'chunk-[hash]',
  outExtension: { '.js': '.mjs' },
  plugins: [appOnlyFromItsBundle, commandsInOneChunk],
  metafile: true,
});
const groupChunk = Object.values(cliBuild.metafile.outputs).find((output) => output.entryPoint === 'rewind:commands');
if (!groupChunk) throw new Error('the command line build made no chunk for rewind:commands');
const groupPackages = groupChunk.imports.filter((imported) => imported.external && !imported.path.startsWith('node:')).map((imported) => imported.path);
if (groupPackages.length > 0) throw new Error(`the chunk of ${commandGroup.join(', ')} would load ${groupPackages.join(', ')} for each of them: give the command that needs it a chunk of its own`);

/** A command-line entry as one CommonJS file beside the chunks (snapshot.cjs, hook.cjs, list.cjs, below). */
const commandLineFile = {
  ...shared,
  format: 'cjs',
  // env-paths is an ES module (bundled in: CommonJS cannot require it on Node 20); simple-git is
  // required at run time from node_modules (gitClient.ts), never bundled.
  external: [...shared.external, 'simple-git'],
  metafile: true,
  // import.meta is empty in CommonJS; the file sits beside the chunks, so '../…' finds the same files.
  define: { ...shared.define, 'import.meta.url': '__rewindBundleUrl' },
  banner: { js: "const __rewindBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
};

/**
 * The inputs of a CommonJS build that put code in its file (esbuild lists the modules it
 * shook out too, with no bytes in the output).
 */
function bundled(result) {
  return Object.values(result.metafile.outputs).flatMap((output) => Object.entries(output.inputs).filter(([, input]) => input.bytesInOutput > 0).map(([name]) => name));
}
/**
 * The engine's modules (dist/checkpoints/) only declare: none does anything when loaded but
 * set its constants. Said so to esbuild, a module of the engine that nothing the bundle runs
 * uses is left out whole. Without it, each module the door (checkpoints/index.ts) imports
 * kept the constants it computes (`'0'.repeat(40)`, `60 * 60 * 1000`) in a bundle that never
 * reads them: the snapshot's bundle held restore's and retention's, though it runs neither.
 */
const engineDir = path.join(dist, 'checkpoints') + path.sep;
const engineDeclaresOnly = {
  name: 'engine-declares-only',
  setup(builder) {
    builder.onResolve({ filter: /^\.\.?\/.*\.js$/ }, (args) => {
      const file = path.resolve(args.resolveDir, args.path);
      return file.startsWith(engineDir) ? { path: file, sideEffects: false } : undefined;
    });
  },
};
/** The app and the packages only it loads: in none of the command line's CommonJS files. */
const appPackage = /(^|node_modules\/)(ink|react|conf|ink-select-input|@lydell\/node-pty|@xterm\/)(\/|$)/;

/**
 * `rewind snapshot` and `rewind hook` (a process per checkpoint a script or a hook asks for)
 * start from one CommonJS file each instead: a synchronous require of one file, no chunks for
 * the ES module loader to resolve, link and evaluate (src/cli/snapshotEntry.ts,
 * src/cli/hookEntry.ts). V8 compiles all of it at each start (~4 ms per 100 KB), so each holds
 * only what its command runs: nothing of the app (the build stops if Ink, React or conf lands
 * in one), and of the engine only SnapshotEngine's part (src/checkpoints/snapshotEngine.ts,
 * opened through openSnapshotEngine): the build stops if CheckpointEngine, the restore (but for
 * the journal and the restored marker a snapshot reads), retention or the tools land in one.
 * snapshot.cjs holds none of the hook's agents and conversation layer either (one file for
 * both made each `rewind snapshot` compile and load them: ~8 ms of its process).
 */
async function commandBundle(entry, file) {
  const result = await build({
    ...commandLineFile,
    entryPoints: [path.join(dist, entry)],
    outfile: path.join(cliBundle, file),
    plugins: [builtinsCopiedOnce, engineDeclaresOnly],
  });
  asciiOnly(path.join(cliBundle, file));
  const imports = Object.values(result.metafile.outputs).flatMap((output) => output.imports.map((imported) => imported.path));
  const heavy = [...imports, ...Object.keys(result.metafile.inputs)].filter((name) => appPackage.test(name));
  if (heavy.length > 0) throw new Error(`dist/cli-bundle/${file} would load ${[...new Set(heavy)].join(', ')}: keep the app out of it`);
  const notForSnapshot = bundled(result).filter((name) => /checkpoints\/(checkpointEngine\.js$|restore\/(?!(journal|restoredMarker)\.js$)|retention\/|tools\/)|services\/store\//.test(name));
  if (notForSnapshot.length > 0) throw new Error(`dist/cli-bundle/${file} would hold ${notForSnapshot.join(', ')}: it opens the engine through openSnapshotEngine (src/checkpoints/snapshotEngine.ts), which needs none of it`);
  return result;
}
const snapshotBundle = await commandBundle('cli/snapshotEntry.js', 'snapshot.cjs');
const hookOnly = bundled(snapshotBundle).filter((name) => /dist\/(agents|conversation|hooks)\//.test(name));
if (hookOnly.length > 0) throw new Error(`dist/cli-bundle/snapshot.cjs would hold ${hookOnly.join(', ')}: that is the hook's (hook.cjs)`);
await commandBundle('cli/hookEntry.js', 'hook.cjs');

/**
 * `rewind list` starts from list.cjs (src/cli/listEntry.ts): the checkpoint log read and the
 * steps printed, one small CommonJS file, so the list comes at once whatever the project's size
 * (issue 27: at most \`node -e 0\` + 50 ms). When the store needs the engine first, or with
 * `--now`, list.ts imports list/listEngine.ts: here that is listEngine.cjs (below, the whole
 * engine), required then, never a copy of the engine in this file. The build stops if the
 * engine, or anything of the app, lands in it.
 */
const listEngineFile = {
  name: 'list-engine-file',
  setup(builder) {
    builder.onResolve({ filter: /\/listEngine\.js$/ }, (args) => (args.kind === 'dynamic-import' ? { path: 'listEngine', namespace: 'list-engine-file' } : undefined));
    builder.onResolve({ filter: /^\.\/listEngine\.cjs$/ }, () => ({ path: './listEngine.cjs', external: true }));
    builder.onLoad({ filter: /.*/, namespace: 'list-engine-file' }, () => ({
      contents: "export function listThroughEngine(...args) { return require('./listEngine.cjs').listThroughEngine(...args); }\n",
      loader: 'js',
    }));
  },
};
const listBuild = await build({
  ...commandLineFile,
  entryPoints: [path.join(dist, 'cli/listEntry.js')],
  outfile: path.join(cliBundle, 'list.cjs'),
  plugins: [builtinsCopiedOnce, engineDeclaresOnly, listEngineFile],
});
asciiOnly(path.join(cliBundle, 'list.cjs'));
const notForList = bundled(listBuild).filter((name) => /checkpoints\/(checkpointEngine|snapshotEngine)\.js$/.test(name) || appPackage.test(name));
if (notForList.length > 0) throw new Error(`dist/cli-bundle/list.cjs would hold ${notForList.join(', ')}: \`rewind list\` reads the log alone (src/cli/listEntry.ts)`);

/**
 * listEngine.cjs: `rewind list` through the whole engine (src/commands/list/listEngine.ts),
 * for list.cjs when the store needs the engine's work first (recovery, a repair, a restore cut
 * off, retention due) or `--now` asks for the files, and never loaded otherwise. It holds the
 * engine's every part (an opening applies retention), so neither list.cjs nor snapshot.cjs does.
 */
const listEngineBuild = await build({
  ...commandLineFile,
  entryPoints: [path.join(dist, 'commands/list/listEngine.js')],
  outfile: path.join(cliBundle, 'listEngine.cjs'),
  plugins: [builtinsCopiedOnce],
});
asciiOnly(path.join(cliBundle, 'listEngine.cjs'));
const appForList = bundled(listEngineBuild).filter((name) => appPackage.test(name));
if (appForList.length > 0) throw new Error(`dist/cli-bundle/listEngine.cjs would hold ${appForList.join(', ')}: keep the app out of \`rewind list\``);

/**
 * dist/cli.js, the executable users and hooks run, is CommonJS: as an ES module it made Node
 * start its ES module loader (and the modules that loader needs) before the first line, ~7 ms
 * of every `rewind snapshot`. dist/package.json says so; each folder below it says its
 * compiled modules are ES modules, as the package's type says for the rest (the tests and
 * the bundles below use them). What the package ships needs none of those: the bundles'
 * names say what they are (.mjs, .cjs), and the demo agent is CommonJS, as dist/ says.
 * Once the command is done and nothing is left to run (beforeExit: every write flushed,
 * every child waited for), it exits there: Node's own teardown of the environment after
 * that (freeing what the command loaded) took ~5 ms of a `rewind snapshot` (from the exit
 * event to the process gone: 21 -> 16 ms at 10,000 files).
 */
writeFileSync(path.join(dist, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
for (const entry of readdirSync(dist, { withFileTypes: true })) {
  if (entry.isDirectory() && entry.name !== 'cli-bundle' && entry.name !== 'demo') writeFileSync(path.join(dist, entry.name, 'package.json'), `${JSON.stringify({ type: 'module' })}\n`);
}
writeFileSync(
  cli,
  `#!/usr/bin/env node
'use strict';
const args = process.argv.slice(2);
const command = args[0] === '-C' ? args[2] : args[0];
const own = { snapshot: './cli-bundle/snapshot.cjs', hook: './cli-bundle/hook.cjs', list: './cli-bundle/list.cjs' };
const file = Object.hasOwn(own, command) ? own[command] : undefined;
const loaded = file ? Promise.resolve(require(file)) : import('./cli-bundle/cli.mjs');
loaded.then(({ processIO, run }) => run(args, processIO())).then((code) => {
  process.exitCode = code;
  process.once('beforeExit', () => process.exit());
});
`,
);
chmodSync(cli, 0o755);

await build({
  ...shared,
  entryPoints: [path.join(dist, 'runtime/session/runSession.js')],
  outfile: app,
  format: 'cjs',
  plugins: [importInkInBundle, builtinsCopiedOnce],
  // import.meta is empty in CommonJS: the modules that find files beside them get the bundle's URL.
  define: { ...shared.define, 'import.meta.url': '__rewindBundleUrl' },
  banner: { js: "const __rewindBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
});

asciiOnly(app);

await build({
  ...shared,
  entryPoints: [path.join(dist, 'app/mountApp.js')],
  outfile: path.join(outdir, 'ink.mjs'),
  format: 'esm',
  // The app always runs React's production build (commands/run.ts sets NODE_ENV): the
  // development builds (~0.8 MB of React and its reconciler) are left out.
  define: { ...shared.define, 'process.env.NODE_ENV': '"production"' },
  // Mostly React, whose production builds ship unminified, and Ink: local names shortened too
  // (a third less). Only here: in the engine's and the app's bundles a stack trace of an
  // internal error keeps naming each method's class (minified, it names the variable).
  minifyIdentifiers: true,
  plugins: [inkWithoutDevtools],
  banner: { js: "import { createRequire as __rewindRequire } from 'node:module'; const require = __rewindRequire(import.meta.url);" },
});

/**
 * esbuild escapes what is not ASCII in strings, not in comments and regular expressions.
 * One such character makes V8 hold the whole ~1 MB source as two-byte text, decoded from
 * UTF-8 at every start (~20 ms). \u escapes mean the same in strings, templates, regular
 * expressions and identifiers, and nothing in comments.
 */
function asciiOnly(file) {
  const source = readFileSync(file, 'utf8');
  // Not after a backslash (\\é would become another escape) nor in a raw template: stop the
  // build rather than change what the code means.
  if (/\\[\u0080-\uffff]/.test(source) || /String\.raw`[^`]*[\u0080-\uffff]/.test(source)) throw new Error(`${file}: a non-ASCII character the build cannot escape safely`);
  const escaped = source.replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  new vm.Script(escaped, { filename: file }); // still parses
  writeFileSync(file, escaped);
}

/**
 * The demo agent, a program of its own (`rewind demo` runs it with node): one file in place of
 * its modules, so the package ships one. CommonJS, as dist/package.json says for the folder
 * (it has no top-level await): no package.json of its own to ship.
 */
await build({ ...shared, entryPoints: [path.join(dist, 'demo/agent.js')], outfile: path.join(dist, 'demo/agent.js'), allowOverwrite: true, format: 'cjs' });

