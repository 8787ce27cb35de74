/**
 * The seeded project of the secret-channel fuzzes (`fuzz-secret-channels.test.ts` runs it with
 * the CLI, `fuzz-secret-channels-action.test.ts` with the Action): two secrets, the value of a
 * secret-named variable and a key the config reads from a variable whose name says nothing (a
 * secret because it is an `apiKey`), planted in every way in: testset cells, column names, case
 * ids and tags, a config value (an evaluator's `with:`, a grid value), a function target's output
 * and thrown errors, a custom evaluator's reason and thrown errors, and a loopback
 * OpenAI-compatible server's model answers, judge reasons and error bodies; each whole,
 * URL-encoded, base64-encoded or behind seeded padding so the places text is cut fall at every
 * offset of it. And what "no piece of a secret" means when the outputs are searched.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { random } from '../../scripts/fuzz-inputs.ts';
import type { OpenAiServer } from './openai-server.ts';

/** The seed of both fuzzes: the same projects, the same answers. */
export const SEED = 5407;

const ROWS = 30;
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789+/';

/** The two secrets of project `index`: 28 seeded characters, with `+` and `/` that URL-encoding changes. */
export function secretsOf(index: number): readonly [string, string] {
  const next = random(SEED + index);
  return [secretOf(next), secretOf(next)];
}

function secretOf(next: () => number): string {
  let out = '';
  while (out.length < 26) out += ALPHABET[Math.floor(next() * ALPHABET.length)];
  return `${out.slice(0, 9)}+${out.slice(9, 18)}/${out.slice(18)}`;
}

/**
 * Every 6 characters in a row of `secret`, as written and URL-encoded: the shortest piece of a
 * secret cut short that scrubbing promises to remove (`MIN_PARTIAL`, shared/secrets.ts); and
 * every 8 characters in a row of the characters that encode its bytes alone in base64 (either
 * alphabet), at each of the three byte offsets a longer text encoded can put it at
 * (docs/config.md#secrets).
 */
export function piecesOf(secret: string): string[] {
  const pieces = new Set<string>();
  for (const form of [secret, encodeURIComponent(secret)]) {
    for (let i = 0; i + 6 <= form.length; i++) pieces.add(form.slice(i, i + 6));
  }
  for (const prefix of ['', 'a', 'ab']) {
    for (const encoding of ['base64', 'base64url'] as const) {
      const encoded = Buffer.from(`${prefix}${secret}`).toString(encoding);
      const core = encoded.slice(prefix === '' ? 0 : 4, -4);
      for (let i = 0; i + 8 <= core.length; i++) pieces.add(core.slice(i, i + 8));
    }
  }
  return [...pieces];
}

/**
 * Where each secret's pieces are found in `outputs` (a name and a text each): one line per
 * output that holds one, with the text around the first; none when no output does.
 */
export function leaksIn(
  outputs: readonly (readonly [string, string])[],
  secrets: readonly string[],
): string[] {
  const leaks: string[] = [];
  for (const secret of secrets) {
    const pieces = piecesOf(secret);
    for (const [where, text] of outputs) {
      const piece = pieces.find((p) => text.includes(p));
      if (piece === undefined) continue;
      const at = text.indexOf(piece);
      leaks.push(`${where}: ${JSON.stringify(text.slice(Math.max(0, at - 80), at + 40))}`);
    }
  }
  return leaks;
}

/** Padding of a seeded length: short, or near the lengths messages and cells are cut at. */
export function padding(next: () => number): string {
  const near = [0, 12, 20, 40, 60, 80, 120, 200, 300, 500, 1000, 2000, 4096, 10000][
    Math.floor(next() * 14)
  ]!;
  return 'p'.repeat(Math.max(0, near - Math.floor(next() * 30)));
}

/**
 * The files of project `index`: rows, config, a function target and a custom evaluator. The
 * secrets reach the run as `FUZZ_SERVICE_TOKEN` and `FUZZ_PLAIN` (see {@link fuzzEnv}).
 */
