// Preloaded (node --import) into the app the build runs once in a pty (trainingSession.mjs,
// run by postbuild.mjs): tells it, through src/shared/seams.ts, to write its bundle's code
// cache as it exits.
globalThis[Symbol.for('rewind.injected')] = { trainCodeCache: true };
