import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchSnapshots, type SnapshotRow } from './snapshot.js';
import { benchRestore, type RestoreRow } from './restore.js';
import { benchThroughput, type ThroughputRow } from './throughput.js';
import { benchPicker, type PickerRow } from './picker.js';
import { benchProperties, type PropertyRow } from './property.js';
import { benchProcess, type ProcessRow } from './process.js';
import { benchList, type ListRow } from './list.js';
import { benchHook, type HookRow } from './hook.js';
import { benchEcho, type EchoRow } from './echo.js';
import { benchAgentEcho, type AgentEchoRow } from './agentEcho.js';
import { benchConversation, type ConversationRow } from './conversation.js';
import { benchLongSession, type LongSessionRow } from './longSession.js';
import { benchPackage, type PackageRow } from './packageSize.js';
import { benchHotBundle } from './hotBundle.js';
import { benchMonorepo, type MonorepoRow } from './monorepo.js';
import { benchKeptHeap } from './keptHeap.js';
import { benchFirstSnapshotTricks, tricksNote, tricksVerdicts, type TrickRow } from './tricks.js';

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

function agentEchoTable(rows: AgentEchoRow[]): string {
  const lines = ['| agent | bare median (p90) ms | rewind median (p90) ms | difference | keys each |', '|---|---:|---:|---:|---:|'];
  for (const r of rows) lines.push(`| ${r.agent} | ${r.bare.median} (${r.bare.p90}) | ${r.rewind.median} (${r.rewind.p90}) | ${r.differenceMs >= 0 ? '+' : ''}${r.differenceMs} ms | ${r.keys} |`);
  return lines.join('\n');
}

