// The one place that knows how the build lays out what it makes (scripts/postbuild.mjs): the
// names of its bundles and where the engine's shell scripts are. Every module and bundle that
// calls these sits one folder below src/ or dist/, so one relative URL serves them all.
import { fileURLToPath } from 'node:url';

/** The app after the agent started, as one CommonJS file. */
export function appBundle(): string {
  return fileURLToPath(new URL('../bundle/app.cjs', import.meta.url));
}

const scripts = fileURLToPath(new URL('../checkpoints/scripts/', import.meta.url));

/** One of the engine's shell scripts (src/checkpoints/scripts/, copied as they are into dist/), run as `sh <file>`. */
export function engineScript(name: 'snapshot.sh' | 'first-snapshot.sh' | 'background.sh'): string {
  return scripts + name;
}

