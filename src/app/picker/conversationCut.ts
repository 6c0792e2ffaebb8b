import { oneLine } from '../../shared/format.js';
import { cutToWidth } from './cut.js';
import { checkpointTitle } from './pickerRows.js';
import type { PickerCheckpoint } from './types.js';

/** How much of a prompt the mode screen quotes. */
const PROMPT_ROOM = 40;

const quoted = (checkpoint: PickerCheckpoint): string => `"${cutToWidth(oneLine(checkpoint.label).trim(), PROMPT_ROOM)}"`;

const turns = (n: number): string => `${n} turn${n === 1 ? '' : 's'}`;

/**
 * What restoring the conversation of step `id` does to it, in one line, from the session's
 * steps (oldest first): cut to just before the step, and how many turns of that session
 * go with it. A turn's row: `the conversation cut to before prompt "fix the bug": 2 turns
 * dropped (it and 1 later)`; a step of a turn: cut before that turn's prompt too (never
 * inside a turn, which would leave half of it), so that turn goes with it.
 */
export function conversationCut(checkpoints: readonly PickerCheckpoint[], id: number): string {
  const index = checkpoints.findIndex((checkpoint) => checkpoint.id === id);
  const step = checkpoints[index];
  if (step === undefined) return `the conversation cut to where it stood at #${id}`;
  const later = checkpoints.slice(index + 1).filter((checkpoint) => checkpoint.session === step.session && checkpoint.kind === 'turn').length;
  if (step.kind === 'turn') {
    return `the conversation cut to before prompt ${quoted(step)}: ${turns(later + 1)} dropped (${later === 0 ? 'that one' : `it and ${later} later`})`;
  }
  const turn = step.turn === undefined ? undefined : checkpoints.find((checkpoint) => checkpoint.id === step.turn);
  if (turn !== undefined) return `the conversation cut to before prompt ${quoted(turn)}, whose turn ${checkpointTitle(step)} is in: ${turns(later + 1)} dropped (${later === 0 ? 'that one' : `it and ${later} later`})`;
  return `the conversation cut to where it stood just before ${checkpointTitle(step)}: ${later > 0 ? `${turns(later)} after it dropped` : 'no later turn dropped'}`;
}

/** The line the conversation-only mode adds about the files. */
export const FILES_UNTOUCHED = 'files untouched: they stay as they are now';
