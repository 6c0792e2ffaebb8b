import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchSnapshots, type SnapshotRow } from './snapshot.js';
import { benchRestore, type RestoreRow } from './restore.js';
import { benchThroughput, type ThroughputRow } from './throughput.js';
import { benchPicker, type PickerRow } from './picker.js';
import { benchProperties, type PropertyRow } from './property.js';

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

function restoreTable(rows: RestoreRow[]): string {
  const lines = [
    '| files | rewind median (p90) ms | read-tree floor | cat-file floor | ratio to fastest |',
    '|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    lines.push(`| ${r.files.toLocaleString('en-US')} | ${r.rewind.median} (${r.rewind.p90}) | ${r.readTreeFloor.median} (${r.readTreeFloor.p90}) | ${r.catFileFloor.median} (${r.catFileFloor.p90}) | ${r.ratio}x |`);
  }
  return lines.join('\n');
}

function throughputTable(rows: ThroughputRow[]): string {
  const lines = ['| stream | bare pty wall / CPU ms | rewind wall / CPU ms | wall ratio | CPU ratio | rewind max RSS |', '|---|---:|---:|---:|---:|---:|'];
  for (const r of rows) {
    lines.push(`| ${r.stream} | ${r.bare.wallMs} / ${r.bare.cpuMs} | ${r.rewind.wallMs} / ${r.rewind.cpuMs} | ${r.wallRatio}x | ${r.cpuRatio}x | ${r.rewind.maxRssMb} MB |`);
  }
  return lines.join('\n');
}

const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
const snapshot: SnapshotRow[] = [];
const restore: RestoreRow[] = [];
const throughput: ThroughputRow[] = [];
let picker: PickerRow | undefined;
let properties: PropertyRow[] = [];
try {
  for (const files of sizes) {
    const runs = files >= 50_000 ? 11 : 15;
    const firstRuns = files >= 50_000 ? 3 : 9;
    if (!only || only === 'snapshot') {
      process.stderr.write(`snapshot bench: ${files} files…\n`);
      snapshot.push(...(await benchSnapshots(work, files, runs, firstRuns)));
    }
    if (!only || only === 'restore') {
      process.stderr.write(`restore bench: ${files} files…\n`);
      restore.push(await benchRestore(work, files, runs));
    }
  }
  if (!only || only === 'picker') {
    process.stderr.write('picker bench: open time with 10,000 checkpoints…\n');
    picker = await benchPicker(work, 10_000, quick ? 3 : 11);
  }
  if (!only || only === 'throughput') {
    process.stderr.write('throughput bench: 20 MB through the app and through a bare pty…\n');
    throughput.push(...(await benchThroughput(work, quick ? 1 : 5)));
  }
  if (!only || only === 'property') {
    const runs = quick ? 200 : 2_000;
    process.stderr.write(`property tests: ${runs} runs each…\n`);
    properties = benchProperties(runs);
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}

const results = {
  date: new Date().toISOString(),
  machine: { cpus: os.cpus().length, node: process.version, platform: `${os.platform()} ${os.release()}` },
  snapshot,
  restore,
  throughput,
  picker,
  properties,
};
const out = new URL('./results.json', import.meta.url);
if (!quick && !only) fs.writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
if (snapshot.length > 0) process.stdout.write(`Snapshot\n\n${table(snapshot)}\n\n`);
if (restore.length > 0) process.stdout.write(`Restore of ${12} changed files, safety snapshot included\n\n${restoreTable(restore)}\n\n`);
if (throughput.length > 0) process.stdout.write(`Output through the app\n\n${throughputTable(throughput)}\n\n`);
for (const row of properties) process.stdout.write(`Property ${row.test}: ${row.runs} runs ${row.ok ? 'passed' : 'FAILED'} in ${(row.ms / 1000).toFixed(0)} s\n`);
if (picker) {
  process.stdout.write(`Picker open time with ${picker.checkpoints.toLocaleString('en-US')} checkpoints, in the app: median ${picker.openMs.median} ms, p90 ${picker.openMs.p90} ms (target ${picker.target}); `);
  process.stdout.write(`cold (list parsed from disk first): median ${picker.coldOpenMs.median} ms, p90 ${picker.coldOpenMs.p90} ms\n`);
}