export function projectFiles(
  index: number,
  secrets: readonly [string, string],
  server: string,
): Record<string, string> {
  const next = random(SEED * 7919 + index);
  const rows = Array.from({ length: ROWS }, (_, n) => {
    const secret = secrets[n % 2]!;
    const cell =
      n % 5 === 4 ? encodeURIComponent(secret) : `${padding(next)}${secret} ${padding(next)}`;
    return JSON.stringify({
      n,
      mode: n % 6,
      q: cell,
      pad: padding(next).length,
      ...(n % 3 === 2
        ? { __id__: `id-${n}-${padding(next).slice(0, 40)}${secret}`, __tags__: [secret, 'x'] }
        : {}),
      [n % 4 === 1 ? `k${secret}` : 'k']: 1,
    });
  });
  const config = `version: 1
defaults:
  concurrency: 4
  judge: { model: judge-m, baseUrl: "${server}", apiKey: "\${FUZZ_PLAIN}", maxRetries: 0, timeout: 5s }
suites:
  - id: fn
    testset: { path: rows.jsonl }
    function: ./fn.mjs#fn
    grid: { token: ["\${FUZZ_SERVICE_TOKEN}", plain] }
    evaluators:
      - { id: same, use: is-equals, with: { expected: "{{case.q}}" } }
      - { id: custom, use: ./check.mjs, with: { hint: "\${FUZZ_SERVICE_TOKEN}" } }
      - id: judged
        use: llm-judge
        with: { prompt: "case {{case.n}}: {{output}}", choices: { "yes": 1, "no": 0 } }
  - id: model
    testset: { path: rows.jsonl }
    target:
      type: model
      model: m
      baseUrl: "${server}"
      apiKey: "\${FUZZ_PLAIN}"
      prompt: "case {{case.n}} pad {{case.pad}}: {{case.q}}"
      maxRetries: 0
      timeout: 5s
    evaluators:
      - { id: same, use: is-equals, with: { expected: "{{case.q}}" } }
`;
  // What the function and the evaluator do with the secrets is picked by the row's `mode`.
  const fn = `export async function fn({ testCase, params }) {
  const pad = 'f'.repeat(testCase.pad);
  const token = process.env.FUZZ_SERVICE_TOKEN, plain = process.env.FUZZ_PLAIN;
  switch (testCase.mode) {
    case 0: return testCase.q;
    case 1: throw new Error(pad + 'refused key ' + plain + ' for ' + params.token);
    case 2: return { answer: pad + token, url: 'https://x.test/?k=' + encodeURIComponent(plain) };
    case 3: return pad + JSON.stringify({ token, plain });
    case 4: throw Object.assign(new TypeError(pad + encodeURIComponent(token)), { code: plain });
    default: return pad + params.token + ' ' + plain + ' ' + Buffer.from('f'.repeat(testCase.n % 3) + plain).toString('base64');
  }
}
`;
  const check = `export default ({ output, testCase }, { hint }) => {
  const pad = 'e'.repeat(testCase.pad);
  if (testCase.mode === 3) throw new Error(pad + 'evaluator saw ' + hint + ' ' + process.env.FUZZ_PLAIN);
  return { score: testCase.mode % 2, reason: pad + 'hint ' + hint + ' output ' + JSON.stringify(output) };
};
`;
  return {
    'evals.yaml': config,
    'rows.jsonl': rows.join('\n') + '\n',
    'fn.mjs': fn,
    'check.mjs': check,
  };
}

/** The environment that hands `secrets` to the project's config and code. */
export function fuzzEnv(secrets: readonly [string, string]): Record<string, string> {
  return { FUZZ_SERVICE_TOKEN: secrets[0], FUZZ_PLAIN: secrets[1] };
}

/**
 * The model's and the judge's answers: the key they were sent, echoed in seeded ways (whole,
 * URL-encoded, base64-encoded at a seeded byte offset of a longer text), in error bodies and in
 * answers.
 */
export function answerWith(server: OpenAiServer): void {
  server.setResponder((request) => {
    const key = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
    const n = Number(/case (\d+)/.exec(request.text)?.[1] ?? 0);
    const pad = 'm'.repeat(Number(/pad (\d+)/.exec(request.text)?.[1] ?? n * 37));
    const pick = (n + SEED) % 5;
    if (pick === 0) {
      return {
        status: 401,
        body: { error: { message: `${pad}Incorrect API key provided: ${key}` } },
      };
    }
    if (pick === 1) {
      const said =
        n % 2 === 0
          ? encodeURIComponent(key)
          : Buffer.from(`${pad.slice(0, n % 3)}upstream saw ${key}`).toString('base64');
      return { status: 500, body: `${pad}upstream said ${said}` };
    }
    const text = `${pad}the key is ${key}`;
    return {
      content: pick === 2 ? text : JSON.stringify({ text }),
      toolArguments: { choice: pick === 3 ? 'yes' : 'no', reason: text },
    };
  });
}

/** The files under `dir`, recursively; none when it does not exist. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile());
}
