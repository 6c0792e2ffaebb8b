import { oneLine } from '../../shared/format.js';
import { cutToWidth } from './cut.js';
import { checkpointTitle } from './pickerRows.js';
import type { PickerCheckpoint } from './types.js';

/** How much of a prompt the mode screen quotes. */
const PROMPT_ROOM = 40;

const quoted = (checkpoint: PickerCheckpoint): string => `"${cutToWidth(oneLine(checkpoint.label).trim(), PROMPT_ROOM)}"`;

const turns = (n: number): string => `${n} turn${n === 1 ? '' : 's'}`;

/**
 * Where restoring the conversation of step `id` cuts it, from the session's steps (oldest
 * first): just before the step, or before its turn's prompt when it is a step of a turn
 * (never inside a turn, which would leave half of it: that turn goes with it); `before` is
 * the row it is cut before, `dropped` how many turns of that session go. Undefined for an
 * id that is no row.
 */
export function conversationDrop(checkpoints: readonly PickerCheckpoint[], id: number): { step: PickerCheckpoint; before: PickerCheckpoint; dropped: number } | undefined {
  const index = checkpoints.findIndex((checkpoint) => checkpoint.id === id);
  const step = checkpoints[index];
  if (step === undefined) return undefined;
  const later = checkpoints.slice(index + 1).filter((checkpoint) => checkpoint.session === step.session && checkpoint.kind === 'turn').length;
  const turn = step.kind === 'turn' ? step : step.turn === undefined ? undefined : checkpoints.find((checkpoint) => checkpoint.id === step.turn);
  return turn ? { step, before: turn, dropped: later + 1 } : { step, before: step, dropped: later };
}

/** `2 turns dropped`, as the mode screen and the notices count them. */
export function turnsDropped(dropped: number): string {
  return dropped === 0 ? 'no later turn dropped' : `${turns(dropped)} dropped`;
}

/**
 * What restoring the conversation of step `id` does to it, in one line (conversationDrop):
 * a turn's row: `the conversation cut to before prompt "fix the bug": 2 turns dropped (it
 * and 1 later)`; a step of a turn: cut before that turn's prompt too.
 */
export function conversationCut(checkpoints: readonly PickerCheckpoint[], id: number): string {
  const cut = conversationDrop(checkpoints, id);
  if (cut === undefined) return `the conversation cut to where it stood at #${id}`;
  const { step, before, dropped } = cut;
  const which = `${turns(dropped)} dropped (${dropped === 1 ? 'that one' : `it and ${dropped - 1} later`})`;
  if (step.kind === 'turn') return `the conversation cut to before prompt ${quoted(step)}: ${which}`;
  if (before !== step) return `the conversation cut to before prompt ${quoted(before)}, whose turn ${checkpointTitle(step)} is in: ${which}`;
  return `the conversation cut to where it stood just before ${checkpointTitle(step)}: ${dropped > 0 ? `${turns(dropped)} after it dropped` : 'no later turn dropped'}`;
}

/** The line the conversation-only mode adds about the files. */
export const FILES_UNTOUCHED = 'files untouched: they stay as they are now';
