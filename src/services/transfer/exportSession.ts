// `rewind export`: checkpoints, their list entries and (asked for) their conversations,
// written as one file (archive.ts): the engine makes the bundle, layer 2 gives the captures.
import path from 'node:path';
import type { ProjectCheckpoints } from '../../checkpoints/index.js';
import { conversationStoreOf } from '../../conversation/conversationRestore.js';
import { exportConversations } from '../../conversation/conversationTransfer.js';
import { writeArchive, type Section } from './archive.js';
import { writeManifest, type ExportManifest } from './manifest.js';

/** The sections under which an export keeps conversation captures (`conversation/points/…`). */
export const conversationSection = 'conversation/';

/**
 * The file's bytes for checkpoints `from`..`to`; with `conversation`, the conversation
 * captures they name too (without it no transcript byte is in it, and the entries name none).
 */
export async function exportSession(checkpoints: ProjectCheckpoints, from: number, to: number, conversation: boolean): Promise<{ data: Buffer; manifest: ExportManifest }> {
  const exported = await checkpoints.exportRange(from, to);
  const entries = conversation ? exported.checkpoints : exported.checkpoints.map((entry) => ({ ...entry, conversation: null }));
  const captures = conversation ? exportConversations(conversationStoreOf(checkpoints), entries) : [];
  const manifest: ExportManifest = { format: 'rewind-export', created: new Date().toISOString(), project: path.basename(checkpoints.projectRoot), conversation, checkpoints: entries };
  const sections: Section[] = [
    { name: 'manifest.json', bytes: writeManifest(manifest) },
    { name: 'checkpoints.bundle', bytes: exported.bundle },
    ...captures.map((file) => ({ name: `${conversationSection}${file.name}`, bytes: file.bytes })),
  ];
  return { data: writeArchive(sections), manifest };
}
