// Claude Code, hermetic: its own CLAUDE_CONFIG_DIR with the first-run screens pre-accepted,
// the fake model as its API, no telemetry or updates, hooks passed with `--settings`.
import fs from 'node:fs';
import path from 'node:path';
import { agentBin, baseEnv, invocation, type AgentSetup, type AgentWorld, type HookGroups } from '../world.js';

export const claudeApiKey = 'sk-ant-fake-key-for-offline-tests-0123456789';
export interface ClaudeOptions {
  hooks?: HookGroups;
  /** More environment for the agent (and so its hooks), e.g. REWIND_SOCKET; it wins over the setup's. */
  env?: Record<string, string>;
  /** The tools it may use without asking (default all three the script uses); others ask first. */
  allowedTools?: string[];
}

export function claudeSetup(world: AgentWorld, options: ClaudeOptions = {}): AgentSetup {
  // Root may not bypass permissions (without IS_SANDBOX=1): allow the script's tools by name.
  // The permission mode is explicit: newer releases (2.1.332) start their TUI in `auto` mode.
  const permissionArgs = ['--permission-mode', 'default', '--allowedTools', (options.allowedTools ?? ['Write', 'Edit', 'Bash']).join(',')];
  const configDir = path.join(world.agentDir, 'claude');
  fs.mkdirSync(configDir, { recursive: true });
  const state = {
    hasCompletedOnboarding: true,
    theme: 'dark',
    projects: { [world.root]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
    customApiKeyResponses: { approved: [claudeApiKey.slice(-20)], rejected: [] },
  };
  fs.writeFileSync(path.join(configDir, '.claude.json'), JSON.stringify(state, null, 2));
  fs.writeFileSync(path.join(configDir, 'settings.json'), JSON.stringify({ skipDangerousModePermissionPrompt: true }, null, 2));
  const env = {
    ...baseEnv(world),
    ANTHROPIC_BASE_URL: world.model.url,
    ANTHROPIC_API_KEY: claudeApiKey,
    CLAUDE_CONFIG_DIR: configDir,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    // Interactive runs fetch the official plugin marketplace (downloads.claude.ai, then github.com).
    CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: '1',
    ...options.env,
  };
  const settings = options.hooks ? ['--settings', JSON.stringify({ hooks: options.hooks })] : [];
  const bin = agentBin('claude');
  return {
    configDirs: [configDir],
    headless: (prompt) => invocation(world, bin, ['-p', prompt, ...permissionArgs, ...settings], env),
    interactive: (prompt) => invocation(world, bin, [...permissionArgs, ...settings, ...(prompt === undefined ? [] : [prompt])], env),
  };
}
