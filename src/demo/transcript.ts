// The demo agent's conversation, kept as Claude Code keeps its own (docs/agents.md): one JSON
// object per line in <config>/projects/<slug>/<session id>.jsonl, user and assistant lines
// chained by uuid/parentUuid, tool calls as tool_use, their results as tool_result.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Claude Code's folder name for a project: every character but letters and digits as '-'. */
export function projectSlug(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, '-');
}

export class Transcript {
  private last: string | null = null;

  constructor(
    readonly file: string,
    readonly sessionId: string,
    private readonly cwd: string,
  ) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    // Resumed: go on from its last line.
    if (fs.existsSync(file)) {
      const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
      for (const line of lines.reverse()) {
        const uuid = (JSON.parse(line) as { uuid?: string }).uuid;
        if (uuid) {
          this.last = uuid;
          break;
        }
      }
    }
  }

  /** The user and assistant texts so far (for a resumed session's first screen). */
  static read(file: string): { role: string; text: string }[] {
    const lines = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
    const out: { role: string; text: string }[] = [];
    for (const line of lines) {
      const entry = JSON.parse(line) as { type?: string; message?: { content?: unknown } };
      const content = entry.message?.content;
      if ((entry.type === 'user' || entry.type === 'assistant') && typeof content === 'string') out.push({ role: entry.type, text: content });
    }
    return out;
  }

  private append(type: 'user' | 'assistant', content: unknown, extra: Record<string, unknown> = {}): string {
    const uuid = randomUUID();
    const line = { type, uuid, parentUuid: this.last, sessionId: this.sessionId, timestamp: new Date().toISOString(), cwd: this.cwd, message: { role: type, content }, ...extra };
    fs.appendFileSync(this.file, `${JSON.stringify(line)}\n`);
    this.last = uuid;
    return uuid;
  }

  prompt(text: string, promptId: string): void {
    this.append('user', text, { promptId });
  }

  say(text: string): void {
    this.append('assistant', text);
  }

  toolUse(id: string, name: string, input: unknown): void {
    this.append('assistant', [{ type: 'tool_use', id, name, input }]);
  }

  toolResult(id: string, result: string): void {
    this.append('user', [{ type: 'tool_result', tool_use_id: id, content: result }]);
  }
}
