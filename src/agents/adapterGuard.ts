import type { AgentAdapter, Launch } from './agentAdapter.js';
import { filesOnly, genericAgent } from './generic.js';
import { messageOf, UserError } from '../shared/errors.js';
import type { ModeState, RestoreMode } from '../shared/restoreModes.js';

/** How long an adapter's call may take before the runtime goes on without it. */
const adapterTimeoutMs = 2_000;

/**
 * Every call into an agent adapter goes through here: a call that throws, or (async) does
 * not answer in time, gives the generic agent's answer instead and is said once, so an
 * adapter can never break a session or a restore of files (layer 2 never breaks layer 1).
 */
export class AdapterGuard {
  private said = false;

  constructor(
    readonly adapter: AgentAdapter,
    private readonly report: (message: string) => void,
  ) {}

  get name(): string {
    return this.adapter.name;
  }

  private failed(what: string, error: unknown): void {
    if (this.said) return;
    this.said = true;
    this.report(`the ${this.adapter.name} agent support failed (${what}: ${messageOf(error)}): going on as for any command`);
  }

  /** Runs a synchronous adapter call; on a throw, the generic agent's answer (`fallback` also gets the error). */
  call<T>(what: string, run: (adapter: AgentAdapter) => T, fallback: (generic: AgentAdapter, error: unknown) => T): T {
    try {
      return run(this.adapter);
    } catch (error) {
      this.failed(what, error);
      return fallback(genericAgent, error);
    }
  }

  /** Runs an asynchronous adapter call with a deadline; on a throw or a timeout, `fallback`. */
  async callAsync<T>(what: string, run: (adapter: AgentAdapter) => Promise<T>, fallback: T, timeoutMs = adapterTimeoutMs): Promise<T> {
    try {
      return await this.withDeadline(run, timeoutMs);
    } catch (error) {
      this.failed(what, error);
      return fallback;
    }
  }

  /**
   * Runs an adapter call that the user waits on (a restore): its failure or silence past
   * `timeoutMs` is the user's error to hear, `<what> failed: …`, not a fallback.
   */
  async callOrThrow<T>(what: string, run: (adapter: AgentAdapter) => T | Promise<T>, timeoutMs = adapterTimeoutMs): Promise<T> {
    try {
      return await this.withDeadline(run, timeoutMs);
    } catch (error) {
      throw new UserError(`${what} for ${this.adapter.name} failed (${messageOf(error)}): nothing was changed`, { cause: error });
    }
  }

  /** The call's answer, or a rejection once `timeoutMs` passed without one. */
  private async withDeadline<T>(run: (adapter: AgentAdapter) => T | Promise<T>, timeoutMs: number): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([Promise.resolve().then(() => run(this.adapter)), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  launch(launch: Launch, session: { id: string; cwd: string }): Launch {
    return this.call('launch', (adapter) => adapter.launch(launch, session), () => launch);
  }

  /** The modes a checkpoint offers; when the adapter fails, files only, saying so (not "no conversation support"). */
  restoreModes(checkpoint: { conversation: unknown }): Record<RestoreMode, ModeState> {
    return this.call('restore modes', (adapter) => adapter.restoreModes(checkpoint), (_, error) => filesOnly(`the ${this.adapter.name} agent support failed (${messageOf(error)}): files only`));
  }
}
