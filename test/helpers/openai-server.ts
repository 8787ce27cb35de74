/**
 * A stand-in for an OpenAI-compatible API on loopback, for tests of `src/judge/`: POST
 * `/v1/chat/completions` (content or a tool call, with usage) and POST `/v1/embeddings`. Every
 * request is recorded with its headers; answers can be scripted one request at a time (429 with
 * `Retry-After`, 500, a slow answer, malformed JSON, no tool call); the most requests ever in
 * flight at once is tracked. It fakes the parts the judge client depends on, nothing more.
 */
import { createServer } from 'node:http';
import { after, before, beforeEach } from 'node:test';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as received; `body` is the parsed JSON (undefined when it was not JSON). */
export interface RecordedRequest {
  method: string;
  path: string;
  /** The request target as sent, query included. */
  url: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  /** The body text as received. */
  text: string;
}

/**
 * A scripted answer for one request. Absent fields fall back to the normal answer: `status`
 * 200, the usual JSON body. `body` as a string is sent verbatim (for malformed JSON).
 */
export interface ScriptedAnswer {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Record<string, unknown>;
  /** Wait this long before answering (bounded by the server's close). */
  delayMs?: number;
  /** Answer with content only, even when the request forces a tool call. */
  noToolCall?: boolean;
  /** The forced tool call's arguments (an object, sent as JSON text); default `{"choice":"A","reason":"fits"}`. */
  toolArguments?: Record<string, unknown>;
  /** The chat answer's text content (when no tool call is sent); default `echo: <last message>`. */
  content?: string;
}

/** A running fake; close it in `after`. */
export interface OpenAiServer {
  /** `http://127.0.0.1:PORT/v1`, to pass as the client's `baseUrl`. */
  url: string;
  requests: RecordedRequest[];
  /** The most requests in flight at once since the last {@link OpenAiServer.reset}. */
  readonly maxInFlight: number;
  /** Queues answers for the next requests, in order; unscripted requests get the default. */
  script(...answers: ScriptedAnswer[]): void;
  /** Applies to every unscripted answer, e.g. `{ delayMs: 50 }` to let requests overlap. */
  setDefault(answer: ScriptedAnswer): void;
  /**
   * Decides unscripted answers from the request (e.g. a judge's verdict from the prompt). Its
   * fields override the default's; `undefined` keeps the default. Cleared by `reset`.
   */
  setResponder(
    responder: ((request: RecordedRequest) => ScriptedAnswer | undefined) | undefined,
  ): void;
  /** Clears requests, the script, the default and the in-flight maximum. */
  reset(): void;
  close(): Promise<void>;
}

const USAGE = { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The chat answer: a call of the first tool when tools are offered, else an echo. */
function chatAnswer(body: unknown, answer: ScriptedAnswer): Record<string, unknown> {
  const noToolCall = answer.noToolCall ?? false;
  const request = isRecord(body) ? body : {};
  const tools = Array.isArray(request.tools) ? request.tools : [];
  const first: unknown = tools[0];
  const toolName =
    isRecord(first) && isRecord(first.function) && typeof first.function.name === 'string'
      ? first.function.name
      : undefined;
  const messages = Array.isArray(request.messages) ? request.messages : [];
  const last: unknown = messages.at(-1);
  const said = isRecord(last) && typeof last.content === 'string' ? last.content : '';
  const message =
    toolName !== undefined && !noToolCall
      ? {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: {
                name: toolName,
                arguments: JSON.stringify(answer.toolArguments ?? { choice: 'A', reason: 'fits' }),
              },
            },
          ],
        }
      : { role: 'assistant', content: answer.content ?? `echo: ${said}` };
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    model: typeof request.model === 'string' ? request.model : 'unknown',
    choices: [{ index: 0, message, finish_reason: toolName ? 'tool_calls' : 'stop' }],
    usage: USAGE,
  };
}

/** Embeddings: a 3-dimensional vector per input derived from its length, deterministic. */
function embeddingsAnswer(body: unknown): Record<string, unknown> {
  const input = isRecord(body) && Array.isArray(body.input) ? body.input : [];
  return {
    object: 'list',
    data: input.map((text, index) => ({
      object: 'embedding',
      index,
      embedding: [String(text).length, 1, index],
    })),
    usage: { prompt_tokens: input.length * 3, total_tokens: input.length * 3 },
  };
}

/** Starts the fake on 127.0.0.1 at a free port. */
export async function startOpenAiServer(): Promise<OpenAiServer> {
  const requests: RecordedRequest[] = [];
  let queue: ScriptedAnswer[] = [];
  let defaults: ScriptedAnswer = {};
  let responder: ((request: RecordedRequest) => ScriptedAnswer | undefined) | undefined;
  let inFlight = 0;
  let maxInFlight = 0;
  const timers = new Set<NodeJS.Timeout>();

  const send = (
    res: ServerResponse,
    status: number,
    headers: Record<string, string>,
    body: string,
  ) => {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(body);
  };

  const server = createServer((req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let released = false;
    const release = (): void => {
      if (!released) {
        released = true;
        inFlight--;
      }
    };
    res.on('close', release);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const recorded = {
        method: req.method ?? '',
        path,
        url: req.url ?? '/',
        headers: req.headers,
        body,
        text,
      };
      requests.push(recorded);
      const scripted = queue.shift();
      const answer = { ...defaults, ...(scripted ?? responder?.(recorded) ?? {}) };
      const respond = (): void => {
        if (req.method !== 'POST') {
          send(res, 405, {}, JSON.stringify({ error: { message: 'POST only' } }));
        } else if (answer.body !== undefined) {
          const payload =
            typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
          send(res, answer.status ?? 200, answer.headers ?? {}, payload);
        } else if ((answer.status ?? 200) !== 200) {
          const message = `scripted ${answer.status}`;
          send(
            res,
            answer.status ?? 500,
            answer.headers ?? {},
            JSON.stringify({ error: { message } }),
          );
        } else if (path === '/v1/chat/completions') {
          const payload = JSON.stringify(chatAnswer(body, answer));
          send(res, 200, answer.headers ?? {}, payload);
        } else if (path === '/v1/embeddings') {
          send(res, 200, answer.headers ?? {}, JSON.stringify(embeddingsAnswer(body)));
        } else {
          send(res, 404, {}, JSON.stringify({ error: { message: `no route ${path}` } }));
        }
      };
      if (answer.delayMs !== undefined && answer.delayMs > 0) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          respond();
        }, answer.delayMs);
        timers.add(timer);
      } else {
        respond();
      }
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    get maxInFlight() {
      return maxInFlight;
    },
    script(...answers) {
      queue.push(...answers);
    },
    setResponder(next) {
      responder = next;
    },
    setDefault(answer) {
      defaults = answer;
    },
    reset() {
      requests.length = 0;
      queue = [];
      defaults = {};
      responder = undefined;
      maxInFlight = inFlight;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * One fake for a whole test file: started before its tests, reset before each, closed after
 * (then `cleanup`, e.g. removing temp folders). `use` receives the running server.
 */
export function useOpenAiServer(
  use: (server: OpenAiServer) => void,
  cleanup?: () => Promise<unknown>,
): void {
  let server: OpenAiServer | undefined;
  before(async () => {
    server = await startOpenAiServer();
    use(server);
  });
  after(async () => {
    await server?.close();
    await cleanup?.();
  });
  beforeEach(() => server?.reset());
}
