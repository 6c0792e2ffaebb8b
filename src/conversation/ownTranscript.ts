// Which transcript a hook payload may have kept: the agent's own, of the session the payload
// names, in the folder where the agent keeps its transcripts. A payload is untrusted: any
// other path it names (a system file, another user's, a link out of that folder) is not read.
import path from 'node:path';
import type { TranscriptFolder } from '../agents/agentAdapter.js';
import { TranscriptRefused } from './transcriptFile.js';
import { realPathOf } from '../shared/realPath.js';

/**
 * The real path of `file` when it is in `where` and named as session `session`'s own
 * transcript; throws TranscriptRefused saying why when it is not. Only the path is judged
 * here: the file itself is checked as it is opened (openTranscript).
 */
export function ownTranscript(file: string, where: TranscriptFolder, session: string | undefined): string {
  const real = path.join(realPathOf(path.dirname(file)), path.basename(file));
  const relative = path.relative(realPathOf(where.folder), real);
  const parts = relative.split(path.sep);
  if (relative === '' || path.isAbsolute(relative) || parts[0] === '..') throw new TranscriptRefused(file, `is not in the agent's transcript folder (${where.folder})`);
  if (!session) throw new TranscriptRefused(file, 'is named by a payload that gives no session id');
  if (!where.names(parts, session)) throw new TranscriptRefused(file, `is not named as session ${session}'s transcript`);
  return real;
}
