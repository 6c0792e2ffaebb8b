import { logLine } from '../shared/runLog.js';
import { waitMs } from '../shared/seams.js';
import type { HookOutcome } from '../agents/agentAdapter.js';
import { parsePayload } from '../agents/payload.js';
import type { HookReply, HookRequest } from './hookServer.js';
import type { AdapterGuard } from '../agents/adapterGuard.js';
import { captureConversation, conversationStoreOf } from '../conversation/conversationRestore.js';
import type { ConversationRef } from '../checkpoints/index.js';
import { takeRestoreNote } from './restoreNote.js';

/** Where a hook call's checkpoint is taken: the session's checkpoint triggers. */
export interface StepCheckpoints {
  /** Resolves once the session's checkpoints are open (or known to be off). */
  opened(): Promise<void>;
  /** Why checkpoints are not taken, or undefined when they are. */
  readonly offReason: string | undefined;
  readonly checkpoints: { engine: { conversationsDir: string } } | undefined;
  /** The checkpoint before a step; why it could not be taken, or undefined. */
  beforeStep(step: NonNullable<HookOutcome['checkpoint']>, agentSession: string | undefined, conversation?: ConversationRef): Promise<string | undefined>;
  /** Files a step says it writes (`cwd`: the folder the payload says the agent works in): the next checkpoint stages them too. */
  willWrite(files: readonly string[], cwd: string | undefined): void;
}

/** What the user hears of hook calls: the session's status line. */
export interface HookNotices {
  say(text: string): void;
  problem(text: string): void;
}

/** How long after the first prompt an agent with hooks has to make its first hook call. */
const noHooksAfterMs = 20_000;

/** What a hook call means when the adapter failed on it: a checkpoint, if the files changed since the newest. */
export function hookFallback(event: string): HookOutcome {
  return { checkpoint: { trigger: `hook:${event}`, label: event, onlyIfChanged: true } };
}

/**
 * The agent's hook calls in a session (see hooks/rewind-hook.sh): busy or idle from them,
 * and a checkpoint before each step one announces, answered once it is taken. An agent
 * whose hooks never call after its first prompt is told about once.
 */
/** A hook call handled: the answer for the hook, and what the run log says of it. */
interface Handled {
  reply: HookReply;
  /** A checkpoint was taken before the step. */
  checkpointed: boolean;
  /** Why the one asked for could not be taken. */
  failed: string | undefined;
}

export class HookCalls {
  private seen = 0;
  private watch: NodeJS.Timeout | undefined;
  /** The agent's own session id, as its latest hook call gave it. */
  agentSession: string | undefined;

  constructor(
    private readonly agent: AdapterGuard,
    private readonly notices: HookNotices,
    private readonly triggers: StepCheckpoints,
    private readonly reportBusy: (busy: boolean) => void,
    /** Where REWIND_LOG is read (the app's environment). */
    private readonly env: NodeJS.ProcessEnv = {},
  ) {}

  /**
   * One hook call; what it returns is said on the hook's stderr, and at a prompt a note waiting
   * for the agent (restoreNote.ts) goes on its stdout, once the prompt's checkpoint is taken.
   */
  async handle(request: HookRequest): Promise<HookReply> {
    const started = performance.now();
    let handled: Handled | undefined;
    try {
      handled = await this.call(request);
      return handled.reply;
    } finally {
      logLine(this.env, 'hook', { agent: request.agent, event: request.event, app: true, checkpoint: handled?.checkpointed ?? false, failed: handled?.failed, ms: Math.round(performance.now() - started) });
    }
  }

  private async call(request: HookRequest): Promise<Handled> {
    this.seen++;
    const payload = parsePayload(request.payload, request.cut);
    // hookEvent is synchronous: the guard catches a throw (no deadline can stop a call that does not return).
    const outcome = this.agent.call<HookOutcome>('a hook call', (adapter) => adapter.hookEvent?.(request.event, payload) ?? {}, () => hookFallback(request.event));
    if (outcome.tidy) this.agent.call('tidying its files', outcome.tidy, () => undefined);
    if (outcome.agentSession) this.agentSession = outcome.agentSession;
    if (outcome.activity) this.reportBusy(outcome.activity === 'busy');
    let failed: string | undefined;
    if (outcome.checkpoint) {
      await this.triggers.opened();
      // Kept only where checkpoints are taken (not with checkpointing_disabled).
      const engine = this.triggers.offReason === undefined ? this.triggers.checkpoints?.engine : undefined;
      const conversation = engine ? captureConversation(conversationStoreOf(engine), this.agent.name, outcome.conversation, (message) => this.notices.problem(message)) : undefined;
      failed = await this.triggers.beforeStep(outcome.checkpoint, outcome.agentSession, conversation);
    }
    if (outcome.files) this.triggers.willWrite(outcome.files, outcome.cwd);
    const checkpointed = outcome.checkpoint !== undefined && failed === undefined && this.triggers.offReason === undefined;
    // On the agent's side too: the step goes on without a checkpoint before it.
    const stderr = [outcome.problem, failed && `no checkpoint before this step (${failed})`].filter(Boolean).join('; ') || undefined;
    const note = takeRestoreNote(this.agent, request.event);
    if (!note) return { reply: stderr, checkpointed, failed };
    this.notices.say(note.told);
    return { reply: { stderr, stdout: note.stdout }, checkpointed, failed };
  }

  /**
   * The user sent a prompt (an Enter): for an agent with hooks, a while without any hook call
   * means they do not run (an untrusted folder, hooks turned off, hooks not yet trusted).
   */
  promptSent(): void {
    if (this.agent.adapter.activity !== 'hooks' || this.watch || this.seen > 0) return;
    this.watch = setTimeout(() => {
      if (this.seen > 0) return;
      this.notices.problem(`no hook call came from ${this.agent.name}: its checkpoints come only from Enter and file changes (see the README, "Agents and their hooks")`);
    }, waitMs('no-hooks', noHooksAfterMs));
    this.watch.unref();
  }

  stop(): void {
    clearTimeout(this.watch);
  }
}
