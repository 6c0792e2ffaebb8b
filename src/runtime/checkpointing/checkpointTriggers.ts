import fs from 'node:fs';
import path from 'node:path';
import type { ConversationRef, Requester, SnapshotOptions } from '../../checkpoints/index.js';
import { messageOf } from '../../shared/errors.js';
import { waitMs } from '../../shared/seams.js';
import { changeLabel } from './changeLabel.js';
import { Checkpointer, type CheckpointAvailability } from './checkpointer.js';
import type { Notices } from '../session/notices.js';
import { checkpointStatus } from '../session/viewParts.js';
import { rowsNow, stepName } from '../restore/stepNames.js';
import { ChangeWatcher } from './watcher.js';
import { ChangedPaths, type Scope } from './changedPaths.js';
import { IgnoreVerdicts } from './ignoreVerdicts.js';
import { foldersFirst } from './watchOrder.js';

/** How long the files and the checkpoints stay quiet before a full scan confirms the checkpoints staged from changed paths. */
const confirmAfterMs = 10_000;

/** What changed since the newest checkpoint, for a restore's redo point (undefined: walk the whole tree). */
export type ChangedSince = Pick<Requester, 'changedPaths'>;

/** A checkpoint a trigger asks for. */
export interface CheckpointAsk {
  trigger: string;
  label: string;
  describe?: SnapshotOptions['describe'];
  /** Add an entry even when nothing changed (a hook's step: its label says what comes next). */
  always?: boolean;
  agentSession?: string;
  /** The agent's conversation at this step, kept in the store (conversations.ts). */
  conversation?: ConversationRef;
}

/**
 * The session's checkpoint triggers: the session start, each Enter (before it reaches the
 * agent), each burst of file changes once it settles (the watcher), and `/checkpoint`; hook
 * events come next. A failure is a notice, never the end of the session; a trigger that is
 * off says so in the status line for as long as it is.
 */
