// What the agent is told after the user put its files back without its conversation: it still
// remembers its edits since, and would build on files that are gone. One short note, at its
// next prompt, through its prompt hook (the adapter's promptNote); the user is asked to say
// it to an agent without one.
import { genericAgent } from '../agents/generic.js';
import type { ProjectCheckpoints, RedoResult, RestoreResult } from '../checkpoints/index.js';
import { oneLine } from '../shared/format.js';
import type { AdapterGuard } from '../agents/adapterGuard.js';

/** A note waiting for the agent's next prompt. */
export interface RestoreNote {
  /** What the agent's model is given. */
  text: string;
  /** What the status line says once it is given. */
  told: string;
  /** The files restore it is about: its checkpoint and redo point (an undo of it is told too, once this note was given). */
  about?: RestoreTold;
}

/** A files restore the agent is told of: the checkpoint it put back, and its redo point (what an undo pops). */
export interface RestoreTold {
  checkpoint: number;
  redo: number | null;
  /** It was a revert of checkpoint `checkpoint`'s step, not a restore to it. */
  reverted?: boolean;
  /** The step as the user's notices name it (`“Edit a.txt”`); by its id when not given. */
  name?: string;
}

/** How many files a note names (the rest are counted). */
const namedFiles = 3;

/**
 * The one note waiting per session, keyed by the session's agent guard: the picker and the
 * session's hook calls share it, and nothing else does.
 */
const waiting = new WeakMap<AdapterGuard, RestoreNote>();
/** The files restore the agent was last told of, while nothing since made that note untrue. */
const given = new WeakMap<AdapterGuard, RestoreTold>();

