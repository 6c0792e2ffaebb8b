// Gemini (`models/<model>:generateContent`, `:streamGenerateContent?alt=sse`, `:countTokens`,
// as Gemini CLI sends them): reads the conversation out of a request and plays a script step
// back as a candidate. Structured side requests (the model router) get a value of their schema.
import path from 'node:path';
import { json, type Answer } from './reply.js';
import { valueFor } from './schemaValue.js';
import { isToolStep, pickStep, type ConversationView, type Script, type Step } from './script.js';

interface Part {
  text?: string;
  functionResponse?: unknown;
}
interface GenerateRequest {
  contents?: { role?: string; parts?: Part[] }[];
  tools?: { functionDeclarations?: { name?: string }[] }[];
  generationConfig?: { responseJsonSchema?: object; responseSchema?: object; responseMimeType?: string };
}

/** Gemini CLI's own tool for each kind of step. */
const toolNames = { write: 'write_file', edit: 'replace', shell: 'run_shell_command' } as const;

/** The conversation as the script runner needs it. */
export function geminiView(body: GenerateRequest): ConversationView {
  const tools = (body.tools ?? []).flatMap((tool) => tool.functionDeclarations ?? []).map((declaration) => declaration.name ?? '');
  let toolResults = 0;
  for (const content of [...(body.contents ?? [])].reverse()) {
    if (content.role !== 'user') continue;
    const parts = content.parts ?? [];
    const results = parts.filter((part) => part.functionResponse !== undefined).length;
    if (results === 0) return { prompt: parts.map((part) => part.text ?? '').join('\n'), toolResults, tools };
    toolResults += results;
  }
  return { prompt: '', toolResults, tools };
}

/** The part a step becomes. */
function partOf(step: Step, root: string): Record<string, unknown> {
  if (!isToolStep(step)) return { text: step.text };
  if (step.tool === 'agent') throw new Error('fake model: subagent steps are played to Claude Code only');
  const name = toolNames[step.tool];
  if (step.tool === 'write') return { functionCall: { name, args: { file_path: path.resolve(root, step.path), content: step.content } } };
  if (step.tool === 'edit') {
    const args = { file_path: path.resolve(root, step.path), instruction: 'Apply the scripted edit', old_string: step.oldText, new_string: step.newText };
    return { functionCall: { name, args } };
  }
  return { functionCall: { name, args: { command: step.command, description: 'Run the scripted command' } } };
}

function candidate(part: Record<string, unknown>): Record<string, unknown> {
  return {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 12, totalTokenCount: 112 },
    modelVersion: 'gemini-fake',
  };
}

/** Answers one request to `models/<model>:<method>`. */
export function answerGemini(method: string, body: GenerateRequest, scripts: readonly Script[], sideText: string): Answer {
  if (method === 'countTokens') return { kind: 'side', reply: json({ totalTokens: 100 }) };
  if (method !== 'generateContent' && method !== 'streamGenerateContent') return { kind: 'unknown', reply: json({ error: { code: 404, message: `fake model: no ${method}` } }, 404) };
  const config = body.generationConfig ?? {};
  const schema = config.responseJsonSchema ?? config.responseSchema;
  const view = geminiView(body);
  const pick = schema === undefined && Object.values(toolNames).every((name) => view.tools.includes(name)) ? pickStep(scripts, view) : undefined;
  let part: Record<string, unknown>;
  if (pick) part = partOf(pick.step, pick.script.root);
  else if (schema !== undefined || config.responseMimeType === 'application/json') part = { text: JSON.stringify(valueFor(schema, sideText)) };
  else part = { text: sideText };
  const data = candidate(part);
  const reply = method === 'streamGenerateContent' ? { status: 200, sse: [{ data }] } : json(data);
  return pick ? { kind: 'turn', stepIndex: pick.index, reply } : { kind: 'side', reply };
}