export class CheckpointTriggers {
  private availability: CheckpointAvailability | undefined;
  private checkpointer: Checkpointer | undefined;
  private attached!: () => void;
  /** Settles once checkpoints are open (or known to be off), the session's first one taken. */
  private readonly ready = new Promise<void>((resolve) => (this.attached = resolve));
  private watcher: ChangeWatcher | undefined;
  private watcherStarting: Promise<void> | undefined;
  private watcherOffReason: string | undefined;
  private stopped = false;
  /** What changed since the last checkpoint, once the watcher runs (undefined: every checkpoint walks the whole tree). */
  private changes: ChangedPaths | undefined;
  /** The confirming walk under way, stopped by any checkpoint or restore asked meanwhile. */
  private confirming: AbortController | undefined;
  /** What git said of the changed paths' ignore rules, while still true (the watcher's and the steps'). */
  private verdicts: IgnoreVerdicts | undefined;
  /** The app's checkpoints one at a time: what changed is taken and staged together. */
  private queue: Promise<unknown> = Promise.resolve();
  /** The agent's hooks announce its steps: a burst of changes in its turn then only feeds the next step's checkpoint. */
  private hooksArrive = false;
  private confirmTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly session: { id: string; agent: () => string; working?: () => boolean },
    private readonly notices: Notices,
    private readonly changed: () => void,
  ) {}

  /** Checkpoints for this session, once opened (the agent does not wait for them). */
  attach(availability: CheckpointAvailability): void {
    this.availability = availability;
    if (availability.problems && availability.problems.length > 0) this.notices.problem(availability.problems.join(' · '));
    const engine = availability.engine;
    this.checkpointer = engine ? new Checkpointer(engine, this.changed) : undefined;
    if (this.checkpointer && availability.on && !this.watcherStarting) this.startWatcher(this.checkpointer);
    else this.attached();
    this.changed();
    void this.ready.then(() => this.retain(availability));
  }

  /** Retention, in the background once the session's first checkpoint is taken (it holds the lock while it works). */
  private async retain(availability: CheckpointAvailability): Promise<void> {
    if (!availability.retain || this.stopped) return;
    try {
      const said = await availability.retain();
      if (said && !this.stopped) {
        this.notices.say(`retention: ${said}`);
        this.checkpointer?.refresh();
      }
    } catch (error) {
      if (!this.stopped) this.notices.problem(`retention did not run: ${messageOf(error)} (\`rewind prune\` tries again)`);
    }
  }

  get checkpoints(): Checkpointer | undefined {
    return this.checkpointer;
  }

  /** Resolves once checkpoints are open, with the session's first one taken (or known off). */
  opened(): Promise<void> {
    return this.ready;
  }

  /** Resolves once the file watcher runs (or is known off): from then on steps stage only what changed. */
  async watching(): Promise<void> {
    await this.ready;
    await this.watcherStarting;
  }

  /** Why new checkpoints are not taken ('still opening' until they are open); undefined when they are. */
  get offReason(): string | undefined {
    return this.availability === undefined ? 'still opening' : this.availability.on ? undefined : this.availability.reason;
  }

  /** The checkpoints part of the status line. */
  status(): { checkpoints: string; checkpointsOff: boolean; off?: string } {
    const status = checkpointStatus(this.availability, this.checkpointer?.summary);
    // A trigger that is off says so for as long as it is, not only in a notice that fades.
    return this.watcherOffReason !== undefined && this.availability?.on ? { ...status, off: 'watcher off' } : status;
  }

  /** Takes a checkpoint; a failure is a notice, never the end of the session. */
  checkpoint(ask: CheckpointAsk, checkpointer = this.checkpointer): Promise<string | undefined> {
    return this.serial(() => this.checkpointNow(ask, checkpointer));
  }

  private async checkpointNow(ask: CheckpointAsk, checkpointer: Checkpointer | undefined): Promise<string | undefined> {
    if (!checkpointer || !this.availability?.on) return undefined;
    try {
      // Enter and settled bursts add no entry when nothing changed since the newest one.
      const { always, ...options } = ask;
      const { record, fromChangedPaths } = await this.withChangedPaths(checkpointer, (changed) =>
        checkpointer.snapshot({ ...options, ...(changed.changedPaths ? { paths: changed.changedPaths } : {}), session: this.session.id, agent: this.session.agent(), onlyIfChanged: ask.trigger !== 'manual' && always !== true }),
      );
      // Named as its row in the picker reads (rows show no ids).
      if (ask.trigger === 'manual') this.notices.say(`checkpoint taken: ${stepName(rowsNow(checkpointer.engine), record.id)}${record.deduped ? ' (no change since the previous one)' : ''}`);
      if (!fromChangedPaths && this.changes) await this.watchWhatWasFound(checkpointer);
      if (fromChangedPaths) this.confirmLater(checkpointer);
      return undefined;
    } catch (error) {
      const failed = `checkpoint failed: ${messageOf(error)}`;
      this.notices.say(failed, 'error');
      return failed;
    }
  }

  /**
   * Runs `work` (a snapshot, a restore) told what changed since the newest checkpoint (none:
   * walk the whole tree); if it fails, the changes are given back for the next one. The
   * caller runs it in turn (serial): the paths are taken and staged together.
   */
  private async withChangedPaths<T>(checkpointer: Checkpointer | undefined, work: (changed: ChangedSince) => Promise<T>): Promise<T> {
    const changes = this.changes;
    const scope: Scope = changes ? await changes.take() : { full: 'no watcher' };
    try {
      const paths = scope.paths && checkpointer && (await this.notIgnored(checkpointer, scope.paths));
      return await work(paths ? { changedPaths: paths } : {});
    } catch (error) {
      changes?.giveBack(scope);
      throw error;
    }
  }

  /** Of the changed paths, those the checkpoint's ignore rules do not leave out (undefined: that cannot be told, walk everything). */
  private async notIgnored(checkpointer: Checkpointer, paths: string[]): Promise<string[] | undefined> {
    if (paths.length === 0) return paths;
    try {
      const ask = (asked: string[]) => checkpointer.ignored(asked);
      const ignored = await (this.verdicts ? this.verdicts.ignoredAmong(paths, ask) : ask(paths));
      return paths.filter((file) => !ignored.has(file));
    } catch {
      return undefined;
    }
  }

  /** After a walk of the whole tree: every folder it found is watched (one made before the watcher started, say). */
  private async watchWhatWasFound(checkpointer: Checkpointer): Promise<void> {
    const watcher = this.watcher;
    if (!watcher) return;
    try {
      watcher.watchFolders(await checkpointer.folders());
    } catch {
      this.changes?.needFull('the folders could not be listed');
    }
  }

  /**
   * Runs `work` after the app's checkpoints before it, and before those after it. A
   * confirming walk under way is stopped first (it is tried again at the next quiet moment):
   * no step waits for a walk of the whole tree.
   */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    this.confirming?.abort();
    const turn = this.queue.then(work);
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private confirmLater(checkpointer: Checkpointer): void {
    clearTimeout(this.confirmTimer);
    this.confirmTimer = setTimeout(() => void this.confirm(checkpointer), waitMs('confirm-scan', confirmAfterMs));
    this.confirmTimer.unref();
  }

  /**
   * Once files and checkpoints were quiet for a while, a walk of the whole tree confirms the
   * checkpoints staged from the changed paths (the engine records it). Should it find what
   * the watcher never reported, the watcher is not trusted again: that is said, the files
   * are checkpointed, and every checkpoint walks the whole tree from then on.
   */
  private async confirm(checkpointer: Checkpointer): Promise<void> {
    const changes = this.changes;
    if (this.stopped || !changes) return;
    if (!changes.quiet) return this.confirmLater(checkpointer);
    const missed = await this.serial(async () => {
      const walking = new AbortController();
      this.confirming = walking;
      try {
        const found = await checkpointer.engine.currentTree({ signal: walking.signal });
        if (found.changedSinceNewest === 0) return undefined;
        // A change made while it walked is reported after it: not a miss, try again later.
        const since = await changes.take();
        changes.giveBack(since);
        return since.paths?.length === 0 ? found : null;
      } finally {
        this.confirming = undefined;
      }
    }).catch(() => null);
    if (missed === null) return this.confirmLater(checkpointer);
    if (!missed || this.stopped) return;
    changes.fullFromNowOn('the watcher missed changes');
    const named = missed.changedPathsSinceNewest.slice(0, 3).join(', ');
    const more = (missed.changedSinceNewest ?? 0) > 3 ? ` and ${(missed.changedSinceNewest ?? 0) - 3} more` : '';
    this.notices.problem(`the file watcher missed changes to ${named}${more}: checkpointed now, and every checkpoint walks the whole tree from now on`);
    await this.checkpoint({ trigger: 'watch', label: 'files the watcher missed' }, checkpointer);
  }

  /**
   * Before an Enter reaches the agent: a checkpoint labelled with the line. The very first
   * Enter may come while checkpoints are still opening: it waits, and says so if that takes
   * a moment (a big project's first checkpoint).
   */
  async beforeEnter(label: string): Promise<void> {
    const waiting = "taking this session's first checkpoint before sending Enter…";
    const slow = setTimeout(() => this.notices.say(waiting), 150);
    await this.ready;
    clearTimeout(slow);
    await this.checkpoint({ trigger: 'enter', label: label || '(Enter)' });
    // Done: the status line shows the checkpoints again, not 6 s of a wait that is over.
    this.notices.unsay(waiting);
  }

  /**
   * A checkpoint before an agent's step its hook announced (a tool call, a prompt): always an
   * entry of its own, labelled with the step, even when the files did not change since the
   * one before. Waits for checkpoints to be open (a hook can come before the app has loaded).
   * Returns why the checkpoint failed, if it did (the agent's hook says so on its stderr).
   */
  async beforeStep(step: { trigger: string; label: string; onlyIfChanged?: boolean }, agentSession: string | undefined, conversation?: ConversationRef): Promise<string | undefined> {
    await this.ready;
    this.hooksArrive = true;
    const { onlyIfChanged, ...labelled } = step;
    return this.checkpoint({ ...labelled, always: onlyIfChanged !== true, ...(agentSession ? { agentSession } : {}), ...(conversation ? { conversation } : {}) });
  }

  /**
   * The files a step says it writes (its tool input names them): the checkpoint after it stages
   * them as they are then, whether or not the watcher sees them change. Never trusted to narrow
   * anything: a name outside the project is dropped, and staging a file as it is never makes a
   * checkpoint wrong. Relative names are the agent's folder's (`cwd`), or the project's.
   */
  willWrite(files: readonly string[], cwd: string | undefined): void {
    const root = this.checkpoints?.engine.projectRoot;
    if (!root || !this.changes) return;
    const base = cwd && path.isAbsolute(cwd) ? cwd : root;
    for (const file of files) {
      const relative = path.relative(root, path.resolve(base, file)).split(path.sep).join('/');
      if (relative === '' || relative === '..' || relative.startsWith('../') || path.isAbsolute(relative)) continue;
      this.verdicts?.forget(relative);
      this.changes.saw(relative);
    }
  }

  /**
   * Runs `work` (a restore) with the watcher paused, so its own writes are not taken for
   * edits: it resumes once their file events, which may come after the work, are dropped.
   * `work` is told what changed since the newest checkpoint (its redo point stages only
   * that), in turn with the session's checkpoints; the checkpoint after it walks the whole
   * tree.
   */
  async withWatcherPaused<T>(work: (changed: ChangedSince) => Promise<T>): Promise<T> {
    // A watcher still starting (Esc Esc right after start) would see the restore's writes:
    // it starts first, then pauses.
    await this.watcherStarting;
    const resume = this.watcher?.pause();
    try {
      return await this.serial(async () => {
        try {
          return await this.withChangedPaths(this.checkpointer, work);
        } finally {
          this.changes?.needFull('files were restored');
        }
      });
    } finally {
      await resume?.();
    }
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.confirmTimer);
    this.watcher?.close();
  }

  /** The watcher stopped (or never started): said once, and "watcher off" in the status line from now on. */
  private watcherOff(error: unknown): void {
    if (this.watcherOffReason !== undefined || this.stopped) return;
    this.watcherOffReason = messageOf(error);
    this.changes?.fullFromNowOn('the watcher is off');
    this.watcher?.close();
    this.notices.problem(`file watcher off: checkpoints still come before each Enter (${this.watcherOffReason})`);
  }

  private startWatcher(checkpointer: Checkpointer): void {
    const off = (error: unknown) => this.watcherOff(error);
    // A checkpoint of the files as the session starts (if they changed since the newest
    // one): "before the first prompt" is the restore most often wanted (taken while the agent
    // loads: a command that writes files at once can beat it; README says so). Keys wait
    // for it; the watcher then watches the folders it holds (without them it would watch
    // only the top folder: it is off then, and says so).
    this.watcherStarting = this.checkpoint({ trigger: 'start', label: 'session start' })
      .finally(() => this.attached())
      .then(() => checkpointer.folders())
      .then((folders) => {
        if (this.stopped) return;
        const recent = checkpointer.engine.list().slice(-50).flatMap((record) => record.changedPaths ?? []);
        this.changes = new ChangedPaths();
        const verdicts = new IgnoreVerdicts(() => checkpointer.engine.ignoreStamp());
        this.verdicts = verdicts;
        this.watcher = new ChangeWatcher(checkpointer.engine.projectRoot, {
          folders: foldersFirst(folders, recent),
          changes: this.changes,
          verdicts,
          ignored: (paths) => verdicts.ignoredAmong(paths, (asked) => checkpointer.ignored(asked)),
          ignoreDirs: [checkpointer.engine.storeRoot],
          onSettled: (paths) => void this.filesSettled(checkpointer, paths),
          onError: off,
          onFull: (message) => this.notices.say(message, 'warning'),
        });
        if (this.watcherOffReason !== undefined) this.watcher.close();
      })
      .catch(off);
  }

  private async filesSettled(checkpointer: Checkpointer, paths: string[]): Promise<void> {
    // In a turn of an agent whose hooks arrive, its next step (or the turn's end) checkpoints
    // them: a checkpoint of its own here would only make that step wait for it. Between
    // turns (the user's own edits) it does.
    if (this.hooksArrive && this.session.working?.() !== false) return;
    // Named from what the step changed (the tree diff), not from the burst's events: a burst
    // is full of temporary files that came and went, and must not hide its biggest part.
    const root = checkpointer.engine.projectRoot;
    const present = paths.filter((file) => fs.existsSync(path.join(root, file)));
    await this.checkpoint({ trigger: 'watch', label: 'files changed', describe: (changes) => changeLabel(changes, present.length > 0 ? present : paths) }, checkpointer);
  }
}
