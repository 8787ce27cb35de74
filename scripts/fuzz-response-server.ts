/**
 * The loopback server of the response fuzz: a real node:http server on 127.0.0.1 that finds the
 * case a request is for (`case N: NAME` in a model or judge prompt, `?n=N&m=NAME` in an http
 * target's URL), makes the valid answer, and lets the case's mutation (scripts/fuzz-responses.ts)
 * answer in its place, seeded by the seed, the case and the attempt.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { random } from './fuzz-inputs.ts';
import { JSON_TYPE, MUTATIONS, send, type Answer, type ResponseSide } from './fuzz-responses.ts';

/** The valid answer of `side` to a request whose parsed body is `request`. */
function validAnswer(side: ResponseSide, request: unknown): Answer {
  if (side === 'http' || side === 'http-whole') {
    return { status: 200, headers: JSON_TYPE, body: '{"answer":"fine","id":7}' };
  }
  const body = (typeof request === 'object' && request !== null ? request : {}) as {
    model?: unknown;
    tools?: {
      function?: { name?: string; parameters?: { properties?: { choice?: { enum?: unknown[] } } } };
    }[];
  };
  const tool = body.tools?.[0]?.function;
  const message =
    side === 'judge' && tool?.name !== undefined
      ? {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: {
                name: tool.name,
                arguments: JSON.stringify({
                  choice: tool.parameters?.properties?.choice?.enum?.[0] ?? 'yes',
                  reason: 'fits',
                }),
              },
            },
          ],
        }
      : { role: 'assistant', content: side === 'model-json' ? '{"answer":"fine"}' : 'fine' };
  return {
    status: 200,
    headers: JSON_TYPE,
    body: JSON.stringify({
      id: 'chatcmpl-fuzz',
      object: 'chat.completion',
      model: typeof body.model === 'string' ? body.model : 'm',
      choices: [{ index: 0, message, finish_reason: 'stop' }],
      usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
    }),
  };
}

/** A 32-bit hash of `text` (FNV-1a), to seed a case's answers. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The running server: where it listens, what it was asked, and how to stop it. */
export interface ResponseServer {
  /** `http://127.0.0.1:PORT` */
  base: string;
  requests: number;
  close(): Promise<void>;
}

/** Which side a request path is, and its case (`N: NAME`) from the query or the body. */
function locate(
  req: IncomingMessage,
  text: string,
): { side: ResponseSide; n: string; m: string } | null {
  const url = new URL(req.url ?? '/', 'http://x');
  const first = url.pathname.split('/')[1] ?? '';
  const sides: readonly string[] = ['model', 'model-json', 'judge', 'http', 'http-whole'];
  if (!sides.includes(first)) return null;
  const side = first as ResponseSide;
  if (side === 'http' || side === 'http-whole')
    return { side, n: url.searchParams.get('n') ?? '', m: url.searchParams.get('m') ?? '' };
  const found = /case (\d+): ([a-z0-9-]+)/.exec(text);
  return found ? { side, n: found[1]!, m: found[2]! } : null;
}

/** Starts the mutating server for `seed` on 127.0.0.1 at a port the system picks. */
export async function startResponseServer(seed: number): Promise<ResponseServer> {
  const attempts = new Map<string, number>();
  const state = { requests: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      state.requests++;
      const text = Buffer.concat(chunks).toString('utf8');
      const at = locate(req, text);
      if (at === null) return send(res, 404, JSON_TYPE, '{"error":{"message":"no such route"}}');
      const key = `${at.side} ${at.n} ${at.m}`;
      const attempt = attempts.get(key) ?? 0;
      attempts.set(key, attempt + 1);
      let request: unknown;
      try {
        request = JSON.parse(text);
      } catch {
        request = undefined;
      }
      const mutation = MUTATIONS[at.m] ?? MUTATIONS.valid!;
      mutation.answer(
        validAnswer(at.side, request),
        {
          side: at.side,
          attempt,
          authorization: req.headers.authorization ?? '',
          url: req.url ?? '/',
          next: random(hash(`${seed} ${key} ${attempt}`)),
        },
        res,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get requests() {
      return state.requests;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
