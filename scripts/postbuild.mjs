// Makes the built CLI executable so `node_modules/.bin/rewind` and the bin path both run.
import { chmodSync } from 'node:fs';
chmodSync(new URL('../dist/cli.js', import.meta.url), 0o755);
