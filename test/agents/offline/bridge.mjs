// Runs inside a fresh network namespace (started by `unshare -n`): brings up loopback, serves
// 127.0.0.1:<port> by forwarding each connection to the fake model's Unix socket, then runs
// the agent. The agent can reach the fake model and nothing else: there is no other network.
// Usage: node bridge.mjs <port> <socket> -- <command> [args...]
import { execFileSync, spawn } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';

const [port, socketPath, separator, command, ...args] = process.argv.slice(2);
if (!port || !socketPath || separator !== '--' || !command) {
  process.stderr.write('usage: bridge.mjs <port> <socket> -- <command> [args...]\n');
  process.exit(64);
}

try {
  execFileSync('ip', ['link', 'set', 'lo', 'up'], { env: { PATH: `${process.env.PATH ?? ''}:/usr/sbin:/sbin` }, stdio: ['ignore', 'ignore', 'pipe'] });
} catch (error) {
  process.stderr.write(`bridge: cannot bring up loopback in the network namespace: ${error.stderr?.toString().trim() || error.message}\n`);
  process.exit(69);
}

const server = net.createServer((client) => {
  const upstream = net.connect(socketPath);
  client.pipe(upstream).pipe(client);
  const drop = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', drop);
  upstream.on('error', drop);
});
server.on('error', (error) => {
  process.stderr.write(`bridge: cannot listen on 127.0.0.1:${port}: ${error.message}\n`);
  process.exit(69);
});
server.listen(Number(port), '127.0.0.1', () => {
  // The agent shares our terminal and process group: Ctrl-C reaches it from the terminal,
  // so we ignore it here; signals sent to us alone are passed on.
  const child = spawn(command, args, { stdio: 'inherit' });
  process.on('SIGINT', () => undefined);
  for (const signal of ['SIGTERM', 'SIGHUP', 'SIGQUIT']) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => {
    process.stderr.write(`bridge: cannot start ${command}: ${error.message}\n`);
    process.exit(127);
  });
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (os.constants.signals[signal] ?? 0)));
});
