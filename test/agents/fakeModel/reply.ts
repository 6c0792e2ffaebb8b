// A protocol module's answer, as plain data the server writes out: JSON, or a stream of
// server-sent events. Keeping it data lets the recorder keep what was answered, too.
import type { ServerResponse } from 'node:http';

export interface SseEvent {
  /** The `event:` line, if the API names its events. */
  event?: string;
  data: unknown;
}

export type Reply = { status: number; json: unknown } | { status: number; sse: SseEvent[] };

/** What a protocol module made of one request. */
export interface Answer {
  /** `turn`: a step of a script; `side`: a title, summary, router or count request; `unknown`: not understood. */
  kind: 'turn' | 'side' | 'unknown';
  /** The step of the script this answered (turns only). */
  stepIndex?: number;
  reply: Reply;
}

/** A JSON answer. */
export function json(data: unknown, status = 200): Reply {
  return { status, json: data };
}

/** Writes `reply` to `res` and ends it. */
export function send(res: ServerResponse, reply: Reply): void {
  if ('json' in reply) {
    const body = JSON.stringify(reply.json);
    res.writeHead(reply.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
    return;
  }
  res.writeHead(reply.status, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const { event, data } of reply.sse) res.write(`${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`);
  res.end();
}
