// Replaces src/runtime/session/importInk.ts in dist/bundle/app.cjs. Ink (through yoga and its own
// reconciler) uses top-level await, which a CommonJS bundle cannot hold: Ink and the views
// are the ES module bundle dist/bundle/ink.mjs beside it, imported from there when first needed.
export function importInk() {
  return import('./ink.mjs');
}
