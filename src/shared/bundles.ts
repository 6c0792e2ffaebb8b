// The one place that knows how the build lays out what it makes (scripts/postbuild.mjs): the
// names of its bundles, and the switch its training session runs the app with.
import { fileURLToPath } from 'node:url';

/** The app after the agent started, as one CommonJS file compiled from its V8 code cache (beside it, `.cache`). */
export function appBundle(): string {
  return fileURLToPath(new URL('../bundle/app.cjs', import.meta.url));
}

/** Whether this is the build's training session, which writes the app bundle's code cache as it exits. */
export function trainingCodeCache(env: NodeJS.ProcessEnv): boolean {
  return env.REWIND_TRAIN_CODE_CACHE === '1';
}
