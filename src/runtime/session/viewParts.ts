import type { AppView } from '../../app/view.js';
import type { PaneFrame } from '../../app/view.js';
import type { CheckpointAvailability, CheckpointSummary } from '../checkpointing/checkpointer.js';
import { formatAge, formatBytes } from '../../shared/format.js';

/** Whether two views draw the same (a TUI that redraws identical frames costs nothing). */
export function sameView(a: AppView, b: AppView): boolean {
  if (a.columns !== b.columns || a.rows !== b.rows || a.overlay !== b.overlay || a.picker !== b.picker || a.commandBar?.text !== b.commandBar?.text || a.commandBar?.error !== b.commandBar?.error) return false;
  if (JSON.stringify(a.status) !== JSON.stringify(b.status) || Boolean(a.commandBar) !== Boolean(b.commandBar)) return false;
  return samePane(a.pane, b.pane);
}

/** Whether two pane frames draw the same. */
export function samePane(a: PaneFrame | undefined, b: PaneFrame | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.cursor.x !== b.cursor.x || a.cursor.y !== b.cursor.y || a.cursor.visible !== b.cursor.visible || a.rows.length !== b.rows.length) return false;
  return a.rows.every((row, index) => row === b.rows[index]);
}

/** The checkpoints part of the status line: `#14 · 2m ago · 2.1 MB`, or why they are off. */
export function checkpointStatus(availability: CheckpointAvailability | undefined, summary: CheckpointSummary | undefined, now = Date.now()): { checkpoints: string; checkpointsOff: boolean } {
  if (!availability) return { checkpoints: 'opening checkpoints…', checkpointsOff: false };
  if (!availability.on) return { checkpoints: `checkpoints off: ${availability.reason}`, checkpointsOff: true };
  if (!summary || summary.count === 0) return { checkpoints: 'no checkpoints yet', checkpointsOff: false };
  const age = summary.newest ? formatAge(now - Date.parse(summary.newest.time)) : '';
  const size = summary.storeBytes === undefined ? '' : ` · ${formatBytes(summary.storeBytes)}`;
  return { checkpoints: `#${summary.newest?.id ?? summary.count} · ${age}${size}`, checkpointsOff: false };
}
