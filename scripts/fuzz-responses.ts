/**
 * Seeded mutations of what the outside world answers, for the response fuzz test
 * (`test/fuzz-responses.test.ts`) and `npm run fuzz -- --responses`: a real node:http server on
 * 127.0.0.1 that plays an OpenAI-compatible API (for a `model` target and an LLM judge) and a
 * plain JSON endpoint (for an `http` target), answering each request with a mutation of a valid
 * answer (the server: scripts/fuzz-response-server.ts), and a real node script (for a `command`
 * target, scripts/fuzz-command.ts) that misbehaves the same way.
 *
 * Each case of a fuzzed suite names its mutation (`case N: NAME` in the prompt, `?n=N&m=NAME` in
 * the URL, the script's arguments), so what a request gets depends on the seed, the case and the
 * attempt, never on the order requests arrive in. Each mutation says what the case must end as:
 * `ok` (no error), `any` (scored either way, no error expected or refused), or a pattern the
 * error must match: the message has to name what was wrong.
 */
import type { ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';

let bomb: Buffer | undefined;
/** 64 MiB of zeros, gzipped once (a few hundred KB). */
function gzipBomb(): Buffer {
  bomb ??= gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
  return bomb;
}

/** Which side of the outside world a request or a case is. */
export type ResponseSide = 'model' | 'model-json' | 'judge' | 'http' | 'http-whole';

/** What a case must end as: no error, either, or an error (of the case or the judge) matching. */
export type Expectation = 'ok' | 'any' | RegExp;

/** A valid answer, as the mutation gets it to spoil. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What a mutation sees of its request. */
export interface MutationContext {
  side: ResponseSide;
  /** 0 for the first request of this case, 1 for its first retry, … */
  attempt: number;
  /** The request's Authorization header (the secret a server may echo). */
  authorization: string;
  /** The request target, path and query. */
  url: string;
  /** Seeded for this case and attempt. */
  next: () => number;
}

interface Mutation {
  /** Per side: what the case must end as (absent: the mutation does not apply there). */
  expect: Partial<Record<ResponseSide, Expectation>>;
  answer: (valid: Answer, ctx: MutationContext, res: ServerResponse) => void;
}

export const JSON_TYPE = { 'content-type': 'application/json' };
const ALL = (expectation: Expectation): Partial<Record<ResponseSide, Expectation>> => ({
  model: expectation,
  judge: expectation,
  http: expectation,
});

/**
 * The sides that read the same answers as another, unless a mutation says otherwise: a model
 * target asking for JSON (`responseFormat: json`) as one asking for text, an http target
 * without `output:` (the whole answer) as one with.
 */
const LIKE: Partial<Record<ResponseSide, ResponseSide>> = {
  'model-json': 'model',
  'http-whole': 'http',
};

/** A cut or a byte of garbage at a seeded place of `text`. */
function cut(text: string, next: () => number): string {
  return text.slice(0, 1 + Math.floor(next() * (text.length - 2)));
}

/** The valid answer with `content` as the reply's text (model), the verdict (judge) or `answer`. */
function withContent(valid: Answer, side: ResponseSide, content: unknown): string {
  const body = JSON.parse(valid.body) as Record<string, unknown>;
  if (side === 'http' || side === 'http-whole') return JSON.stringify({ ...body, answer: content });
  const choices = body.choices as { message: Record<string, unknown> }[];
  const message = choices[0]!.message;
  if (side === 'model' || side === 'model-json') message.content = content;
  else {
    const calls = message.tool_calls as { function: { arguments: string } }[];
    calls[0]!.function.arguments = typeof content === 'string' ? content : JSON.stringify(content);
  }
  return JSON.stringify(body);
}

/** Answers `res` whole. */
export function send(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: string,
): void {
  res.writeHead(status, headers);
  res.end(body);
}

/** The catalogue. Keys are the names cases carry; keep them `[a-z0-9-]`. */
export const MUTATIONS: Record<string, Mutation> = {
  valid: { expect: ALL('ok'), answer: (v, _c, res) => send(res, v.status, v.headers, v.body) },
  'truncated-json': {
    expect: { ...ALL(/JSON/), 'http-whole': /JSON/ },
    answer: (v, c, res) => send(res, 200, v.headers, cut(v.body, c.next)),
  },
  'malformed-json': {
    expect: ALL(/JSON/),
    answer: (v, c, res) => {
      const breakages = [
        (b: string) => `${b.slice(0, -1)},}`,
        (b: string) => b.replace('"', "'"),
        (b: string) => `${b}}`,
        (b: string) => b.replace(':', ' '),
        (b: string) => `${b.slice(0, -1)}, "n": NaN}`,
      ];
      send(res, 200, v.headers, breakages[Math.floor(c.next() * breakages.length)]!(v.body));
    },
  },
  'echo-auth-bad-json': {
    // The key where the JSON goes wrong: a parser's message quotes what it found there.
    expect: { ...ALL(/JSON/), 'http-whole': /JSON/ },
    answer: (_v, c, res) =>
      send(res, 200, JSON_TYPE, `{"answer": ${c.authorization.replace(/^Bearer /, '')}}`),
  },
  'empty-body': {
    expect: { ...ALL(/empty|JSON/i), 'http-whole': /empty/ },
    answer: (v, _c, res) => send(res, 200, v.headers, ''),
  },
  'content-number': {
    expect: {
      model: /content/i,
      'model-json': 'any',
      judge: /verdict|choice|tool|argument|answer/i,
      http: 'any',
    },
    answer: (v, c, res) => send(res, 200, v.headers, withContent(v, c.side, 42)),
  },
  'content-object': {
    expect: { model: /content/, judge: /choice/, http: 'any' },
    answer: (v, c, res) => send(res, 200, v.headers, withContent(v, c.side, { text: 'no' })),
  },
  'content-list-of-numbers': {
    expect: { model: /content/, judge: /verdict/, http: 'any' },
    answer: (v, c, res) => send(res, 200, v.headers, withContent(v, c.side, [1, 2])),
  },
  'content-null': {
    expect: { model: /no text/, judge: /verdict/, http: 'any' },
    answer: (v, c, res) => send(res, 200, v.headers, withContent(v, c.side, null)),
  },
  'missing-choices': {
    expect: {
      model: /choices/i,
      judge: /choices|tool|verdict/i,
      http: /answer|output|path/i,
      'http-whole': 'ok',
    },
    answer: (_v, _c, res) => send(res, 200, JSON_TYPE, '{"id":"x","object":"chat.completion"}'),
  },
  'choices-wrong-type': {
    expect: { model: /choices/i, judge: /choices|tool|verdict/i, http: 'any', 'http-whole': 'ok' },
    answer: (_v, _c, res) => send(res, 200, JSON_TYPE, '{"choices":"many","answer":null}'),
  },
  'choice-without-message': {
    expect: {
      model: /message/i,
      judge: /message|tool|verdict/i,
      http: /answer|output|path/i,
      'http-whole': 'ok',
    },
    answer: (_v, _c, res) => send(res, 200, JSON_TYPE, '{"choices":[{"index":0}]}'),
  },
  'json-array': {
    expect: {
      model: /JSON object/,
      judge: /JSON object/,
      http: /answer|output|path/i,
      'http-whole': 'ok',
    },
    answer: (_v, _c, res) => send(res, 200, JSON_TYPE, '[1,2,3]'),
  },
  'huge-padding': {
    expect: ALL('ok'),
    answer: (v, c, res) => {
      const body = JSON.parse(v.body) as Record<string, unknown>;
      body.padding = 'p'.repeat(1_000_000 + Math.floor(c.next() * 2_000_000));
      send(res, 200, v.headers, JSON.stringify(body));
    },
  },
  'huge-garbage': {
    expect: { ...ALL(/JSON/), 'http-whole': /JSON/ },
    answer: (v, _c, res) => send(res, 200, v.headers, '<'.repeat(3_000_000)),
  },
  'invalid-utf8': {
    expect: ALL(/UTF-8/),
    answer: (v, c, res) => {
      const text = withContent(
        v,
        c.side,
        c.side === 'judge' ? '{"choice":"yes","reason":"MARK"}' : 'caf MARK',
      );
      const [head, tail] = text.split('MARK') as [string, string];
      res.writeHead(200, v.headers);
      res.end(
        Buffer.concat([Buffer.from(head), Buffer.from([0xe9, 0xff, 0xc3]), Buffer.from(tail)]),
      );
    },
  },
  'html-content-type': {
    expect: { ...ALL('any'), 'http-whole': 'any' },
    answer: (v, _c, res) => send(res, 200, { 'content-type': 'text/html' }, v.body),
  },
  'html-error-page': {
    expect: ALL(/502|Bad Gateway/),
    answer: (_v, _c, res) =>
      send(
        res,
        502,
        { 'content-type': 'text/html' },
        '<html><body><h1>502 Bad Gateway</h1>nginx</body></html>',
      ),
  },
  'html-200': {
    expect: { ...ALL(/JSON/), 'http-whole': /JSON/ },
    answer: (_v, _c, res) =>
      send(res, 200, { 'content-type': 'application/json' }, '<!DOCTYPE html><html>login</html>'),
  },
  'cut-mid-body': {
    expect: ALL(/closed|socket|terminated|aborted|reset|ended|drop|UND_ERR|body/i),
    answer: (v, c, res) => {
      res.writeHead(200, v.headers);
      res.write(cut(v.body, c.next));
      setTimeout(() => res.destroy(), 20);
    },
  },
  'content-length-too-long': {
    expect: ALL(/closed|socket|terminated|aborted|reset|ended|drop|UND_ERR|body|length/i),
    answer: (v, _c, res) => {
      res.writeHead(200, { ...v.headers, 'content-length': String(v.body.length + 50) });
      res.write(v.body);
      setTimeout(() => res.destroy(), 20);
    },
  },
  'slow-drip': {
    expect: ALL('ok'),
    answer: (v, c, res) => {
      res.writeHead(200, v.headers);
      const pieces = 3 + Math.floor(c.next() * 5);
      const size = Math.ceil(v.body.length / pieces);
      let i = 0;
      const drip = (): void => {
        if (res.destroyed) return;
        if (i >= v.body.length) return void res.end();
        res.write(v.body.slice(i, i + size));
        i += size;
        setTimeout(drip, 40);
      };
      drip();
    },
  },
  stall: {
    // Headers, then nothing until the per-attempt timeout (model and judge: http has none).
    expect: { model: /timed out/, judge: /timed out/ },
    answer: (v, _c, res) => {
      res.writeHead(200, v.headers);
      res.write(v.body.slice(0, 5));
    },
  },
  'redirect-same-origin': {
    expect: ALL('ok'),
    answer: (v, c, res) =>
      c.attempt === 0
        ? send(res, 307, { location: c.url.includes('?') ? `${c.url}&r=1` : `${c.url}?r=1` }, '')
        : send(res, v.status, v.headers, v.body),
  },
  'redirect-other-origin': {
    expect: ALL(/another origin/),
    answer: (_v, c, res) => send(res, 302, { location: `http://localhost:1${c.url}` }, ''),
  },
  'latin1-declared': {
    expect: { ...ALL('ok'), 'model-json': /JSON/ },
    answer: (v, c, res) => {
      const text = withContent(
        v,
        c.side,
        c.side === 'judge' ? { choice: 'yes', reason: 'caf\u00e9' } : 'caf\u00e9',
      );
      res.writeHead(200, { 'content-type': 'application/json; charset=iso-8859-1' });
      res.end(Buffer.from(text, 'latin1'));
    },
  },
  'json-null': {
    expect: { model: /JSON object/, judge: /JSON object/, http: /answer/, 'http-whole': 'any' },
    answer: (_v, _c, res) => send(res, 200, JSON_TYPE, 'null'),
  },
  'usage-garbage': {
    expect: ALL('ok'),
    answer: (v, c, res) => {
      const body = JSON.parse(v.body) as Record<string, unknown>;
      const usages: unknown[] = [
        { prompt_tokens: 'many', completion_tokens: -5 },
        { prompt_tokens: 1e308, completion_tokens: 1e308, total_tokens: null },
        { prompt_tokens: 1.5, completion_tokens: [] },
        'lots',
        null,
      ];
      body.usage = usages[Math.floor(c.next() * usages.length)];
      send(res, 200, v.headers, JSON.stringify(body));
    },
  },
  refusal: {
    expect: { model: /refused/, judge: /verdict|refus/ },
    answer: (v, c, res) => {
      const body = JSON.parse(v.body) as { choices: { message: Record<string, unknown> }[] };
      body.choices[0]!.message = {
        role: 'assistant',
        content: null,
        refusal: `no, ${c.authorization}`,
      };
      send(res, 200, v.headers, JSON.stringify(body));
    },
  },
  'gzip-bomb': {
    // A few hundred KB that inflate to 64 MiB: the 16 MiB cap is on what is read, not on the wire.
    // Inflating 16 MiB can outlast a 2 s attempt on a loaded machine: a time-out is fair too.
    expect: ALL(/16 MiB|timed out/),
    answer: (v, _c, res) => {
      res.writeHead(200, { ...v.headers, 'content-encoding': 'gzip' });
      res.end(gzipBomb());
    },
  },
  'redirect-echo-auth': {
    expect: ALL(/another origin/),
    answer: (_v, c, res) =>
      send(
        res,
        302,
        { location: `http://localhost:1/x?token=${c.authorization.replace(/^Bearer /, '')}` },
        '',
      ),
  },
  'escapes-in-error': {
    expect: ALL(/400/),
    answer: (_v, _c, res) =>
      send(
        res,
        400,
        { 'content-type': 'text/plain' },
        'bad \u001b[2J\u001b]0;owned\u0007 request\r\nreally',
      ),
  },
  'escapes-in-answer': {
    expect: { ...ALL('ok'), 'model-json': /JSON/ },
    answer: (v, c, res) =>
      send(
        res,
        200,
        v.headers,
        withContent(
          v,
          c.side,
          c.side === 'judge' ? { choice: 'yes', reason: '\u001b[2J' } : 'fi\u001b[2Jne\u0007',
        ),
      ),
  },
  'header-overflow': {
    expect: ALL(/header|UND_ERR|overflow|failed/i),
    answer: (v, _c, res) =>
      send(res, 200, { ...v.headers, 'x-padding': 'h'.repeat(80_000) }, v.body),
  },
  'no-content': {
    expect: { ...ALL(/empty|JSON/i), 'http-whole': 'any' },
    answer: (_v, _c, res) => send(res, 204, {}, ''),
  },
  'proto-keys': {
    expect: ALL('ok'),
    answer: (v, _c, res) => {
      const body = v.body.replace(
        /^\{/,
        '{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}},',
      );
      send(res, 200, v.headers, body);
    },
  },
  'server-error': {
    expect: ALL(/50\d/),
    answer: (_v, c, res) =>
      send(res, 500 + Math.floor(c.next() * 4), JSON_TYPE, '{"error":{"message":"overloaded"}}'),
  },
  'server-error-once': {
    expect: ALL('ok'),
    answer: (v, c, res) =>
      c.attempt === 0
        ? send(res, 503, { ...JSON_TYPE, 'retry-after': '0' }, '{"error":"busy"}')
        : send(res, v.status, v.headers, v.body),
  },
  'rate-limited-once': {
    expect: ALL('ok'),
    answer: (v, c, res) =>
      c.attempt === 0
        ? send(res, 429, { ...JSON_TYPE, 'retry-after': '1' }, '{"error":{"message":"slow down"}}')
        : send(res, v.status, v.headers, v.body),
  },
  'rate-limited': {
    expect: ALL(/429/),
    answer: (_v, _c, res) =>
      send(res, 429, { ...JSON_TYPE, 'retry-after': '0' }, '{"error":{"message":"slow down"}}'),
  },
  'retry-after-huge': {
    expect: ALL(/429|503|wait/),
    answer: (_v, _c, res) =>
      send(
        res,
        503,
        { ...JSON_TYPE, 'retry-after': '3600' },
        '{"error":{"message":"maintenance"}}',
      ),
  },
  'retry-after-garbage': {
    expect: ALL(/503/),
    answer: (_v, c, res) =>
      send(
        res,
        503,
        { ...JSON_TYPE, 'retry-after': c.next() < 0.5 ? 'soon' : 'Wed, 21 Oct 2015 07:28:00 GMT' },
        '{"error":{"message":"busy"}}',
      ),
  },
  'ratelimit-reset-garbage': {
    expect: ALL(/429/),
    answer: (_v, c, res) => {
      const resets = ['1e400s', '-5s', 'NaN', '999999h', '0.001ms', '1h2m3s4ms', '', '\u00b5'];
      const reset = resets[Math.floor(c.next() * resets.length)]!;
      send(
        res,
        429,
        { ...JSON_TYPE, 'x-ratelimit-reset-requests': reset, 'x-ratelimit-reset-tokens': reset },
        '{"error":{"message":"slow down"}}',
      );
    },
  },
  'client-error': {
    expect: ALL(/40\d/),
    answer: (_v, c, res) =>
      send(
        res,
        [400, 401, 403, 404][Math.floor(c.next() * 4)]!,
        JSON_TYPE,
        '{"error":{"message":"no"}}',
      ),
  },
  'echo-auth-error': {
    expect: ALL(/40\d|redacted/),
    answer: (_v, c, res) => {
      // Padding of a seeded length puts the secret across every place a message is cut.
      const pad = 'x'.repeat(Math.floor(c.next() * 2200));
      send(
        res,
        401,
        JSON_TYPE,
        JSON.stringify({ error: { message: `${pad} bad key: ${c.authorization} ${pad}` } }),
      );
    },
  },
  'echo-auth-answer': {
    expect: { model: 'ok', 'model-json': /JSON/, judge: /chose|choice/, http: 'ok' },
    answer: (v, c, res) => {
      // Padding of seeded lengths on both sides puts the key across every place a text is cut.
      const pad = 'y'.repeat(Math.floor(c.next() * 1200));
      const after = c.next() < 0.5 ? '' : ' z'.repeat(Math.floor(c.next() * 1500));
      const echoed = `${pad}you sent ${c.authorization}${after}`;
      send(
        res,
        200,
        v.headers,
        withContent(v, c.side, c.side === 'judge' ? { choice: echoed } : echoed),
      );
    },
  },
  'echo-auth-200-error': {
    expect: { ...ALL(/error|answer|choices|output/i), 'http-whole': 'ok' },
    answer: (_v, c, res) =>
      send(
        res,
        200,
        JSON_TYPE,
        JSON.stringify({ error: { message: `quota for ${c.authorization}` } }),
      ),
  },
  'bad-gzip': {
    expect: ALL(/gzip|decompress|header|incorrect|zlib|body|terminated/i),
    answer: (v, _c, res) => send(res, 200, { ...v.headers, 'content-encoding': 'gzip' }, v.body),
  },
  'deep-nesting': {
    expect: {
      model: /nested|content/,
      'model-json': /nested|content/,
      judge: /nested|verdict/,
      http: 'any',
    },
    answer: (v, c, res) => {
      const depth = 500 + Math.floor(c.next() * 60_000);
      const body = withContent(v, c.side, 'DEEP').replace(
        '"DEEP"',
        `${'['.repeat(depth)}${']'.repeat(depth)}`,
      );
      send(res, 200, v.headers, body);
    },
  },
};

/** The mutation names that apply to `side`. */
export function mutationsFor(side: ResponseSide): string[] {
  return Object.keys(MUTATIONS).filter((name) => expectationOf(side, name) !== undefined);
}

/** What a case of `side` carrying mutation `name` must end as. */
export function expectationOf(side: ResponseSide, name: string): Expectation | undefined {
  const expect = MUTATIONS[name]?.expect;
  const like = LIKE[side];
  return expect?.[side] ?? (like === undefined ? undefined : expect?.[like]);
}
