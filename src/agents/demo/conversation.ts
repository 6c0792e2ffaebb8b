// The demo agent's conversation (src/demo/agent.ts): kept and resumed as Claude Code's, in the
// folder `rewind demo` gives it (REWIND_DEMO_CONFIG_DIR), or where the demo makes its own in
// the temp folder (src/demo/project.ts) when the app's environment does not say.
import os from 'node:os';
import path from 'node:path';
import type { ConversationSupport, TranscriptFolder } from '../agentAdapter.js';
import { claudeConversation } from '../claude/conversation.js';

/** `<config>/projects/<slug>/<session id>.jsonl`, the config folder as the demo agent finds it. */
export function demoTranscripts(env: NodeJS.ProcessEnv): TranscriptFolder {
  const own = (parts: readonly string[], session: string) => parts.length === 2 && parts[1] === `${session}.jsonl`;
  if (env.REWIND_DEMO_CONFIG_DIR) return { folder: path.join(path.resolve(env.REWIND_DEMO_CONFIG_DIR), 'projects'), names: own };
  // `rewind demo`: <tmp>/rewind-demo-<random>/demo-agent, or <tmp>/rewind-demo-agent-<uid> for a folder of the user's.
  const shared = `rewind-demo-agent-${process.getuid?.() ?? 'user'}`;
  return {
    folder: os.tmpdir(),
    names: (parts, session) =>
      (parts[0] === shared && parts[1] === 'projects' && own(parts.slice(2), session)) ||
      (/^rewind-demo-[^/]+$/.test(parts[0] ?? '') && parts[1] === 'demo-agent' && parts[2] === 'projects' && own(parts.slice(3), session)),
  };
}

/** Claude's transcripts and `--resume`, run as `node <its script> …`. */
export const demoConversation: ConversationSupport = {
  ...claudeConversation,
  // The script stays first (Claude's rules would take it for a prompt and drop it), and what
  // follows is resumed as Claude's arguments are.
  resumeArgs: (args, session) => [...args.slice(0, 1), ...claudeConversation.resumeArgs(args.slice(1), session)],
  transcripts: demoTranscripts,
  // Its folder is not Claude's: an imported demo conversation stays where it was kept.
  relocate: () => undefined,
};
