// How Rewind adds its hooks to Gemini CLI without touching any file of the user's, as any
// user (docs/agents.md: the system-settings route works only for files whose every parent folder
// is root's). Gemini reads its user settings from `$GEMINI_CLI_HOME/.gemini/settings.json`,
// so Rewind runs it with a GEMINI_CLI_HOME of its own: a folder in Rewind's data folder
// whose `.gemini/` holds
// - settings.json: the user's own settings (read, never written) with Rewind's hooks added;
// - every other entry of the user's `.gemini/` (credentials, chats under tmp/, GEMINI.md,
//   commands, extensions…) as a symlink to it, so Gemini reads and writes them where it
//   always does;
// and trust decisions go to the user's own trustedFolders.json (GEMINI_CLI_TRUSTED_FOLDERS_PATH).
// The only things made outside Rewind's folder are the empty folders a bare Gemini run makes
// too (`.gemini/tmp`, `.gemini/history`), so that chats land where they always do.
// A file Gemini replaced inside Rewind's folder (it writes by rename, which replaces the
// link) stays there until the user's own copy is newer.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { homeDir, rewindHome } from '../../config/paths.js';
import { writeFileAtomic } from '../../shared/atomicFile.js';

/** The folders of `.gemini/` Gemini keeps its chats and history in. */
const stateFolders = ['tmp', 'history'];

export type GeminiSettings = Record<string, unknown> & { hooks?: Record<string, unknown> };

/** Where Gemini keeps its state for this environment: `$GEMINI_CLI_HOME/.gemini`, else `~/.gemini`. */
export function userGeminiDir(env: NodeJS.ProcessEnv): string {
  const home = env.GEMINI_CLI_HOME && env.GEMINI_CLI_HOME.length > 0 ? env.GEMINI_CLI_HOME : homeDir(env);
  return path.join(path.resolve(home), '.gemini');
}

/** Rewind's GEMINI_CLI_HOME for the user's Gemini folder `userDir` (one per such folder). */
export function rewindGeminiHome(env: NodeJS.ProcessEnv, userDir: string): string {
  const key = createHash('sha256').update(userDir).digest('hex').slice(0, 8);
  return path.join(rewindHome(env), 'agents', 'gemini', key);
}

/** Whether `userDir` is the `.gemini` of one of Rewind's own Gemini homes. */
function isRewindGeminiHome(env: NodeJS.ProcessEnv, userDir: string): boolean {
  const relative = path.relative(path.join(rewindHome(env), 'agents', 'gemini'), userDir);
  return !relative.startsWith('..') && !path.isAbsolute(relative) && relative.split(path.sep).length === 2;
}

/** JSON with comments (as Gemini reads its settings) as JSON: `//` and `/* *\/` outside strings removed. */
export function stripJsonComments(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] ?? '';
    if (inString) {
      out += char;
      if (char === '\\') out += text[++i] ?? '';
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
      out += char;
    } else if (char === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (char === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
      out += ' ';
    } else {
      out += char;
    }
  }
  return out;
}

/** The user's settings.json as an object ({} when there is none); throws, saying which file, when it is not one. */
export function readUserSettings(file: string): GeminiSettings {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = text.trim() === '' ? {} : (JSON.parse(stripJsonComments(text)) as unknown);
  } catch (error) {
    throw new Error(`${file} is not valid JSON (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`${file} is not a JSON object`);
  return parsed as GeminiSettings;
}

/** The entry of Rewind's folder at `ours` links to the user's `theirs`, unless a newer file of Gemini's own stands there. */
function linkEntry(ours: string, theirs: string): void {
  const current = fs.lstatSync(ours, { throwIfNoEntry: false });
  if (current?.isSymbolicLink() && fs.readlinkSync(ours) === theirs) return;
  if (current && !current.isSymbolicLink()) {
    // Gemini replaced the link while running in Rewind: its copy stands until the user's is newer.
    const user = fs.statSync(theirs, { throwIfNoEntry: false });
    if (current.isDirectory() || !user || user.mtimeMs <= current.mtimeMs) return;
  }
  // A link made aside and renamed over the entry: two sessions starting at once both succeed.
  const temp = `${ours}.${process.pid}.link`;
  fs.rmSync(temp, { force: true });
  fs.symlinkSync(theirs, temp);
  fs.renameSync(temp, ours);
}

/**
 * Makes (or brings up to date) Rewind's GEMINI_CLI_HOME for the user's Gemini folder: the
 * user's settings with `addHooks` applied, every other entry linked. Returns its path
 * (`already`: the environment's Gemini home is one of Rewind's, hooks included: a Rewind run
 * inside another). Writes only inside Rewind's own folder.
 */
export function prepareGeminiHome(env: NodeJS.ProcessEnv, addHooks: (user: GeminiSettings) => GeminiSettings): { home: string; userDir: string; already?: true } {
  const userDir = userGeminiDir(env);
  const home = rewindGeminiHome(env, userDir);
  if (isRewindGeminiHome(env, userDir)) return { home: path.dirname(userDir), userDir, already: true };
  const settings = addHooks(readUserSettings(path.join(userDir, 'settings.json')));
  const ours = path.join(home, '.gemini');
  fs.mkdirSync(ours, { recursive: true, mode: 0o700 });
  fs.chmodSync(home, 0o700);
  fs.chmodSync(ours, 0o700);
  // The folders Gemini keeps chats and history in are made where a bare run makes them, so
  // they are linked from the start (files in them are Gemini's own; none is written here).
  for (const name of stateFolders) fs.mkdirSync(path.join(userDir, name), { recursive: true, mode: 0o700 });
  const entries = fs.readdirSync(userDir);
  for (const name of entries) {
    if (name === 'settings.json') continue;
    linkEntry(path.join(ours, name), path.join(userDir, name));
  }
  // A link whose target the user removed goes too (Gemini would find a dangling entry).
  for (const name of fs.readdirSync(ours)) {
    const entry = path.join(ours, name);
    if (name !== 'settings.json' && fs.lstatSync(entry).isSymbolicLink() && !entries.includes(name)) fs.rmSync(entry, { force: true });
  }
  // Beside .gemini, Gemini reads the user's skills from ~/.agents.
  const agents = path.join(path.dirname(userDir), '.agents');
  if (fs.existsSync(agents)) linkEntry(path.join(home, '.agents'), agents);
  else if (fs.lstatSync(path.join(home, '.agents'), { throwIfNoEntry: false })?.isSymbolicLink()) fs.rmSync(path.join(home, '.agents'));
  writeFileAtomic(path.join(ours, 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`, 0o600, false);
  return { home, userDir };
}
