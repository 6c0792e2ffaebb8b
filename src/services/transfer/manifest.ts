// manifest.json, the section of an export that says what it holds: the checkpoints' list
// entries (transferTypes.ts in the engine), read back field by field (a file from elsewhere
// is never trusted to put other keys in this project's list).
import type { TransferredCheckpoint } from '../../checkpoints/index.js';
import { UserError } from '../../shared/errors.js';

export interface ExportManifest {
  format: 'rewind-export';
  /** When it was written. */
  created: string;
  /** The exporting project's folder name. */
  project: string;
  /** Whether the conversations of its checkpoints are in it (`--conversation`). */
  conversation: boolean;
  checkpoints: TransferredCheckpoint[];
}

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);
const isOid = (value: unknown): value is string => typeof value === 'string' && /^[0-9a-f]{40}$/.test(value);
const isId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
const isText = (value: unknown): value is string => typeof value === 'string';
const textOrNull = (value: unknown): value is string | null => value === null || typeof value === 'string';
const texts = (value: unknown): value is string[] => Array.isArray(value) && value.every(isText);

/**
 * Text from another machine as this one prints it: control characters (an escape sequence
 * that would move the cursor or recolour the terminal in `rewind list`) made U+FFFD; tabs
 * and newlines stay, as in labels taken here.
 */
function plain(text: string): string {
  const control = (code: number) => (code < 0x20 && code !== 0x09 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f);
  return Array.from(text, (character) => (control(character.charCodeAt(0)) ? '\ufffd' : character)).join('');
}

const plainOrNull = (text: string | null) => (text === null ? null : plain(text));

/** One checkpoint entry, with only the fields a list entry has; undefined when one is not as written. */
function checkpointOf(value: unknown, conversation: boolean): TransferredCheckpoint | undefined {
  if (!isObject(value) || !isObject(value.origin)) return undefined;
  const { origin } = value;
  // Its time becomes a commit's date (fork --branch, export again): a date, or no entry.
  if (!isId(value.id) || !isOid(value.commit) || !isOid(value.tree) || !isText(value.time) || Number.isNaN(Date.parse(value.time)) || !isText(value.trigger) || !isText(value.label)) return undefined;
  if (!textOrNull(value.session) || !textOrNull(value.agent) || !textOrNull(value.projectHead) || !isText(origin.from) || !isId(origin.id) || !isOid(origin.commit)) return undefined;
  if (!Array.isArray(value.skipped) || !texts(value.nested) || !(value.changedSincePrevious === null || typeof value.changedSincePrevious === 'number')) return undefined;
  const ref = value.conversation;
  const keepsConversation = conversation && isObject(ref) && isText(ref.agent);
  if (ref !== null && !isObject(ref)) return undefined;
  const changes = value.changes;
  return {
    id: value.id,
    commit: value.commit,
    tree: value.tree,
    time: value.time,
    session: plainOrNull(value.session),
    agent: plainOrNull(value.agent),
    ...(isText(value.agentSession) ? { agentSession: plain(value.agentSession) } : {}),
    trigger: plain(value.trigger),
    label: plain(value.label),
    deduped: value.deduped === true,
    changedSincePrevious: value.changedSincePrevious,
    ...(texts(value.changedPaths) ? { changedPaths: value.changedPaths.map(plain) } : {}),
    ...(isObject(changes) && [changes.added, changes.modified, changes.deleted].every((n) => typeof n === 'number') ? { changes: { added: changes.added as number, modified: changes.modified as number, deleted: changes.deleted as number } } : {}),
    skipped: (value.skipped as unknown[])
      .filter((file): file is TransferredCheckpoint['skipped'][number] => isObject(file) && isText(file.path) && typeof file.bytes === 'number' && isText(file.reason))
      .map((file) => ({ ...file, path: plain(file.path), reason: plain(file.reason) })),
    nested: value.nested.map(plain),
    projectHead: value.projectHead,
    conversation: keepsConversation ? (ref as TransferredCheckpoint['conversation']) : null,
    origin: { from: plain(origin.from), id: origin.id, commit: origin.commit },
  };
}

/** The manifest's bytes. */
export function writeManifest(manifest: ExportManifest): Buffer {
  return Buffer.from(`${JSON.stringify(manifest, null, 1)}\n`);
}

/** The manifest of an export (`where`: the file as the user named it), or a one-line UserError. */
export function readManifest(bytes: Buffer | undefined, where: string): ExportManifest {
  const bad = (what: string) => new UserError(`${where} is not an export rewind can read (${what}): nothing was imported`);
  if (!bytes) throw bad('it has no manifest');
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw bad('its manifest is not JSON');
  }
  if (!isObject(value) || value.format !== 'rewind-export' || !Array.isArray(value.checkpoints)) throw bad('its manifest is not one');
  const conversation = value.conversation === true;
  const checkpoints = (value.checkpoints as unknown[]).map((entry) => checkpointOf(entry, conversation));
  const broken = checkpoints.findIndex((entry) => entry === undefined);
  if (broken >= 0) throw bad(`its checkpoint entry ${broken + 1} is not one`);
  if (checkpoints.length === 0) throw bad('it holds no checkpoint');
  return { format: 'rewind-export', created: isText(value.created) ? value.created : '', project: isText(value.project) ? plain(value.project) : '', conversation, checkpoints: checkpoints as TransferredCheckpoint[] };
}
