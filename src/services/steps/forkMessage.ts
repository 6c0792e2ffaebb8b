import type { CheckpointRecord } from '../../checkpoints/index.js';
import { sessionSteps, type SessionStep } from './sessionSteps.js';

/** The step a checkpoint starts, or the one it is folded into (as `rewind list` shows it). */
function stepOf(steps: readonly SessionStep[], id: number): SessionStep | undefined {
  return steps.find((step) => step.id === id) ?? steps.find((step) => step.folded.includes(id));
}

function oneLine(words: string, max: number): string {
  const line = words.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

/** What the subject says of the step: a step's checkpoint is taken before it (a prompt's, as `rewind list` shows it); a mark (a snapshot, a session's start) is named by its own label. */
function subjectOf(step: SessionStep | undefined, title: string): string {
  if (step?.kind === 'turn') return `before prompt: ${title}`;
  return step?.kind === 'tool' || step?.kind === 'outside' ? `before ${title}` : title;
}

/**
 * The message of `rewind fork --branch`'s commit: the step the checkpoint is taken before,
 * as `rewind list` and `rewind show` name it, and the prompt of its turn (a prompt's own
 * step: the prompt). Pure.
 */
export function forkCommitMessage(records: readonly CheckpointRecord[], id: number): string {
  const record = records.find((entry) => entry.id === id);
  if (!record) return `Rewind checkpoint #${id}\n`;
  const steps = sessionSteps(records);
  const step = stepOf(steps, id);
  const title = step?.title ?? (record.label || record.trigger);
  const turn = step?.kind === 'turn' ? step : step?.turn !== undefined ? steps.find((entry) => entry.id === step.turn) : undefined;
  const lines = [
    oneLine(`Rewind checkpoint #${id}: ${subjectOf(step, title)}`, 72),
    '',
    `The project's files exactly as they were at Rewind checkpoint #${id}, taken ${record.time}`,
    `just before this step (trigger ${record.trigger}${record.agent ? `, agent ${record.agent}` : ''}${record.session ? `, session ${record.session}` : ''}):`,
  ];
  if (turn !== step) lines.push(`  Step: ${oneLine(title, 500)}`);
  if (turn) lines.push(`  Prompt: ${oneLine(turn.title, 500)}`);
  return `${lines.join('\n')}\n`;
}
