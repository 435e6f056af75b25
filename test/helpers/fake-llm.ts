/**
 * A fake of the one outside service we do not run in tests: an OpenAI-compatible chat-completions server, real HTTP
 * on 127.0.0.1:0. It checks the request the way the real API would (POST /v1/chat/completions, JSON body with model,
 * messages and response_format json_schema {name, schema, strict}) and answers as scripted per test: given content,
 * a delay, an HTTP error, or a malformed body. Every request is recorded.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeLlmRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body (undefined when it did not parse). */
  body: any;
  /** The text of the user message(s), for assertions on the prompt. */
  prompt: string;
}

export interface FakeReply {
  /** The assistant message content: a value is JSON-encoded, a string is sent as is (so it may be broken JSON). */
  content?: unknown;
  /** HTTP status; non-2xx answers an OpenAI-style error body. */
  status?: number;
  /** Raw response body, sent instead of a chat completion (e.g. `{not json`). */
  raw?: string;
  /** Answer only after this many ms. */
  delayMs?: number;
  headers?: Record<string, string>;
  finishReason?: string;
}

export type FakeHandler = (request: FakeLlmRequest, index: number) => FakeReply;

export interface FakeLlm {
  /** Base URL to configure as LLM_BASE_URL: `http://127.0.0.1:PORT/v1`. */
  url: string;
  requests: FakeLlmRequest[];
  /** Replies used once each, in order, before the handler. */
  queue(...replies: FakeReply[]): void;
  /** Answers every request the queue does not (default: HTTP 500). */
  handle(handler: FakeHandler): void;
  close(): Promise<void>;
}

function validate(body: any): string | null {
  if (typeof body !== 'object' || body === null) return 'body must be a JSON object';
  if (typeof body.model !== 'string' || body.model === '') return 'model is required';
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    return 'messages must be a non-empty array';
  for (const m of body.messages) {
    if (!['system', 'user', 'assistant', 'developer'].includes(m?.role) || typeof m?.content !== 'string') {
      return 'each message needs a role and string content';
    }
  }
  const format = body.response_format;
  if (format?.type !== 'json_schema') return "response_format.type must be 'json_schema'";
  const js = format.json_schema;
  if (typeof js?.name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(js.name))
    return 'json_schema.name is invalid';
  if (typeof js.schema !== 'object' || js.schema === null || js.schema.type !== 'object')
    return 'json_schema.schema must be an object schema';
  if (js.strict !== true) return 'json_schema.strict must be true';
  return null;
}

export async function startFakeLlm(): Promise<FakeLlm> {
  const requests: FakeLlmRequest[] = [];
  const queued: FakeReply[] = [];
  let handler: FakeHandler = () => ({ status: 500 });
  const timers = new Set<NodeJS.Timeout>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: any;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
      };
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        send(404, { error: { message: `no route ${req.method} ${req.url}`, type: 'invalid_request_error' } });
        return;
      }
      const prompt = Array.isArray(body?.messages)
        ? body.messages
            .filter((m: any) => m?.role === 'user')
            .map((m: any) => String(m.content))
            .join('\n')
        : '';
      const request: FakeLlmRequest = {
        method: req.method,
        path: req.url,
        headers: req.headers,
        body,
        prompt,
      };
      const index = requests.push(request) - 1;
      const problem = validate(body);
      if (problem) {
        send(400, { error: { message: problem, type: 'invalid_request_error' } });
        return;
      }
      const reply = queued.shift() ?? handler(request, index);
      const answer = () => {
        const status = reply.status ?? 200;
        if (reply.raw !== undefined) return send(status, reply.raw, reply.headers);
        if (status < 200 || status > 299) {
          return send(
            status,
            { error: { message: `scripted ${status}`, type: 'server_error' } },
            reply.headers,
          );
        }
        const content =
          typeof reply.content === 'string' ? reply.content : JSON.stringify(reply.content ?? {});
        send(
          status,
          {
            id: `chatcmpl-fake-${index}`,
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model: body.model,
            choices: [
              {
                index: 0,
                message: { role: 'assistant', content, refusal: null },
                finish_reason: reply.finishReason ?? 'stop',
              },
            ],
            usage: {
              prompt_tokens: Math.ceil(text.length / 4),
              completion_tokens: Math.ceil(content.length / 4),
              total_tokens: 0,
            },
          },
          reply.headers,
        );
      };
      if (reply.delayMs) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          answer();
        }, reply.delayMs);
        timers.add(timer);
      } else answer();
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    queue: (...replies) => queued.push(...replies),
    handle: (next) => {
      handler = next;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
