// Replaces src/runtime/session/importInk.ts in dist/bundle/app.cjs. Ink (through yoga and its own
// reconciler) uses top-level await, which a CommonJS bundle cannot hold: Ink and the views
// are the ES module bundle dist/bundle/ink.mjs beside it, imported through the loader's
// importer (src/runtime/session/codeCachedScript.ts), as a vm script cannot import() by itself.
/* global __rewindImport */
export function importInk() {
  return __rewindImport('./ink.mjs');
}
