// `npm start`: builds Rewind if dist/ is missing or older than its sources, then opens
// `rewind demo` (the app on the demo agent, in a sandbox project).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const cli = path.join(root, 'dist', 'cli.js');

function newest(entry) {
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(entry).map((name) => newest(path.join(entry, name))));
}

// Sources, the build's own scripts and config, and the dependencies the build bundles.
const inputs = ['src', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'].map((name) => path.join(root, name)).filter((entry) => fs.existsSync(entry));
const stale = !fs.existsSync(cli) || Math.max(...inputs.map(newest)) > fs.statSync(cli).mtimeMs;
if (stale) {
  process.stderr.write('building rewind (once)…\n');
  const built = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const demo = spawnSync(cli, ['demo', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(demo.status ?? 1);
