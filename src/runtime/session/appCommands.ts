import { configFilePath } from '../../config/file.js';
import { messageOf } from '../../shared/errors.js';
import { localTime } from '../../shared/time.js';
import { appCommands, parseCommandLine, type AppCommandName } from './commandLine.js';
import type { SessionPort } from './sessionPort.js';
import { retentionPolicy } from '../../services/store/retention.js';
import { storeReportLines } from '../../services/store/storeReport.js';
import { openPicker, undoLastRewind } from '../restore/pickerFlow.js';
import { bisectCommand } from '../restore/bisectFlow.js';

/** `ctrl+]` → `Ctrl+]` for the status line. */
export function commandKeyLabel(spec: string): string {
  return spec.replace(/^ctrl\+/i, 'Ctrl+');
}

function helpLines(session: SessionPort): string[] {
  return [
    ...appCommands.map((command) => `${command.usage.padEnd(22)} ${command.help}`),
    '',
    `Esc Esc                open the rewind picker (${session.agent.adapter.holdsFirstEsc ? 'the first Esc reaches the agent at once while it works, else only if no second comes' : 'the first Esc still reaches the agent'})`,
    `${commandKeyLabel(session.config.command_key).padEnd(22)} open this command bar`,
    "Shift+PgUp/PgDn        scroll back through the agent's output (the mouse wheel too)",
    'Every other key goes to the agent as typed.',
  ];
}

async function usageLines(session: SessionPort): Promise<string[]> {
  const checkpointer = session.checkpoints;
  if (!checkpointer) return [`Checkpoints are off: ${session.checkpointsOffReason ?? 'unknown'}.`];
  const config = session.config;
  return [
    ...storeReportLines(await checkpointer.engine.report(retentionPolicy(config))),
    '',
    `Files over ${config.checkpoint_max_file_mb} MB are left out. Background gc every ${config.gc_every} snapshots. Free space: \`rewind prune\`, \`rewind clean\`.`,
    ...(session.problems.length > 0 ? ['', 'Problems this session:', ...session.problems.map((problem) => `- ${problem}`)] : []),
    ...(session.recentNotices.length > 0 ? ['', 'Last notices, whole (newest last):', ...session.recentNotices.map((notice) => `- ${localTime(notice.time.toISOString()).slice(11)}  ${notice.text}`)] : []),
  ];
}

async function redo(session: SessionPort): Promise<void> {
  const checkpointer = session.checkpoints;
  if (!checkpointer) {
    session.say(`checkpoints are off: ${session.checkpointsOffReason ?? ''}`, 'warning');
    return;
  }
  try {
    // As the picker's undo row does it: the agent stopped first (only when there is a rewind to
    // undo: else the undo says so at once), the same notice.
    const busyNote = (await checkpointer.engine.canUndo()) ? await session.restores.interruptIfBusy() : '';
    await undoLastRewind(session, checkpointer, busyNote);
  } catch (error) {
    session.say(messageOf(error), 'error');
  }
}

/**
 * Runs a command from the command bar (`name` 'line': the typed text) or a key. Returns an
 * error to show in the command bar, or undefined.
 */
export async function runAppCommand(session: SessionPort, name: AppCommandName | 'line', argument: string): Promise<string | undefined> {
  if (name === 'line') {
    const parsed = parseCommandLine(argument);
    if (!parsed.ok) return parsed.error;
    return runAppCommand(session, parsed.name, parsed.argument);
  }
  switch (name) {
    case 'checkpoint':
      if (!session.checkpoints || session.checkpointsOffReason) return `checkpoints are off: ${session.checkpointsOffReason ?? ''}`;
      await session.checkpoint({ trigger: 'manual', label: argument || 'manual checkpoint' });
      return undefined;
    case 'checkpoints':
      session.showOverlay({ kind: 'panel', title: 'Checkpoints', lines: await usageLines(session) });
      return undefined;
    case 'rewind':
      await openPicker(session);
      return undefined;
    case 'redo':
      await redo(session);
      return undefined;
    case 'bisect':
      return bisectCommand(session, argument);
    case 'config':
      session.showOverlay({
        kind: 'panel',
        title: 'Config',
        lines: [`File: ${configFilePath()}`, ...session.configProblems.map((problem) => `! ${problem}`), '', ...Object.entries(session.config).map(([key, value]) => `${key.padEnd(26)} ${JSON.stringify(value)}`), '', 'Change with `rewind config set KEY VALUE` (restart rewind to apply).'],
      });
      return undefined;
    case 'help':
      session.showOverlay({ kind: 'panel', title: 'Rewind commands', lines: helpLines(session) });
      return undefined;
    case 'quit':
      session.quit();
      return undefined;
  }
}
