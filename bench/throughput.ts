import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pty from '@lydell/node-pty';
import xtermHeadless from '@xterm/headless';
import { appEnv, round } from './lib.js';

const cli = path.resolve(import.meta.dirname, '../dist/cli.js');
const megabytes = 20;

/** `seq` to about 20 MB of output. */
const seqCommand = ['seq', '1', String(Math.round((megabytes * 1024 * 1024) / 7.2))];

/** A colourful, TUI-like stream: full redraws with cursor moves and SGR colours, `MEGABYTES` MB. */
const tuiScript = `
const rows = 24, frame = [];
for (let y = 0; y < rows; y++) {
  let line = '\\x1b[' + (y + 1) + ';1H';
  for (let x = 0; x < 8; x++) line += '\\x1b[38;5;' + ((x * 31 + y * 7) % 256) + 'm\\x1b[48;5;' + ((x * 13 + y) % 256) + 'm cell ' + x + '\\x1b[0m';
  frame.push(line);
}
const text = '\\x1b[H' + frame.join('') + '\\n';
let written = 0; const target = Number(process.env.MEGABYTES) * 1024 * 1024;
const out = () => { while (written < target) { written += text.length; if (!process.stdout.write(text)) return process.stdout.once('drain', out); } };
out();
`;

export interface ThroughputRow {
  stream: string;
  bare: { wallMs: number; cpuMs: number };
  rewind: { wallMs: number; cpuMs: number; maxRssMb: number };
  wallRatio: number;
  cpuRatio: number;
}

export interface Measured {
  wallMs: number;
  cpuMs: number;
  maxRssKb: number;
}

/**
 * Runs `argv` under /usr/bin/time in a pty, reading its output the way the user's terminal
 * would: parsed by a terminal emulator (@xterm/headless, 120x40). Without rewind that
 * emulator parses all 20 MB; with rewind, rewind parses them and the outer one only the
 * frames rewind draws. Wall time runs until the command exited and the reader parsed
 * everything; CPU is the command's (and its children's) plus the reader's own.
 */
export function measure(argv: readonly string[], cwd: string, env: Record<string, string>): Promise<Measured> {
  const report = path.join(os.tmpdir(), `rewind-bench-time-${process.pid}-${Date.now()}`);
  const before = process.cpuUsage();
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = pty.spawn('/usr/bin/time', ['-f', '%U %S %M', '-o', report, ...argv], { cols: 120, rows: 40, cwd, env, name: 'xterm-256color' });
    let bytes = 0;
    const terminal = new xtermHeadless.Terminal({ cols: 120, rows: 40, scrollback: 1000, allowProposedApi: true });
    child.onData((data) => {
      bytes += data.length;
      terminal.write(data);
    });
    child.onExit(({ exitCode }) => {
      terminal.write('', () => settle(exitCode));
    });
    const settle = (exitCode: number) => {
      terminal.dispose();
      const wallMs = performance.now() - start;
      const reader = process.cpuUsage(before);
      try {
        const [user = '0', system = '0', rss = '0'] = fs.readFileSync(report, 'utf8').trim().split('\n').at(-1)?.split(' ') ?? [];
        fs.rmSync(report, { force: true });
        if (exitCode !== 0) return reject(new Error(`${argv.join(' ')} exited ${exitCode} after ${bytes} bytes`));
        resolve({ wallMs, cpuMs: (Number(user) + Number(system)) * 1000 + (reader.user + reader.system) / 1000, maxRssKb: Number(rss) });
      } catch (error) {
        reject(error as Error);
      }
    };
  });
}

/** 20 MB through the app and through a bare pty in the same run, for `seq` and a TUI-like stream. */
export async function benchThroughput(work: string, runs = 5): Promise<ThroughputRow[]> {
  const project = path.join(work, 'throughput');
  fs.mkdirSync(project, { recursive: true });
  fs.writeFileSync(path.join(project, 'tui.js'), tuiScript);
  const env = appEnv(work, 'throughput', project);
  // The 100 MB stream shows the cost once start-up is paid: a real session runs for hours.
  const streams: [string, string[], number][] = [
    ['seq (20 MB)', seqCommand, runs],
    ['colourful TUI redraws (20 MB)', ['env', `MEGABYTES=${megabytes}`, process.execPath, 'tui.js'], runs],
    ['colourful TUI redraws (100 MB)', ['env', 'MEGABYTES=100', process.execPath, 'tui.js'], Math.min(runs, 3)],
  ];
  const rows: ThroughputRow[] = [];
  for (const [name, command, times] of streams) {
    const bare: Measured[] = [];
    const ours: Measured[] = [];
    for (let i = 0; i < times; i++) {
      bare.push(await measure(command, project, env));
      // As users run it: the `rewind` executable (which starts Node with its flags).
      ours.push(await measure([cli, '--', ...command], project, env));
    }
    const mid = (values: Measured[], key: keyof Measured) => [...values.map((value) => value[key])].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
    const b = { wallMs: round(mid(bare, 'wallMs')), cpuMs: round(mid(bare, 'cpuMs')) };
    const r = { wallMs: round(mid(ours, 'wallMs')), cpuMs: round(mid(ours, 'cpuMs')), maxRssMb: round(Math.max(...ours.map((value) => value.maxRssKb)) / 1024) };
    rows.push({ stream: name, bare: b, rewind: r, wallRatio: round(r.wallMs / b.wallMs, 2), cpuRatio: round(r.cpuMs / b.cpuMs, 2) });
  }
  return rows;
}
