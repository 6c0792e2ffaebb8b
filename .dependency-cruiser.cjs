// The layers of src/ and the arrows between them (README "Development"). `npm run lint` runs
// this; any import it does not allow, and any cycle, fails the lint.
//
//   cli -> commands -> runtime -> { app, pty, hooks, services, checkpoints, conversation, agents }
//   commands -> services (what the commands and the session share: steps, store report and
//     retention, doctor's checks), hooks (a hook call with no app), checkpoints, conversation, demo
//   services -> pty, checkpoints, conversation, agents
//   hooks (the whole hook feature) -> agents, checkpoints, conversation
//   conversation (layer 2) -> agents;  app -> pty
//   checkpoints, pty -> os (processes, their groups and the project lock: nothing about checkpoints) -> shared
//   every layer may import config and shared; config -> shared; shared -> nothing
//
// checkpoints/ (layer 1, files) and conversation/ (layer 2) never import each other.
//
// Outside checkpoints/, the engine is reached only through src/checkpoints/index.ts. Inside
// it, its parts stand in the same kind of order (README "Development"):
//
//   the engine (index.ts, checkpointEngine.ts, projectCheckpoints.ts…) -> tools -> retention
//     -> restore -> snapshot -> store -> git
//
// each importing only the parts below it. SnapshotEngine (snapshotEngine.ts, the engine of
// `rewind snapshot` and a hook with no app) stands on snapshot: of the parts above it, only the
// restore's journal and marker, which it reads.
const engineParts = ['git', 'store', 'snapshot', 'restore', 'retention', 'tools'];
const engineArrow = (part) => {
  const above = engineParts.slice(engineParts.indexOf(part) + 1);
  return {
    name: `engine-${part}-below-${above.join('-') || 'top'}`,
    severity: 'error',
    comment: `src/checkpoints/${part}/ imports only the engine's parts below it.`,
    from: { path: `^src/checkpoints/${part}/` },
    to: { path: `^src/checkpoints/(${above.length > 0 ? `(${above.join('|')})/|` : ''}[^/]+\\.tsx?$)` },
  };
};
const layer = (name, mayImport) => ({
  from: { path: `^src/${name}/` },
  to: { path: `^src/(${[name, ...mayImport].join('|')})/` },
});

module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', comment: 'Modules must not import each other in a circle.', from: {}, to: { circular: true } },
    {
      name: 'engine-through-its-door',
      severity: 'error',
      comment: 'Outside src/checkpoints/, import the engine only from src/checkpoints/index.ts.',
      from: { path: '^src/', pathNot: '^src/checkpoints/' },
      to: { path: '^src/checkpoints/', pathNot: '^src/checkpoints/index\\.ts$' },
    },
    ...engineParts.map(engineArrow),
    {
      name: 'snapshot-engine-below-restore',
      severity: 'error',
      comment: "src/checkpoints/snapshotEngine.ts (what a snapshot process loads) imports no part above snapshot but the restore's journal and marker it reads.",
      from: { path: '^src/checkpoints/snapshotEngine\\.ts$' },
      to: { path: '^src/checkpoints/((restore|retention|tools)/|checkpointEngine\\.ts$)', pathNot: '^src/checkpoints/restore/(journal|restoredMarker)\\.ts$' },
    },
    {
      name: 'views-only-draw',
      severity: 'error',
      comment: 'app/ draws: it does not start processes or hold the pty.',
      from: { path: '^src/app/' },
      to: { path: '^src/pty/(ptySession|resolveCommand)\\.ts$' },
    },
    {
      name: 'no-node-pty-outside-pty',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/pty/' },
      to: { path: '@lydell/node-pty' },
    },
  ],
  allowed: [
    { from: { path: '^src/cli\\.ts$' }, to: { path: '^src/(cli|commands)/' } },
    layer('cli', ['commands', 'config', 'shared']),
    layer('commands', ['runtime', 'services', 'hooks', 'checkpoints', 'conversation', 'demo', 'config', 'shared']),
    layer('runtime', ['app', 'pty', 'services', 'checkpoints', 'conversation', 'agents', 'hooks', 'os', 'config', 'shared']),
    layer('services', ['pty', 'checkpoints', 'conversation', 'agents', 'config', 'shared']),
    layer('app', ['pty', 'config', 'shared']),
    layer('pty', ['os', 'config', 'shared']),
    layer('agents', ['config', 'shared']),
    layer('hooks', ['agents', 'checkpoints', 'conversation', 'config', 'shared']),
    layer('checkpoints', ['os', 'config', 'shared']),
    layer('os', ['shared']),
    layer('conversation', ['agents', 'config', 'shared']),
    layer('config', ['shared']),
    layer('shared', []),
    // The demo agent is a program of its own (src/demo/agent.ts); commands make its sandbox.
    layer('demo', ['shared']),
    // Packages and Node's built-ins.
    { from: { path: '^src/' }, to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'core'] } },
  ],
  allowedSeverity: 'error',
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
