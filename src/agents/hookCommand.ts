import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rewindHome } from '../config/paths.js';
import { writeFileAtomic } from '../shared/atomicFile.js';
import { shellWord } from '../shared/shellWord.js';

/** The hook client as the package ships it (src/hooks/rewind-hook.sh, copied beside the CLI by the build). */
export function packagedHookScript(): string {
  return fileURLToPath(new URL('../hooks/rewind-hook.sh', import.meta.url));
}

/**
 * The hook command an agent's settings name: `sh <script> <agent> <event>`. The same on
 * every run (Codex trusts hooks by a hash of their definition); what differs per run (the
 * app's channel) travels in the environment (REWIND_SOCKET).
 */
export function hookCommand(agent: string, event: string, script = packagedHookScript()): string {
  return `sh ${shellWord(script)} ${agent} ${event}`;
}

/**
 * The hook client installed at `$REWIND_HOME/hooks/rewind-hook.sh`, a path that does not move
 * with the package (an upgrade, another prefix, an npx cache, another Node), so the agents'
 * hook definitions, and Codex's trust in them, stay the same. Rewritten only when its content
 * changes; the copy runs this package's CLI when no app answers. Where it cannot be written
 * (a store home this user may not write), the packaged script is named instead.
 */
export function installedHookScript(env: NodeJS.ProcessEnv): string {
  const packaged = packagedHookScript();
  const installed = hookScriptPath(env);
  try {
    const content = hookScriptContent();
    if (readOrUndefined(installed) !== content) {
      fs.mkdirSync(path.dirname(installed), { recursive: true, mode: 0o700 });
      writeFileAtomic(installed, content, 0o700);
    }
    return installed;
  } catch {
    return packaged;
  }
}

/** Where the hook client is installed: `$REWIND_HOME/hooks/rewind-hook.sh`. */
export function hookScriptPath(env: NodeJS.ProcessEnv): string {
  return path.join(rewindHome(env), 'hooks', 'rewind-hook.sh');
}

/** The installed client's content: the packaged one, running this package's CLI. */
function hookScriptContent(): string {
  const packaged = packagedHookScript();
  const cli = path.resolve(path.dirname(packaged), '..', 'cli.js');
  return fs.readFileSync(packaged, 'utf8').replaceAll('"$here/../cli.js"', shellWord(cli));
}

/** Whether the installed client is this package's (`current`), another's (`other`: the next session rewrites it) or not there. */
export function hookScriptState(env: NodeJS.ProcessEnv): 'current' | 'other' | 'missing' {
  const installed = readOrUndefined(hookScriptPath(env));
  if (installed === undefined) return 'missing';
  return installed === hookScriptContent() ? 'current' : 'other';
}

function readOrUndefined(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
