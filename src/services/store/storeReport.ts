// The disk-usage view as lines: `/checkpoints` in the app and `rewind checkpoints` print
// the same table.
import path from 'node:path';
import type { RetentionPolicy, StoreEntry, StoreReport } from '../../checkpoints/index.js';
import { formatBytes } from '../../shared/format.js';
import { localTime } from '../../shared/time.js';

const barWidth = 12;
const nameWidth = 44;

/** `…/the/end/of/a/long/path`, at most `width` characters. */
function shortPath(file: string, width: number): string {
  return file.length <= width ? file : `…${file.slice(file.length - width + 1)}`;
}

function bar(bytes: number, most: number): string {
  const filled = most > 0 ? Math.max(bytes > 0 ? 1 : 0, Math.round((bytes / most) * barWidth)) : 0;
  return `${'█'.repeat(filled)}${'░'.repeat(barWidth - filled)}`;
}

function projectRow(entry: StoreEntry, most: number, mine: string): string {
  const name = entry.project === '' ? `(unknown project) ${path.basename(entry.store)}` : entry.project;
  const mark = entry.store === mine ? '▶ ' : entry.exists ? '  ' : '✗ ';
  return `${mark}${shortPath(name, nameWidth).padEnd(nameWidth)} ${formatBytes(entry.bytes).padStart(7)} ${bar(entry.bytes, most)} ${String(entry.checkpoints).padStart(5)}`;
}

function retentionLines(report: StoreReport): string[] {
  const { days, maxGb, dueNow, nextAt, overCap, sizeDropHeld } = report.retention;
  const lines = [`Retention: checkpoint_retention_days ${days === 0 ? '0 (no age limit)' : days}, checkpoint_max_gb ${maxGb}`];
  if (dueNow > 0) lines.push(`  next: ${dueNow} checkpoint(s) older than ${days} day(s) go the next time rewind opens this project (\`rewind prune\` now)`);
  else if (nextAt) lines.push(`  next: nothing is old enough yet; the oldest goes after ${localTime(nextAt)}`);
  else lines.push(days === 0 ? `  next: nothing goes by age; over ${maxGb} GB the oldest half goes` : '  next: nothing to drop (the newest checkpoint is always kept)');
  if (overCap) lines.push(sizeDropHeld ? `  ${sizeDropHeldText({ days, maxGb })}` : `  this store is over ${maxGb} GB: the oldest half of its checkpoints goes at the next open`);
  return lines;
}

/** The whole view, a line each. */
export function storeReportLines(report: StoreReport): string[] {
  const range = report.oldest && report.newest ? `: #${report.oldest.id} (${localTime(report.oldest.time)}) to #${report.newest.id} (${localTime(report.newest.time)})` : '';
  const most = Math.max(0, ...report.projects.map((entry) => entry.bytes));
  const orphanBytes = report.orphans.reduce((sum, entry) => sum + entry.bytes, 0);
  return [
    `${report.checkpoints} checkpoint(s) for ${report.project}${range}`,
    `This project's store: ${formatBytes(report.projectBytes)}   All projects: ${formatBytes(report.allBytes)} (${report.projects.length} store(s))`,
    `Store: ${report.store}`,
    '',
    ...retentionLines(report),
    '',
    `  ${'Project'.padEnd(nameWidth)} ${'Disk'.padStart(7)} ${''.padEnd(barWidth)} ${'Ckpts'.padStart(5)}`,
    ...(report.projects.length > 0 ? report.projects.map((entry) => projectRow(entry, most, report.store)) : ['  (no checkpoint stores yet)']),
    ...(report.orphans.length > 0 ? ['', `✗ ${report.orphans.length} project folder(s) no longer exist (${formatBytes(orphanBytes)}): \`rewind clean --orphans\` deletes their stores`] : []),
  ];
}

/** Why a store over its cap keeps its checkpoints this time. */
export function sizeDropHeldText(policy: RetentionPolicy): string {
  return `the store is over checkpoint_max_gb (${policy.maxGb} GB), but dropping half its checkpoints freed little of it last time (the files as they are now count too): none go until it grows by a tenth; \`rewind clean --project\` frees it all`;
}
