// What the command line's help says of the agents, from the code that decides it: the names
// `--agent` takes (chooseAgent.ts), the one any other command gets, and the agents whose
// conversation a restore rebuilds (those with conversation support).
import { agentNamed, agentNames } from '../agents/chooseAgent.js';
import { genericAgent } from '../agents/generic.js';

/** The agents as the help names them. */
export function agentFacts(): { agents: string[]; fallbackAgent: string; conversationAgents: string[] } {
  const agents = agentNames();
  return { agents, fallbackAgent: genericAgent.name, conversationAgents: agents.filter((name) => agentNamed(name).conversation !== undefined) };
}
