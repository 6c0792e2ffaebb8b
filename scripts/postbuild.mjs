// After tsc: make the CLI executable, and bundle the full-screen app. Loading Ink, React
// and their ~100 modules one by one costs ~0.6 s of start-up here; bundled, ~0.15 s. Ink
// and React go in their own chunk (the app imports them lazily), so the agent starts
// before they are even parsed. node-pty stays outside (native).
import { chmodSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

chmodSync(new URL('../dist/cli.js', import.meta.url), 0o755);
const outdir = new URL('../dist/bundle', import.meta.url).pathname;
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: [new URL('../dist/app/runApp.js', import.meta.url).pathname],
  outdir,
  entryNames: '[name]',
  chunkNames: 'chunk-[hash]',
  outExtension: { '.js': '.mjs' },
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['@lydell/node-pty'],
  // Nothing in the app fetches; yoga's wasm loader would otherwise load Node's HTTP client
  // (~50 ms) to read its own inlined binary.
  define: { fetch: 'undefined' },
  alias: { 'react-devtools-core': new URL('./devtools-stub.mjs', import.meta.url).pathname },
  banner: { js: "import { createRequire as __rewindRequire } from 'node:module'; const require = __rewindRequire(import.meta.url);" },
  logLevel: 'warning',
});
