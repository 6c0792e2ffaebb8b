// `rewind restore <id> --conversation | --both`: the agent's conversation as it was at a
// checkpoint, rebuilt as a new session file the agent resumes (layer 2), with the files too
// for --both. The conversation is rebuilt before anything changes: if it cannot be, nothing does.
import type { CheckpointRecord, ProjectCheckpoints, RestoreResult } from '../../checkpoints/index.js';
import { restoreConversationAlone, type RestoredConversation } from '../../conversation/conversationRestore.js';
import { shellWord } from '../../shared/shellWord.js';
import { confirmOrStop, requesterOf } from '../shared/confirm.js';
import { writeLine, type CommandIO } from '../shared/io.js';
import { printPlan, printRestored, restoredJson } from './plan.js';

/** The user said no: nothing is written. */
class Declined extends Error {}

export interface ConversationRestoreOptions {
  both?: boolean;
  yes?: boolean;
  json?: boolean;
  'dry-run'?: boolean;
  only?: string[];
}

function describe(io: CommandIO, id: number, conversation: RestoredConversation, dryRun: boolean): void {
  if (conversation.session === null) {
    writeLine(io.stdout, `the conversation at checkpoint #${id} had no message yet: start ${conversation.agent} afresh: ${conversation.resume.map(shellWord).join(' ')}`);
    return;
  }
  if (dryRun) {
    // Its id is drawn when it is written: a dry run names none (it would be another one).
    const resume = conversation.resume.map((word) => (word === conversation.session ? '<new id>' : shellWord(word))).join(' ');
    writeLine(io.stdout, `the ${conversation.agent} conversation of checkpoint #${id} would be rebuilt as a new session (${conversation.messages} message(s)), with an id of its own; nothing is written`);
    writeLine(io.stdout, `it would resume with: ${resume}`);
    return;
  }
  writeLine(io.stdout, `the ${conversation.agent} conversation of checkpoint #${id} rebuilt as a new session (${conversation.messages} message(s)): ${conversation.file ?? ''}`);
  writeLine(io.stdout, `resume it with: ${conversation.resume.map(shellWord).join(' ')}`);
}

export async function restoreWithConversation(io: CommandIO, checkpoints: ProjectCheckpoints, target: CheckpointRecord, options: ConversationRestoreOptions): Promise<number> {
  const dryRun = options['dry-run'] === true;
  let files: RestoreResult | undefined;
  const restoreFiles = async () => {
    if (!options.both) return;
    if (dryRun || !options.yes) {
      const preview = (await checkpoints.plan(target.id, options.only)).preview;
      printPlan(options.json ? io.stderr : io.stdout, target, preview);
      if (dryRun) return;
      if (preview.writes.length + preview.deletes.length > 0 && !(await confirmOrStop(io, options.yes, `Restore checkpoint #${target.id} (files and conversation)? [y/N] `, 'restoring'))) throw new Declined();
    }
    files = await checkpoints.restore(target.id, { only: options.only, ...requesterOf(io) });
  };
  let conversation: RestoredConversation;
  try {
    const engine = { conversationsDir: checkpoints.conversationsDir, newest: () => checkpoints.list().at(-1)?.id };
    conversation = await restoreConversationAlone(target, engine, (message) => writeLine(io.stderr, `rewind: warning: ${message}`), restoreFiles, dryRun);
  } catch (error) {
    if (error instanceof Declined) return 1;
    throw error;
  }
  if (options.json) {
    const fileResult = files ? restoredJson(files) : {};
    writeLine(io.stdout, JSON.stringify({ checkpoint: target.id, ...fileResult, conversation, ...(dryRun ? { dryRun: true } : {}) }));
    return 0;
  }
  if (files) {
    printRestored(io.stdout, target.id, files);
    if (files.redo !== null) writeLine(io.stdout, `undo the files with \`rewind redo\` (your files as they were are checkpoint #${files.redo})`);
  }
  describe(io, target.id, conversation, dryRun);
  return 0;
}