const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
const want = (part: string) => !only || only.split(',').includes(part);
const snapshot: SnapshotRow[] = [];
const restore: RestoreRow[] = [];
const throughput: ThroughputRow[] = [];
const processRows: ProcessRow[] = [];
const list: ListRow[] = [];
const hook: HookRow[] = [];
let echo: EchoRow[] = [];
let agentEcho: AgentEchoRow[] = [];
const tricks: TrickRow[] = [];
let picker: PickerRow | undefined;
const conversation: ConversationRow[] = [];
let longSession: LongSessionRow | undefined;
let properties: PropertyRow[] = [];
let packageRow: PackageRow | undefined;
const monorepo: MonorepoRow[] = [];
try {
  for (const files of sizes) {
    const runs = files >= 50_000 ? 11 : 15;
    const firstRuns = files >= 50_000 ? 3 : 9;
    if (want('snapshot')) {
      process.stderr.write(`snapshot bench: ${files} files…\n`);
      snapshot.push(...(await benchSnapshots(work, files, runs, firstRuns)));
    }
    if (want('restore')) {
      process.stderr.write(`restore bench: ${files} files…\n`);
      restore.push(await benchRestore(work, files, runs));
    }
    // A script's or a hook's whole process: at 1,000 and 10,000 files (the issue's sizes).
    if (want('process') && files <= 10_000) {
      process.stderr.write(`process bench: \`rewind snapshot\` at ${files} files…\n`);
      processRows.push(await benchProcess(work, files, runs));
    }
    // `rewind list`, whose target holds at any size: at 10,000 and 50,000 files (1,000 with --quick).
    if (want('list') && (quick || files >= 10_000)) {
      process.stderr.write(`list bench: \`rewind list\` at ${files} files…\n`);
      list.push(await benchList(work, files, runs));
    }
    if (want('hook') && files <= 10_000) {
      process.stderr.write(`hook bench: ${files} files…\n`);
      hook.push(...(await benchHook(work, files, runs)));
    }
    if (want('tricks')) {
      process.stderr.write(`tricks bench: first snapshot with and without seeding, ${files} files…\n`);
      tricks.push(...(await benchFirstSnapshotTricks(work, files, firstRuns + 2)));
    }
  }
  if (want('tricks')) {
    process.stderr.write('tricks bench: `rewind snapshot` with and without its CommonJS bundle…\n');
    tricks.push(await benchHotBundle(work, 10_000, quick ? 5 : 15));
    process.stderr.write('tricks bench: git keeping its heap, with and without…\n');
    tricks.push(...(await benchKeptHeap(work, quick)));
  }
  if (want('picker')) {
    process.stderr.write('picker bench: open time with 10,000 checkpoints…\n');
    picker = await benchPicker(work, 10_000, quick ? 3 : 11);
  }
  if (want('throughput')) {
    process.stderr.write('throughput bench: 20 MB through the app and through a bare pty…\n');
    throughput.push(...(await benchThroughput(work, quick ? 1 : 5)));
  }
  if (want('echo')) {
    process.stderr.write('echo bench: keystroke echo, bare and through rewind…\n');
    echo = await benchEcho(work, quick ? 1 : 3);
  }
  if (want('agentecho')) {
    // The real agents' TUIs (offline, against the fake model, as in test/agents).
    process.stderr.write('agent echo bench: keystroke echo in Claude Code, Gemini CLI and Codex, bare and through rewind…\n');
    agentEcho = await benchAgentEcho(quick ? 1 : 3, 30);
  }
  if (want('conversation')) {
    process.stderr.write('conversation bench: the store over 500 and 2,000 captures of a growing transcript…\n');
    for (const captures of quick ? [500] : [500, 2_000]) conversation.push(await benchConversation(work, captures));
  }
  if (want('longsession')) {
    process.stderr.write('long session bench: 2,000 snapshots of small changes in 5,000 files, retention on…\n');
    longSession = await benchLongSession(work, quick ? 1_000 : 5_000, quick ? 300 : 2_000);
  }
  // Big generated trees (250,000 files: a few minutes to make): only when asked for by name.
  if (only?.split(',').includes('monorepo')) {
    for (const files of quick ? [10_000] : [10_000, 50_000, 250_000]) {
      process.stderr.write(`monorepo bench: ${files} files…\n`);
      monorepo.push(await benchMonorepo(work, files, quick ? 5 : 15));
    }
  }
  if (want('package')) {
    process.stderr.write('package bench: the packed tarball…\n');
    packageRow = benchPackage();
  }
  if (want('property')) {
    const runs = quick ? 200 : 2_000;
    process.stderr.write(`property tests: ${runs} runs each…\n`);
    properties = benchProperties(runs);
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}

const measured = {
  snapshot,
  restore,
  process: processRows,
  list,
  hook,
  throughput,
  echo,
  agentEcho,
  picker,
  properties,
  conversation,
  longSession,
  package: packageRow,
  monorepo,
  tricks: tricks.length > 0 ? { bar: 'kept only if it buys at least 20% on a path users feel, against the fairest floor', note: tricksNote, verdicts: tricksVerdicts(tricks), rows: tricks } : undefined,
};
const machine = { cpus: os.cpus().length, node: process.version, platform: `${os.platform()} ${os.release()}` };
const out = new URL('./results.json', import.meta.url);
if (!quick && !only) fs.writeFileSync(out, `${JSON.stringify({ date: new Date().toISOString(), machine, ...measured }, null, 2)}\n`);
else if (!quick && only) {
  // A partial run replaces its own sections and says when (the rest keep the full run's date).
  const previous = fs.existsSync(out) ? (JSON.parse(fs.readFileSync(out, 'utf8')) as Record<string, unknown>) : {};
  const parts = Object.fromEntries(Object.entries(measured).filter(([, value]) => value !== undefined && (!Array.isArray(value) || value.length > 0)));
  const partial = { ...(previous.partial as Record<string, string> | undefined), ...Object.fromEntries(Object.keys(parts).map((key) => [key, new Date().toISOString()])) };
  fs.writeFileSync(out, `${JSON.stringify({ ...previous, machine, ...parts, partial }, null, 2)}\n`);
}
if (snapshot.length > 0) process.stdout.write(`Snapshot\n\n${table(snapshot)}\n\n`);
if (restore.length > 0) process.stdout.write(`Restore of ${12} changed files, safety snapshot included\n\n${restoreTable(restore)}\n\n`);
if (throughput.length > 0) process.stdout.write(`Output through the app\n\n${throughputTable(throughput)}\n\n`);
for (const r of processRows) {
  process.stdout.write(`rewind snapshot as a process, ${r.files} files, ${r.case}: ${r.rewind.median} ms (p90 ${r.rewind.p90}) vs node -e 0 ${r.nodeStart.median} + floor ${r.floor.median} = ${r.ratio}x (${r.target})\n`);
}
for (const r of list) {
  process.stdout.write(`rewind list as a process, ${r.files} files, ${r.checkpoints} checkpoints: ${r.rewind.median} ms (p90 ${r.rewind.p90}) shown again, ${r.firstAfterCheckpoint.median} ms (p90 ${r.firstAfterCheckpoint.p90}) first after a checkpoint, vs node -e 0 ${r.nodeStart.median}: +${r.overNode} / +${r.firstOverNode} ms (${r.target}: ${r.meetsTarget ? 'met' : 'NOT met'}); rewind list --now ${r.withNow.median} ms (p90 ${r.withNow.p90})\n`);
}
for (const r of hook) {
  process.stdout.write(`hook ${r.mode}, ${r.files} files: ${r.hook.median} ms (p90 ${r.hook.p90}), floor ${r.floor.median}${r.nodeStart !== undefined ? ` + node ${r.nodeStart}` : ''}: ${r.mode === 'in the app' ? `+${r.against} ms` : `${r.against}x`}\n`);
}
for (const r of echo) process.stdout.write(`echo, ${r.program}, ${r.how}: ${r.echoMs.median} ms (p90 ${r.echoMs.p90}) over ${r.keys} keys\n`);
if (agentEcho.length > 0) process.stdout.write(`Keystroke echo in the agents' TUIs\n\n${agentEchoTable(agentEcho)}\n\n`);
for (const r of tricks) {
  const floor = r.floor ? `; vs floor ${r.floor.median}: ${r.ratioWith}x with, ${r.ratioWithout}x without` : '';
  process.stdout.write(`trick ${r.trick}${r.files ? `, ${r.files} files` : ''}, ${r.path}: ${r.with.median} with, ${r.without.median} without (${r.unit ?? 'ms'}): ${r.gainPercent}% ${r.pays ? 'PAYS' : 'does not pay'}${floor}\n`);
}
for (const r of conversation) {
  const kib = (bytes: number) => `${Math.round(bytes / 1024).toLocaleString('en-US')} KiB`;
  process.stdout.write(`conversation store, ${r.captures} captures: transcript ${kib(r.transcriptBytes)}, store ${kib(r.storeBytes)} (${kib(r.diskBytes)} on disk) vs ${kib(r.copiesBytes)} as copies; capture ${r.captureMs.first} ms (first 100) / ${r.captureMs.last} ms (last 100), read back ${r.readMs} ms\n`);
}
if (longSession) {
  const r = longSession;
  const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  process.stdout.write(`long session, ${r.snapshots} snapshots in ${r.files} files, retention ${r.retentionDays} days: snapshot ${r.snapshotMs.first} ms (first 100) / ${r.snapshotMs.last} ms (last 100), slope ${r.slopeMsPer1000} ms per 1,000 checkpoints; store ${mib(r.storeBytes.early)} after 100, at most ${mib(r.storeBytes.most)}, ${mib(r.storeBytes.end)} at the end (${r.checkpointsAtEnd} checkpoints); prune ${r.pruneMs.median} ms median, ${r.pruneMs.max} ms slowest over ${r.pruneMs.passes} passes\n`);
}
for (const r of monorepo) {
  process.stdout.write(
    `monorepo, ${r.files} files in ${r.folders} folders: floor ${r.floor} ms; step in the app ${r.step} ms = ${r.stepRatio}x (target 0.15x); restore of 12 files ${r.restore} ms = ${r.restoreRatio}x (target 0.3x); step after a restore ${r.stepAfterRestore} ms; confirming walk ${r.confirm} ms; watcher start ${r.watcherStart} ms\n`,
  );
}
if (packageRow) process.stdout.write(`package: ${packageRow.files} files, ${(packageRow.packedBytes / 1024).toFixed(0)} KiB packed, ${(packageRow.unpackedBytes / 1024 / 1024).toFixed(2)} MiB unpacked (target ${packageRow.target})\n`);
for (const row of properties) process.stdout.write(`Property ${row.test}: ${row.runs} runs ${row.ok ? 'passed' : 'FAILED'} in ${(row.ms / 1000).toFixed(0)} s\n`);
if (picker) {
  process.stdout.write(`Picker open time with ${picker.checkpoints.toLocaleString('en-US')} checkpoints, in the app: median ${picker.openMs.median} ms, p90 ${picker.openMs.p90} ms (target ${picker.target}); `);
  process.stdout.write(`cold (list parsed from disk first): median ${picker.coldOpenMs.median} ms, p90 ${picker.coldOpenMs.p90} ms\n`);
}
