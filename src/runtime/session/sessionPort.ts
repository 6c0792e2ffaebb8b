import type { OverlayView } from '../../app/view.js';
import type { PickerModel } from '../../app/picker/types.js';
import type { RewindConfig } from '../../config/schema.js';
import type { AdapterGuard } from '../../agents/adapterGuard.js';
import type { Checkpointer } from '../checkpointing/checkpointer.js';
import type { CheckpointAsk } from '../checkpointing/checkpointTriggers.js';
import type { SaidNotice, Tone } from './notices.js';
import type { RestoreCoordinator } from '../restore/restoreCoordinator.js';

/**
 * What the picker flow and the command bar may use of a running session: the narrow side of
 * the SessionController, so they never reach into its parts.
 */
export interface SessionPort {
  readonly sessionId: string;
  /** The session's agent adapter, behind its guard. */
  readonly agent: AdapterGuard;
  readonly config: RewindConfig;
  /** What is wrong in config.json (each key's default stands in). */
  readonly configProblems: readonly string[];
  /** Problems met this session, for /checkpoints. */
  readonly problems: readonly string[];
  /** The session's last notices, whole, for /checkpoints. */
  readonly recentNotices: readonly SaidNotice[];
  /** The session's checkpoints, once open (undefined while opening or when there are none). */
  readonly checkpoints: Checkpointer | undefined;
  /** Why new checkpoints are not taken, or undefined when they are. */
  readonly checkpointsOffReason: string | undefined;
  readonly agentBusy: boolean;
  readonly restores: RestoreCoordinator;
  checkpointsOpened(): Promise<void>;
  checkpoint(ask: CheckpointAsk): Promise<string | undefined>;
  say(text: string, tone?: Tone): void;
  showOverlay(overlay: OverlayView): void;
  closeOverlay(): void;
  showPicker(model: PickerModel): void;
  updatePicker(update: Partial<PickerModel>): void;
  quit(): void;
  /** Starts the agent again in the pane with the arguments `args` makes of the user's (a conversation restore). */
  restartAgent(args: (userArgs: readonly string[]) => string[], resumed?: string): Promise<void>;
}