function shortText(text: string, max: number): string {
  const line = oneLine(text).trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** `a.txt, b.txt, c.txt and 4 more`: a few names, then a count. */
function someFiles(files: readonly string[]): string {
  const named = files.slice(0, namedFiles).map((file) => shortText(file, 80));
  return files.length > namedFiles ? `${named.join(', ')} and ${files.length - namedFiles} more` : named.join(', ');
}

/**
 * The note for a files-only restore of checkpoint `id` (labelled `label`: the step it was
 * taken before) that wrote `changed` and deleted `deleted`; undefined when it changed no file
 * (the agent's picture of the files still holds). `name`: the step as the user's notices name it.
 */
export function restoreNoteOf(id: number, label: string | undefined, result: Pick<RestoreResult, 'changed' | 'deleted'>, name?: string, partial = false): RestoreNote | undefined {
  const files = [...result.changed, ...result.deleted];
  if (files.length === 0) return undefined;
  const named = label ? ` ("${shortText(label, 60)}")` : '';
  const count = `${files.length} file${files.length === 1 ? '' : 's'}`;
  const gone = result.deleted.length;
  const removed = gone === 0 ? '' : gone === files.length && gone === 1 ? ' (removed: it did not exist then)' : ` (${gone} removed: ${gone === 1 ? 'it' : 'they'} did not exist then)`;
  return {
    text: `Note from Rewind: the user restored ${partial ? "some of the project's files (those they ticked)" : "the project's files"} to checkpoint #${id}${named}, keeping this conversation. ${count} put back: ${someFiles(files)}${removed}. Your edits ${partial ? 'to them ' : ''}after that are gone${partial ? '; the other files are as you left them' : ''}; re-read files before relying on them.`,
    told: `told the agent ${partial ? `${files.length} of its files ${files.length === 1 ? 'is' : 'are'}` : 'its files are'} back to ${name ? `just before ${name}` : `#${id}`} (${count}: ${someFiles(files)}): its edits ${partial ? 'to them ' : ''}after that are gone`,
  };
}

/**
 * The note for a revert of the step of checkpoint `id` (labelled `label`) that wrote
 * `changed` and deleted `deleted`: that one step's edits are taken back, the later ones kept.
 */
export function revertNoteOf(id: number, label: string | undefined, result: Pick<RestoreResult, 'changed' | 'deleted'>, marked: readonly string[] = [], name?: string): RestoreNote | undefined {
  const files = [...result.changed, ...result.deleted];
  if (files.length === 0) return undefined;
  const named = label ? ` ("${shortText(label, 60)}")` : '';
  const count = `${files.length} file${files.length === 1 ? '' : 's'}`;
  const markers = marked.length > 0 ? ` ${someFiles(marked)} now hold${marked.length === 1 ? 's' : ''} git conflict markers (your later lines and the lines from before that step) to resolve.` : '';
  return {
    text: `Note from Rewind: the user took back one earlier step of yours, the one after checkpoint #${id}${named}, keeping this conversation and the later steps. ${count} changed: ${someFiles(files)}. What that step did to them is undone.${markers} Re-read files before relying on them.`,
    told: `told the agent ${name ?? `the step of #${id}`} was taken back (${count}: ${someFiles(files)})`,
  };
}

/**
 * The note for an undo of the files restore (or revert) of checkpoint `id` the agent was
 * told of: the files that undo wrote and deleted are as they were before it, its edits with them.
 */
export function undoNoteOf(id: number, result: Pick<RestoreResult, 'changed' | 'deleted'> & { changedSince?: readonly string[] }, reverted = false, name?: string): RestoreNote | undefined {
  const files = [...result.changed, ...result.deleted];
  if (files.length === 0) return undefined;
  const count = `${files.length} file${files.length === 1 ? '' : 's'}`;
  const what = reverted ? `the revert of the step of #${id}` : `the restore to checkpoint #${id}`;
  // Whatever changed after that restore (its edits since, the user's) is as it was before the restore too.
  const since = result.changedSince ?? [];
  const later = since.length > 0 ? ` What was changed since that ${reverted ? 'revert' : 'restore'} in ${someFiles(since)} is gone too.` : '';
  return {
    text: `Note from Rewind: the user undid ${what} you were told of: the project's files are back as they were before it, your edits ${since.length > 0 ? 'from before it ' : ''}included. ${count} changed back: ${someFiles(files)}.${later} Re-read files before relying on them.`,
    told: `told the agent ${reverted ? `the revert of ${name ?? `#${id}`}` : name ? `the rewind to just before ${name}` : `the restore to #${id}`} was undone (${count}: ${someFiles(files)}): ${since.length > 0 ? `its edits from before it are back, the changes since to ${someFiles(since)} gone` : 'its edits are back'}`,
  };
}

/**
 * After a files-only restore of checkpoint `id` in the app (`name`: its step as the notices
 * name it; `partial`: of the files the user ticked only): the agent is told at its next
 * prompt (replacing a note not yet given), and the user hears it then. For an agent with
 * no prompt hook it returns what the restore's notice says after what it did: what to tell
 * the agent ('' otherwise, and when it changed no file).
 */
export function filesRestored(agent: AdapterGuard, engine: Pick<ProjectCheckpoints, 'get'>, id: number, result: Pick<RestoreResult, 'changed' | 'deleted' | 'redo'>, name?: string, partial = false): string {
  return tell(agent, restoreNoteOf(id, labelOf(engine, id), result, name, partial), { checkpoint: id, redo: result.redo, ...(name ? { name } : {}) }, partial ? 'its edits to those files after it are gone' : 'its edits after it are gone');
}

/** After a revert of checkpoint `id`'s step in the app: as filesRestored, with the revert's note. */
export function filesReverted(agent: AdapterGuard, engine: Pick<ProjectCheckpoints, 'get'>, id: number, result: Pick<RestoreResult, 'changed' | 'deleted' | 'redo'>, marked: readonly string[] = [], name?: string): string {
  return tell(agent, revertNoteOf(id, labelOf(engine, id), result, marked, name), { checkpoint: id, redo: result.redo, reverted: true, ...(name ? { name } : {}) }, name ? `that ${name} was taken back` : `the step of #${id} was taken back`);
}

function labelOf(engine: Pick<ProjectCheckpoints, 'get'>, id: number): string | undefined {
  try {
    return engine.get(id).label || undefined;
  } catch {
    // The note goes without the step's name.
    return undefined;
  }
}

/**
 * `note` waits for the agent's next prompt (`about`: the restore it tells of, which a later
 * undo may take back); for an agent with no prompt hook, what to tell it instead.
 */
function tell(agent: AdapterGuard, note: RestoreNote | undefined, about: RestoreTold | undefined, what: string): string {
  if (!note) return '';
  given.delete(agent);
  if (agent.adapter.promptNote === undefined) {
    waiting.delete(agent);
    // Any other command is no agent Rewind knows by name.
    return ` (tell ${agent.name === genericAgent.name ? 'the agent' : agent.name} ${what})`;
  }
  waiting.set(agent, { ...note, told: note.told.replace('the agent', agent.name), ...(about ? { about } : {}) });
  return '';
}

/** A restore that cut the conversation back too: a note not yet given no longer holds, nor one given. */
export function dropRestoreNote(agent: AdapterGuard): void {
  waiting.delete(agent);
  given.delete(agent);
}

/**
 * An undo of the last restore (Esc Esc → undo, /redo): a note not yet given is dropped (the
 * agent never heard of that restore); if the agent was told of the files restore this undid,
 * it is told of the undo at its next prompt; if not, and the undo took back changes made
 * since that restore, it is told those are gone. For an agent with no prompt hook, what the
 * undo's notice asks the user to tell it ('' otherwise).
 */
export function restoreUndone(agent: AdapterGuard, result: Pick<RedoResult, 'undid' | 'changed' | 'deleted'> & Partial<Pick<RedoResult, 'changedSince'>>): string {
  const pending = waiting.get(agent);
  const told = given.get(agent);
  waiting.delete(agent);
  given.delete(agent);
  if (pending !== undefined) return '';
  // The agent heard of the restore this undid (its redo point is the one popped), and of nothing since.
  if (told !== undefined && told.redo === result.undid) return tell(agent, undoNoteOf(told.checkpoint, result, told.reverted === true, told.name), undefined, 'its edits are back');
  // A rewind it was not told of (one that cut its conversation too, say): what changed since, its work perhaps, is gone.
  const since = result.changedSince ?? [];
  if (since.length === 0) return '';
  const gone = `the changes since the rewind to ${someFiles(since)} are gone`;
  const note = {
    text: `Note from Rewind: the user undid a rewind of the project's files: they are back as they were before it. What was changed since that rewind in ${someFiles(since)} is gone (your edits there included). Re-read files before relying on them.`,
    told: `told the agent ${gone}`,
  };
  return tell(agent, note, undefined, gone);
}

/**
 * At hook call `event`: the note waiting for this agent, as its hook's stdout, if this event
 * can carry it (its prompt); taken, so it is given once. Through the guard: an adapter failing
 * here gives nothing, and the note waits for the next prompt.
 */
export function takeRestoreNote(agent: AdapterGuard, event: string): { stdout: string; told: string } | undefined {
  const note = waiting.get(agent);
  if (!note) return undefined;
  const stdout = agent.call('a restore note', (adapter) => adapter.promptNote?.(event, note.text), () => undefined);
  if (stdout === undefined) return undefined;
  waiting.delete(agent);
  if (note.about) given.set(agent, note.about);
  else given.delete(agent);
  return { stdout, told: note.told };
}
