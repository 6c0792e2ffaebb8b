import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchSnapshots, type SnapshotRow } from './snapshot.js';

const quick = process.argv.includes('--quick');
const sizes = quick ? [1_000] : [1_000, 10_000, 50_000];
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'rewind-bench-'));

function table(rows: SnapshotRow[]): string {
  const lines = ['| files | case | rewind median (p90) ms | floor median (p90) ms | ratio |', '|---:|---|---:|---:|---:|'];
  for (const r of rows) {
    lines.push(`| ${r.files.toLocaleString('en-US')} | ${r.case} | ${r.rewind.median} (${r.rewind.p90}) | ${r.floor.median} (${r.floor.p90}) | ${r.ratio}x |`);
  }
  return lines.join('\n');
}

const snapshot: SnapshotRow[] = [];
try {
  for (const files of sizes) {
    const runs = files >= 50_000 ? 11 : 15;
    const firstRuns = files >= 50_000 ? 2 : 3;
    process.stderr.write(`snapshot bench: ${files} files…\n`);
    snapshot.push(...(await benchSnapshots(work, files, runs, firstRuns)));
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}

const results = {
  date: new Date().toISOString(),
  machine: { cpus: os.cpus().length, node: process.version, platform: `${os.platform()} ${os.release()}` },
  snapshot,
};
const out = new URL('./results.json', import.meta.url);
if (!quick) fs.writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
process.stdout.write(`${table(snapshot)}\n`);
