// Codex, hermetic: its own CODEX_HOME whose config.toml names the fake model as a Responses
// provider, trusts the project, and checks for no updates; hooks come as per-run `-c hooks.…`
// overrides (no config file of the user's is edited). Codex skips hooks nobody has trusted:
// a test either passes --dangerously-bypass-hook-trust or runs them untrusted on purpose.
import fs from 'node:fs';
import path from 'node:path';
import { agentBin, baseEnv, invocation, type AgentSetup, type AgentWorld, type HookGroups } from '../world.js';

export interface CodexOptions {
  hooks?: HookGroups;
  /** More environment for the agent (and so its hooks), e.g. REWIND_SOCKET; it wins over the setup's. */
  env?: Record<string, string>;
  /** `bypass`: pass --dangerously-bypass-hook-trust (tests only: Rewind never does it for a user); `review`: leave trust to Codex. */
  hookTrust?: 'bypass' | 'review';
}

/** TOML for `value` (JSON strings are valid TOML basic strings; objects become inline tables). */
export function toToml(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(toToml).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{ ${Object.entries(value).filter(([, field]) => field !== undefined).map(([key, field]) => `${key} = ${toToml(field)}`).join(', ')} }`;
  }
  return JSON.stringify(value);
}

/** The per-run overrides carrying `hooks`. */
export function codexHookOverrides(hooks: HookGroups): string[] {
  return Object.entries(hooks).flatMap(([event, groups]) => ['-c', `hooks.${event}=${toToml(groups)}`]);
}

export function codexSetup(world: AgentWorld, options: CodexOptions = {}): AgentSetup {
  const codexHome = path.join(world.agentDir, 'codex');
  fs.mkdirSync(codexHome, { recursive: true });
  const config = [
    // A model Codex knows: an unknown one gets no apply_patch tool.
    'model = "gpt-5.5"',
    'model_provider = "fake"',
    'approval_policy = "never"',
    'sandbox_mode = "workspace-write"',
    'check_for_update_on_startup = false',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[features]',
    // Plugin sync reaches chatgpt.com and github.com.
    'plugins = false',
    '',
    '[model_providers.fake]',
    'name = "fake"',
    `base_url = ${JSON.stringify(`${world.model.url}/v1`)}`,
    'env_key = "FAKE_OPENAI_API_KEY"',
    'wire_api = "responses"',
    '',
    // First-run screens, answered: the model-upgrade offer and the tips that fetch from GitHub.
    '[notice.model_migrations]',
    '"gpt-5.5" = "gpt-6-sol"',
    '',
    '[tui]',
    'show_tooltips = false',
    '',
    `[projects.${JSON.stringify(world.root)}]`,
    'trust_level = "trusted"',
    '',
  ].join('\n');
  // Written once per world: Codex keeps its own state there too (hook trust, notices), which a
  // second setup in the same world (other hooks, same home) must find.
  if (!fs.existsSync(path.join(codexHome, 'config.toml'))) fs.writeFileSync(path.join(codexHome, 'config.toml'), config);
  const env = { ...baseEnv(world), CODEX_HOME: codexHome, FAKE_OPENAI_API_KEY: 'fake-openai-key-for-offline-tests', ...options.env };
  const hookArgs = options.hooks ? codexHookOverrides(options.hooks) : [];
  const trust = options.hooks && (options.hookTrust ?? 'bypass') === 'bypass' ? ['--dangerously-bypass-hook-trust'] : [];
  const bin = agentBin('codex');
  return {
    configDirs: [codexHome],
    // `codex exec` reads stdin when it is not a terminal: run it with stdin from /dev/null.
    headless: (prompt) => invocation(world, bin, ['exec', ...hookArgs, ...trust, prompt], env),
    // Without --no-daemon the TUI leaves a background app-server behind that breaks the next run.
    interactive: (prompt) => invocation(world, bin, ['--no-daemon', ...hookArgs, ...trust, ...(prompt === undefined ? [] : [prompt])], env),
  };
}
