// Anthropic Messages (`POST /v1/messages`, as Claude Code sends it): reads the conversation
// out of a request and plays a script step back as a message, streamed (SSE) or whole.
import path from 'node:path';
import { json, type Answer, type SseEvent } from './reply.js';
import { valueFor } from './schemaValue.js';
import { isToolStep, pickStep, type ConversationView, type Script, type Step, type ToolStep } from './script.js';

interface Block {
  type: string;
  text?: string;
}
interface Message {
  role: string;
  content: string | Block[];
}
interface MessagesRequest {
  messages?: Message[];
  tools?: { name?: string }[];
  stream?: boolean;
  model?: string;
  /** Structured output (Claude Code's session-title request asks for `{title}` this way). */
  output_config?: { format?: { type?: string; schema?: object } };
}

/** Claude Code's own tool for each kind of step. */
const toolNames = { write: 'Write', edit: 'Edit', shell: 'Bash' } as const;

/** The subagent tool, by the name the request offers (`Task` before Claude Code 2.1.x renamed it). */
function agentTool(tools: readonly string[]): string {
  return tools.includes('Agent') ? 'Agent' : 'Task';
}

/** The conversation as the script runner needs it. */
export function anthropicView(body: MessagesRequest): ConversationView {
  const tools = (body.tools ?? []).map((tool) => tool.name ?? '');
  let toolResults = 0;
  for (const message of [...(body.messages ?? [])].reverse()) {
    if (message.role !== 'user') continue;
    const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    const results = blocks.filter((block) => block.type === 'tool_result').length;
    if (results === 0) return { prompt: blocks.map((block) => block.text ?? '').join('\n'), toolResults, tools };
    toolResults += results;
  }
  return { prompt: '', toolResults, tools };
}

/** The content blocks a step becomes: its text, or what it says, then its call and any parallel ones. */
function contentOf(step: Step, root: string, id: string, tools: readonly string[]): Record<string, unknown>[] {
  if (!isToolStep(step)) return [{ type: 'text', text: step.text }];
  const calls = [step, ...(step.also ?? [])].map((call, index) => callOf(call, root, index === 0 ? id : `${id}_${index}`, tools));
  return step.say === undefined ? calls : [{ type: 'text', text: step.say }, ...calls];
}

/** The tool_use block of one call. */
function callOf(step: ToolStep, root: string, id: string, tools: readonly string[]): Record<string, unknown> {
  if (step.tool === 'agent') return { type: 'tool_use', id, name: agentTool(tools), input: { description: step.description, prompt: step.prompt } };
  const name = toolNames[step.tool];
  if (step.tool === 'write') return { type: 'tool_use', id, name, input: { file_path: path.resolve(root, step.path), content: step.content } };
  if (step.tool === 'edit') return { type: 'tool_use', id, name, input: { file_path: path.resolve(root, step.path), old_string: step.oldText, new_string: step.newText } };
  return { type: 'tool_use', id, name, input: { command: step.command, description: 'Run the scripted command' } };
}

/** Streams one message holding `blocks`, event by event as the API does. */
function stream(message: Record<string, unknown>, blocks: readonly Record<string, unknown>[], stopReason: string): SseEvent[] {
  const events: SseEvent[] = [];
  const add = (data: Record<string, unknown>) => events.push({ event: String(data.type), data });
  add({ type: 'message_start', message: { ...message, content: [], stop_reason: null, stop_sequence: null } });
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      add({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      add({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } });
    } else {
      add({ type: 'content_block_start', index, content_block: { ...block, input: {} } });
      add({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    }
    add({ type: 'content_block_stop', index });
  });
  add({ type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 12 } });
  add({ type: 'message_stop' });
  return events;
}

let sequence = 0;

/** Answers one Messages request: the next step of its script, or a short text for a side request. */
export function answerMessages(body: MessagesRequest, scripts: readonly Script[], sideText: string): Answer {
  const view = anthropicView(body);
  // Side requests (titles, summaries, quota probes) lack the script's tools: they never consume it.
  const pick = Object.values(toolNames).every((name) => view.tools.includes(name)) ? pickStep(scripts, view) : undefined;
  const schema = body.output_config?.format?.type === 'json_schema' ? body.output_config.format.schema : undefined;
  const step: Step = pick?.step ?? { text: schema ? JSON.stringify(valueFor(schema, sideText)) : sideText };
  sequence += 1;
  const blocks = contentOf(step, pick?.script.root ?? '/', `toolu_fake${sequence}`, view.tools);
  const stopReason = blocks.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn';
  const message = { id: `msg_fake${sequence}`, type: 'message', role: 'assistant', model: body.model ?? 'claude-fake', usage: { input_tokens: 100, output_tokens: 12 } };
  const reply = body.stream ? { status: 200, sse: stream(message, blocks, stopReason) } : json({ ...message, content: blocks, stop_reason: stopReason, stop_sequence: null });
  return pick ? { kind: 'turn', stepIndex: pick.index, reply } : { kind: 'side', reply };
}
