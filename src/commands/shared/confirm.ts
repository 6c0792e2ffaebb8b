// What the restoring commands share: asking before a change, and who asks for it.
import readline from 'node:readline';
import type { Requester } from '../../checkpoints/index.js';
import { UserError } from '../../shared/errors.js';
import { writeLine, type CommandIO } from './io.js';

/** The session and agent a command run by an agent (or its hook) is part of, from its environment. */
export function requesterOf(io: CommandIO): Requester {
  return { session: io.env.REWIND_SESSION ?? null, agent: io.env.REWIND_AGENT ?? null };
}

/**
 * Asks before a change unless --yes: in a terminal, `question`; without one, nothing is
 * done and the user is told to pass --yes. Resolves true to go ahead.
 */
export async function confirmOrStop(io: CommandIO, yes: boolean | undefined, question: string, what: string): Promise<boolean> {
  if (yes) return true;
  if (!io.stdin.isTTY) throw new UserError(`not ${what}: there is no terminal to confirm in; pass --yes to go ahead without asking`);
  if (await confirm(io, question)) return true;
  writeLine(io.stderr, `rewind: not ${what}; nothing was changed`);
  return false;
}

async function confirm(io: CommandIO, question: string): Promise<boolean> {
  const rl = readline.createInterface({ input: io.stdin, output: io.stdout });
  try {
    const answer = await new Promise<string>((resolve) => rl.question(question, resolve));
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

