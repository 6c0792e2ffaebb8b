// Ink's devtools bridge is only used with DEV=true; the bundle has no React devtools.
export default { initialize() {}, connectToDevTools() {} };
