// OpenAI Responses (`POST /v1/responses`, streamed, as Codex sends it): reads the
// conversation out of a request and plays a script step back as output items. Edits become
// `apply_patch` patches; shell steps use whichever shell tool the request offers.
import { json, type Answer, type SseEvent } from './reply.js';
import { isToolStep, pickStep, type ConversationView, type Script, type Step, type ToolStep } from './script.js';

interface Item {
  type?: string;
  role?: string;
  content?: string | { type?: string; text?: string }[];
}
interface Tool {
  type?: string;
  name?: string;
}
interface ResponsesRequest {
  input?: string | Item[];
  tools?: Tool[];
  stream?: boolean;
}

/** The shell tools Codex may offer, in the order they are preferred. */
const shellTools = ['exec_command', 'shell_command', 'shell'];

const outputTypes = new Set(['function_call_output', 'custom_tool_call_output', 'local_shell_call_output']);

/** The conversation as the script runner needs it. */
export function openaiView(body: ResponsesRequest): ConversationView {
  const tools = (body.tools ?? []).map((tool) => tool.name ?? tool.type ?? '');
  const input = typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: body.input }] : (body.input ?? []);
  let toolResults = 0;
  for (const item of [...input].reverse()) {
    if (outputTypes.has(item.type ?? '')) toolResults += 1;
    else if (item.role === 'user') {
      const content = typeof item.content === 'string' ? item.content : (item.content ?? []).map((span) => span.text ?? '').join('\n');
      return { prompt: content, toolResults, tools };
    }
  }
  return { prompt: '', toolResults, tools };
}

/** `text` as patch lines with `prefix` (one trailing newline ends the block, it is not a line). */
function patchLines(prefix: string, text: string): string[] {
  return text.replace(/\n$/, '').split('\n').map((line) => `${prefix}${line}`);
}

/** The apply_patch text for a write (Add File) or an edit (Update File; old and new text are whole lines). */
export function patchFor(step: Extract<ToolStep, { tool: 'write' | 'edit' }>): string {
  const body =
    step.tool === 'write'
      ? [`*** Add File: ${step.path}`, ...patchLines('+', step.content)]
      : [`*** Update File: ${step.path}`, '@@', ...patchLines('-', step.oldText), ...patchLines('+', step.newText)];
  return ['*** Begin Patch', ...body, '*** End Patch', ''].join('\n');
}

/** The output item a tool step becomes, in the shape of the tool the request offers. */
function toolItem(step: ToolStep, tools: readonly Tool[], callId: string, root: string): Record<string, unknown> {
  const offered = (name: string) => tools.find((tool) => tool.name === name);
  if (step.tool === 'agent') throw new Error('fake model: subagent steps are played to Claude Code only');
  if (step.tool !== 'shell') {
    const patch = patchFor(step);
    if (offered('apply_patch')?.type === 'function') return { type: 'function_call', call_id: callId, name: 'apply_patch', arguments: JSON.stringify({ input: patch }) };
    return { type: 'custom_tool_call', call_id: callId, name: 'apply_patch', input: patch };
  }
  if (offered('exec_command')) return { type: 'function_call', call_id: callId, name: 'exec_command', arguments: JSON.stringify({ cmd: step.command, workdir: root }) };
  if (offered('shell_command')) return { type: 'function_call', call_id: callId, name: 'shell_command', arguments: JSON.stringify({ command: step.command, workdir: root }) };
  return { type: 'function_call', call_id: callId, name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', step.command], workdir: root }) };
}

let sequence = 0;

function events(id: string, item: Record<string, unknown>): SseEvent[] {
  const usage = { input_tokens: 100, input_tokens_details: null, output_tokens: 12, output_tokens_details: null, total_tokens: 112 };
  const all = [
    { type: 'response.created', response: { id } },
    { type: 'response.output_item.added', item },
    { type: 'response.output_item.done', item },
    { type: 'response.completed', response: { id, usage } },
  ];
  return all.map((data) => ({ event: data.type, data }));
}

/** Answers one Responses request: the next step of its script, or a short text for a side request (titles). */
export function answerResponses(body: ResponsesRequest, scripts: readonly Script[], sideText: string): Answer {
  const view = openaiView(body);
  // A conversation that cannot run the whole script is a side one: the TUI's title thread
  // offers apply_patch alone, and must not play (or consume) the script's edits.
  const pick = view.tools.includes('apply_patch') && view.tools.some((name) => shellTools.includes(name)) ? pickStep(scripts, view) : undefined;
  const step: Step = pick?.step ?? { text: sideText };
  sequence += 1;
  const item = isToolStep(step)
    ? toolItem(step, body.tools ?? [], `call_fake${sequence}`, pick?.script.root ?? '/')
    : { type: 'message', role: 'assistant', id: `msg_fake${sequence}`, content: [{ type: 'output_text', text: step.text }] };
  const id = `resp_fake${sequence}`;
  const reply = body.stream === false ? json({ id, object: 'response', status: 'completed', output: [item] }) : { status: 200, sse: events(id, item) };
  return pick ? { kind: 'turn', stepIndex: pick.index, reply } : { kind: 'side', reply };
}
