// The fake model: one loopback HTTP server that speaks Anthropic Messages, Gemini and OpenAI
// Responses, plays scripts, and records every request it got. It also listens on a Unix
// socket (the offline jail's bridge reaches it there) and records any request an agent
// meant for somewhere else (proxy-style absolute URLs, CONNECT): an agent trying to leave.
import fs from 'node:fs';
import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { answerMessages } from './anthropic.js';
import { answerGemini } from './gemini.js';
import { answerResponses } from './openai.js';
import { json, send, type Answer, type Reply } from './reply.js';
import type { Script } from './script.js';

export type Api = 'anthropic' | 'gemini' | 'openai' | 'other';

export interface RecordedRequest {
  api: Api;
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingMessage['headers'];
  /** The parsed JSON body (undefined when there was none or it was not JSON). */
  body: unknown;
  kind: Answer['kind'];
  stepIndex?: number;
  reply: Reply;
}

export interface FakeModel {
  /** `http://127.0.0.1:<port>`: the base URL to give the agents. */
  url: string;
  port: number;
  /** The Unix socket the same server listens on. */
  socketPath: string;
  /** Every request, in order of arrival. */
  requests: RecordedRequest[];
  /** Requests meant for another host (through a proxy setting), refused. */
  escapes: string[];
  /** Replaces the scripts (new requests play these). */
  play(scripts: Script[]): void;
  close(): Promise<void>;
}

export interface FakeModelOptions {
  scripts: Script[];
  /** Where the Unix socket goes (its folder must exist, private). */
  socketPath: string;
  /** The answer to side requests (titles, summaries). */
  sideText?: string;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  let raw: Buffer = Buffer.concat(chunks);
  const encoding = req.headers['content-encoding'];
  if (encoding === 'gzip') raw = zlib.gunzipSync(raw);
  else if (encoding === 'br') raw = zlib.brotliDecompressSync(raw);
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    return raw.toString('utf8');
  }
}

/** Which API a path belongs to, and the protocol's answer. */
function route(method: string, pathname: string, body: unknown, scripts: readonly Script[], sideText: string): { api: Api; answer: Answer } {
  // The protocol modules read the body defensively; they get an object either way.
  const request = (typeof body === 'object' && body !== null ? body : {}) as never;
  if (method === 'POST' && pathname === '/v1/messages/count_tokens') return { api: 'anthropic', answer: { kind: 'side', reply: json({ input_tokens: 100 }) } };
  if (method === 'POST' && pathname === '/v1/messages') return { api: 'anthropic', answer: answerMessages(request, scripts, sideText) };
  if (method === 'POST' && pathname === '/v1/responses') return { api: 'openai', answer: answerResponses(request, scripts, sideText) };
  const gemini = /^\/v1(?:beta|alpha)?\/models\/[^/:]+:(\w+)$/.exec(pathname);
  if (method === 'POST' && gemini?.[1]) return { api: 'gemini', answer: answerGemini(gemini[1], request, scripts, sideText) };
  return { api: 'other', answer: { kind: 'unknown', reply: json({ error: { message: `fake model: nothing at ${method} ${pathname}` } }, 404) } };
}

/** Starts the fake model on 127.0.0.1 (a free port) and on `socketPath`. */
export async function startFakeModel(options: FakeModelOptions): Promise<FakeModel> {
  let scripts = options.scripts;
  const sideText = options.sideText ?? 'Scripted session';
  const requests: RecordedRequest[] = [];
  const escapes: string[] = [];
  let self = 'http://127.0.0.1:0/';
  const server = http.createServer((req, res) => {
    let url = req.url ?? '/';
    // Through a proxy setting, a request names its host: ours is served, any other is an escape.
    if (url.startsWith(self)) url = url.slice(self.length - 1);
    if (!url.startsWith('/')) {
      escapes.push(`${req.method} ${url}`);
      send(res, json({ error: 'the fake model is no proxy' }, 403));
      return;
    }
    readBody(req).then(
      (body) => {
        const { pathname } = new URL(url, 'http://fake');
        const { api, answer } = route(req.method ?? 'GET', pathname, body, scripts, sideText);
        requests.push({ api, method: req.method ?? 'GET', url, headers: req.headers, body, kind: answer.kind, stepIndex: answer.stepIndex, reply: answer.reply });
        send(res, answer.reply);
      },
      (error: unknown) => send(res, json({ error: String(error) }, 400)),
    );
  });
  server.on('connect', (req, socket) => {
    escapes.push(`CONNECT ${req.url ?? ''}`);
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  // A second server object for the socket: one http.Server listens once.
  const onSocket = http.createServer((req, res) => server.emit('request', req, res));
  onSocket.on('connect', (req, socket, head) => server.emit('connect', req, socket, head));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  fs.rmSync(options.socketPath, { force: true });
  await new Promise<void>((resolve, reject) => {
    onSocket.once('error', reject);
    onSocket.listen(options.socketPath, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  self = `http://127.0.0.1:${port}/`;
  const close = (one: http.Server) =>
    new Promise<void>((resolve) => {
      one.closeAllConnections();
      one.close(() => resolve());
    });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    socketPath: options.socketPath,
    requests,
    escapes,
    play(next) {
      scripts = next;
    },
    async close() {
      await Promise.all([close(server), close(onSocket)]);
    },
  };
}
