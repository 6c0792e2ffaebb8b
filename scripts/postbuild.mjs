// After tsc: make the CLI executable, and bundle the full-screen app into one file.
// Loading Ink, React and their ~100 modules one by one costs ~0.6 s of start-up here;
// one bundled file loads in ~0.15 s. node-pty stays outside (native).
import { chmodSync } from 'node:fs';
import { build } from 'esbuild';

chmodSync(new URL('../dist/cli.js', import.meta.url), 0o755);
await build({
  entryPoints: [new URL('../dist/app/runApp.js', import.meta.url).pathname],
  outfile: new URL('../dist/app/runApp.bundle.mjs', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['@lydell/node-pty'],
  alias: { 'react-devtools-core': new URL('./devtools-stub.mjs', import.meta.url).pathname },
  banner: { js: "import { createRequire as __rewindRequire } from 'node:module'; const require = __rewindRequire(import.meta.url);" },
  logLevel: 'warning',
});
