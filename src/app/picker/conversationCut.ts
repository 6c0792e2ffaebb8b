import { oneLine } from '../../shared/format.js';
import { cutToWidth } from './cut.js';
import { checkpointTitle } from './pickerRows.js';
import type { ConversationRestored } from '../../shared/conversation.js';
import type { PickerCheckpoint } from './types.js';

/** How much of a prompt the mode screen quotes. */
const PROMPT_ROOM = 40;

const quoted = (checkpoint: PickerCheckpoint): string => `"${cutToWidth(oneLine(checkpoint.label).trim(), PROMPT_ROOM)}"`;

const turns = (n: number): string => `${n} turn${n === 1 ? '' : 's'}`;

/** Where a conversation restore of a step cuts it: before its turn's prompt when it is a step of a turn (never inside a turn), else just before it. */
function cutBefore(checkpoints: readonly PickerCheckpoint[], step: PickerCheckpoint): PickerCheckpoint {
  if (step.kind === 'turn' || step.turn === undefined) return step;
  return checkpoints.find((checkpoint) => checkpoint.id === step.turn) ?? step;
}

const sessionOf = (checkpoint: PickerCheckpoint): string => checkpoint.session ?? '';

/**
 * The turns (their rows' ids) each session's conversation holds now, and held when each
 * row's checkpoint was taken, the conversation restores made among these rows replayed in
 * order: each one brings back the conversation as it stood where it cut, and the turns
 * checkpointed after it come after that.
 */
function conversationTurns(checkpoints: readonly PickerCheckpoint[], restores: readonly ConversationRestored[]): { now: Map<string, number[]>; at: Map<number, number[]> } {
  const now = new Map<string, number[]>();
  const at = new Map<number, number[]>();
  const pending = [...restores].sort((a, b) => a.after - b.after);
  let next = 0;
  // A checkpoint that is no row (folded into the step before it) is in that step's row.
  const byId = [...checkpoints].sort((a, b) => a.id - b.id);
  const bringBack = (made: ConversationRestored) => {
    const to = byId.findLast((checkpoint) => checkpoint.id <= made.to);
    const before = to && cutBefore(checkpoints, to);
    const held = before && at.get(before.id);
    if (before && held) now.set(sessionOf(before), [...held]);
  };
  for (const checkpoint of byId) {
    for (let made = pending[next]; made !== undefined && made.after < checkpoint.id; made = pending[++next]) bringBack(made);
    const turns = now.get(sessionOf(checkpoint)) ?? [];
    at.set(checkpoint.id, turns);
    if (checkpoint.kind === 'turn') now.set(sessionOf(checkpoint), [...turns, checkpoint.id]);
  }
  for (const made of pending.slice(next)) bringBack(made);
  return { now, at };
}

/** What a conversation restore of step `id` does: where it cuts (`before`), how many turns of the conversation as it is now go (`dropped`) and how many an earlier restore took out come back (`back`); `held`: the conversation holds `before`'s turn now. */
export interface ConversationDrop {
  step: PickerCheckpoint;
  before: PickerCheckpoint;
  dropped: number;
  back: number;
  held: boolean;
}

/**
 * Where restoring the conversation of step `id` cuts it, from the session's steps (oldest
 * first) and the conversation restores made among them (a turn an earlier one dropped is
 * not dropped again): just before the step, or before its turn's prompt when it is a step
 * of a turn (never inside a turn, which would leave half of it: that turn goes with it).
 * Undefined for an id that is no row.
 */
export function conversationDrop(checkpoints: readonly PickerCheckpoint[], id: number, restores: readonly ConversationRestored[] = []): ConversationDrop | undefined {
  const step = checkpoints.find((checkpoint) => checkpoint.id === id);
  if (step === undefined) return undefined;
  const before = cutBefore(checkpoints, step);
  const { now, at } = conversationTurns(checkpoints, restores);
  const current = now.get(sessionOf(before)) ?? [];
  const then = new Set(at.get(before.id) ?? []);
  const kept = new Set(current);
  return { step, before, dropped: current.filter((turn) => !then.has(turn)).length, back: [...then].filter((turn) => !kept.has(turn)).length, held: kept.has(before.id) };
}

/** `, 1 back (an earlier rewind dropped it)`: the turns a restore brings back (none: nothing). */
function comingBack(back: number): string {
  return back === 0 ? '' : `, ${turns(back)} back (an earlier rewind dropped ${back === 1 ? 'it' : 'them'})`;
}

/** `2 turns dropped`, as the notices count them (`, 1 back` when an earlier rewind's come back). */
export function turnsDropped(drop: Pick<ConversationDrop, 'dropped' | 'back'>): string {
  return `${drop.dropped === 0 ? 'no later turn dropped' : `${turns(drop.dropped)} dropped`}${drop.back === 0 ? '' : `, ${turns(drop.back)} back`}`;
}

/** How many turns a cut before a turn's prompt drops, as the mode screen says it: `2 turns dropped (it and 1 later)`. */
function turnsCut({ dropped, back, held }: ConversationDrop): string {
  if (dropped === 0) return back === 0 ? 'no turn dropped (the conversation stands there already)' : `no turn dropped${comingBack(back)}`;
  // Its own turn is not among them when an earlier restore dropped it.
  const which = held ? ` (${dropped === 1 ? 'that one' : `it and ${dropped - 1} later`})` : '';
  return `${turns(dropped)} dropped${which}${comingBack(back)}`;
}

/**
 * What restoring the conversation of step `id` does to it, in one line (conversationDrop):
 * a turn's row: `the conversation cut to before prompt "fix the bug": 2 turns dropped (it
 * and 1 later)`; a step of a turn: cut before that turn's prompt too.
 */
export function conversationCut(checkpoints: readonly PickerCheckpoint[], id: number, restores: readonly ConversationRestored[] = []): string {
  const cut = conversationDrop(checkpoints, id, restores);
  if (cut === undefined) return `the conversation cut to where it stood at #${id}`;
  const { step, before, dropped, back } = cut;
  if (step.kind === 'turn') return `the conversation cut to before prompt ${quoted(step)}: ${turnsCut(cut)}`;
  if (before !== step) return `the conversation cut to before prompt ${quoted(before)}, whose turn ${checkpointTitle(step)} is in: ${turnsCut(cut)}`;
  return `the conversation cut to where it stood just before ${checkpointTitle(step)}: ${dropped > 0 ? `${turns(dropped)} after it dropped` : 'no later turn dropped'}${comingBack(back)}`;
}

/** The line the conversation-only mode adds about the files. */
export const FILES_UNTOUCHED = 'files untouched: they stay as they are now';
