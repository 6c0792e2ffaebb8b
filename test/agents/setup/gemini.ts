// Gemini CLI, hermetic: its own GEMINI_CLI_HOME (config in <home>/.gemini) with API-key auth,
// telemetry, statistics and updates off, the project trusted, the fake model as its API, and
// hooks in that home's settings.json (a settings file Rewind would own, never the user's).
import fs from 'node:fs';
import path from 'node:path';
import { agentBin, baseEnv, invocation, type AgentSetup, type AgentWorld, type HookGroups } from '../world.js';

export const geminiApiKey = 'fake-gemini-key-for-offline-tests';

export interface GeminiOptions {
  hooks?: HookGroups;
  /** More environment for the agent (and so its hooks), e.g. REWIND_SOCKET; it wins over the setup's. */
  env?: Record<string, string>;
  /** For the TUI: `yolo` (default) approves every tool; `auto_edit` approves edits and asks before shell commands. */
  approvalMode?: 'yolo' | 'auto_edit';
  /** Gemini's own session cleanup on, as it is by default (off otherwise: see below). */
  sessionCleanup?: boolean;
}

export function geminiSetup(world: AgentWorld, options: GeminiOptions = {}): AgentSetup {
  const cliHome = path.join(world.agentDir, 'gemini');
  const configDir = path.join(cliHome, '.gemini');
  fs.mkdirSync(configDir, { recursive: true, mode: 0o700 });
  const settings = {
    security: { auth: { selectedType: 'gemini-api-key' } },
    // Gemini's own session cleanup (on by default) runs at each start and, once a resume in a
    // later minute than the session's file has left a file of one metadata line with the same
    // 8-character id, deletes both. Rewind removes that leftover at the resumed session's first
    // prompt (geminiResumeLeftover.test.ts, with the cleanup on); elsewhere it stays off, so a
    // run that resumes without a prompt (or without Rewind's hooks) keeps its sessions.
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false, sessionRetention: { enabled: options.sessionCleanup === true } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    ...(options.hooks ? { hooks: options.hooks } : {}),
  };
  fs.writeFileSync(path.join(configDir, 'settings.json'), JSON.stringify(settings, null, 2));
  fs.writeFileSync(path.join(configDir, 'trustedFolders.json'), JSON.stringify({ [world.root]: 'TRUST_FOLDER' }, null, 2));
  const env = {
    ...baseEnv(world),
    GEMINI_API_KEY: geminiApiKey,
    GOOGLE_GEMINI_BASE_URL: world.model.url,
    GEMINI_CLI_HOME: cliHome,
    ...options.env,
  };
  const bin = agentBin('gemini');
  // Without --yolo, -p does not even offer the write, edit and shell tools.
  return {
    configDirs: [cliHome],
    headless: (prompt) => invocation(world, bin, ['--yolo', '-p', prompt], env),
    interactive: (prompt) => invocation(world, bin, ['--approval-mode', options.approvalMode ?? 'yolo', ...(prompt === undefined ? [] : ['-i', prompt])], env),
  };
}
