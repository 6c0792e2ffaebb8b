// Stands in for Ink's devtools module (ink/build/devtools.js) in dist/bundle/ink.mjs. Ink
// imports it only with DEV=true, to connect React devtools over a WebSocket: the bundle has no
// React devtools, and without this the WebSocket client it brings (ws, ~70 KB) and the
// globals it sets (window, self, WebSocket) would ship in a bundle that never uses them.
export {};
