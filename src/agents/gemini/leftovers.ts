// Gemini CLI 0.61 starts every session in a new file named for the minute it starts
// (`session-<minute>-<first 8 of the id>.jsonl`: its metadata, and in a headless run its own
// context message), and a resumed session only then moves to its own file. Resumed in a
// later minute than that file's name, it leaves the first file behind, named with the same 8
// characters. Its session cleanup (on by default) takes that file for an abandoned session at
// the next start and deletes every file with those 8 characters: the resumed session, and
// all that was said in it since. Rewind resumes sessions (each conversation restore), so once
// a prompt shows the session at work in its own file, those leftovers go.
import fs from 'node:fs';
import path from 'node:path';
import { nothingToResume } from './transcript.js';
import { field } from '../payload.js';

/** A leftover holds Gemini's metadata and its context message, a few KB; anything bigger is not one. */
const leftoverMaxBytes = 1024 * 1024;

/** Whether `file` holds nothing of `session` that Gemini would resume (empty, or its metadata and context only). */
function holdsNothingOf(file: string, session: string): boolean {
  const stat = fs.statSync(file);
  if (!stat.isFile() || stat.size > leftoverMaxBytes) return false;
  return stat.size === 0 || nothingToResume(fs.readFileSync(file), session);
}

/**
 * Removes the files a resume left beside the session's own (`transcript_path` of a hook's
 * payload): same chats folder, same 8 characters, nothing in it that Gemini would resume. Returns
 * the names removed. Never throws: a file it cannot read or judge stays.
 */
export function dropResumeLeftovers(payload: unknown): string[] {
  const transcript = field(payload, 'transcript_path');
  const session = field(payload, 'session_id');
  if (!transcript || !path.isAbsolute(transcript) || !session || session.length < 8) return [];
  const dir = path.dirname(transcript);
  const own = path.basename(transcript);
  const suffix = `-${session.slice(0, 8)}.jsonl`;
  let names: string[];
  try {
    if (!fs.statSync(transcript).isFile()) return [];
    names = fs.readdirSync(dir).filter((name) => name.startsWith('session-') && name.endsWith(suffix) && name !== own);
  } catch {
    return [];
  }
  const dropped: string[] = [];
  for (const name of names) {
    try {
      if (!holdsNothingOf(path.join(dir, name), session)) continue;
      fs.rmSync(path.join(dir, name));
      dropped.push(name);
    } catch {
      // Unreadable, not JSON, gone meanwhile: not a leftover we can vouch for.
    }
  }
  return dropped;
}
