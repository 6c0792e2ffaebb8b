// `rewind import`: an export file read and checked whole (archive.ts, manifest.ts), then its
// checkpoints added through the engine and its conversations kept by layer 2, once the
// bundle is known good; a file that is not right changes nothing.
import type { ImportResult, ProjectCheckpoints, TransferredCheckpoint } from '../../checkpoints/index.js';
import { conversationStoreOf } from '../../conversation/conversationRestore.js';
import { conversationRefs, keepConversations, prepareConversations, type PreparedConversations } from '../../conversation/conversationTransfer.js';
import { UserError } from '../../shared/errors.js';
import { readArchive } from './archive.js';
import { conversationSection } from './exportSession.js';
import { readManifest, type ExportManifest } from './manifest.js';

/** An export file, read and checked: its manifest, bundle and conversation files. */
export interface ExportFile {
  manifest: ExportManifest;
  bundle: Buffer;
  conversations: Map<string, Buffer>;
}

/** The parts of an export file's bytes (`where`: the file as named), or a one-line UserError. */
export function readExportFile(data: Buffer, where: string): ExportFile {
  const sections = readArchive(data, where);
  const named = new Map(sections.map((section) => [section.name, section.bytes]));
  const manifest = readManifest(named.get('manifest.json'), where);
  const bundle = named.get('checkpoints.bundle');
  if (!bundle) throw new UserError(`${where} holds no checkpoints bundle: nothing was imported`);
  const conversations = new Map(sections.filter((section) => section.name.startsWith(conversationSection)).map((section) => [section.name.slice(conversationSection.length), section.bytes]));
  return { manifest, bundle, conversations };
}

/** The entries with their conversations named as kept here. */
function renamedEntries(entries: readonly TransferredCheckpoint[], prepared: PreparedConversations | undefined): TransferredCheckpoint[] {
  return entries.map((entry) => {
    const point = entry.conversation && typeof entry.conversation.point === 'string' ? prepared?.renamed.get(entry.conversation.point) : undefined;
    return { ...entry, conversation: point && entry.conversation ? { ...entry.conversation, point } : null };
  });
}

/** What an import did, and how many conversations of the file had no place here (their checkpoints came with files only). */
export type SessionImport = ImportResult & { conversationsLeftOut: number };

/** Adds the checkpoints of `file` this project has not got yet, with their conversations when the file holds them. */
export async function importSession(checkpoints: ProjectCheckpoints, file: ExportFile, where: string, env: NodeJS.ProcessEnv): Promise<SessionImport> {
  const { manifest } = file;
  const prepared = manifest.conversation ? prepareConversations(file.conversations, conversationRefs(manifest.checkpoints.map((entry) => entry.conversation)), checkpoints.projectRoot, env, where) : undefined;
  const entries = renamedEntries(manifest.checkpoints, prepared);
  const result = await checkpoints.importCheckpoints(file.bundle, entries, where, () => {
    if (prepared) keepConversations(conversationStoreOf(checkpoints), prepared);
  });
  return { ...result, conversationsLeftOut: result.added.length > 0 ? (prepared?.homeless ?? 0) : 0 };
}
