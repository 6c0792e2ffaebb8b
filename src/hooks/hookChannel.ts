import { HookServer, type HookReply, type HookRequest } from './hookServer.js';

/** What the session does with a hook call; what it returns is said on the hook's stderr (and stdout: see HookReply). */
export type HookHandler = (request: HookRequest) => Promise<HookReply>;

/**
 * The app's hook channel, open before the agent starts (its folder goes to the agent as
 * REWIND_SOCKET) while the session that answers it is still loading: calls that come first
 * (SessionStart) wait for the session to attach.
 */
export class HookChannel {
  private readonly server: HookServer;
  private handler: HookHandler | undefined;
  private ready!: (handler: HookHandler) => void;
  private readonly attached = new Promise<HookHandler>((resolve) => (this.ready = resolve));

  constructor() {
    this.server = HookServer.open(async (request) => (this.handler ?? (await this.attached))(request));
    // Whatever way rewind ends (a signal's exit too), its channel folder goes with it.
    process.once('exit', () => this.close());
  }

  /** The environment the agent (and so its hooks) gets. */
  get env(): Record<string, string> {
    return { REWIND_SOCKET: this.server.dir };
  }

  attach(handler: HookHandler): void {
    this.handler = handler;
    this.ready(handler);
  }

  close(): void {
    this.server.close();
  }
}
