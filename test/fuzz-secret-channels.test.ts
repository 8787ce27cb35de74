/**
 * A short seeded fuzz of where a secret can come in and where it must never come out
 * (docs/config.md#secrets). test/fuzz-responses.test.ts plants one secret-named key in what
 * servers and programs answer; this one plants two secrets, the value of a secret-named
 * variable and a key the config reads from a variable whose name says nothing (a secret because
 * it is an `apiKey`), in every other way in: testset cells, column names, case ids and tags, a config value (an evaluator's
 * `with:`, a grid value), a function target's output and thrown errors, a custom evaluator's
 * reason and thrown errors, and a loopback OpenAI-compatible server's model answers, judge
 * reasons and error bodies; each whole, URL-encoded, or behind seeded padding so the places text
 * is cut fall at every offset of it. The run, and every command that reads its results, runs
 * as the built CLI; no piece of either secret (any 6 characters of it, as written or
 * URL-encoded) may be in stdout, stderr, the artifact, the JUnit file, the HTML reports, the
 * cache, the markdown comparison, `evals show` or `evals testset show`.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { random } from '../scripts/fuzz-inputs.ts';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';
import { startOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

const SEED = 5407;
const ROWS = 30;
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789+/';

/** A secret of 28 seeded characters, with `+` and `/` that URL-encoding changes. */
function secretOf(next: () => number): string {
  let out = '';
  while (out.length < 26) out += ALPHABET[Math.floor(next() * ALPHABET.length)];
  return `${out.slice(0, 9)}+${out.slice(9, 18)}/${out.slice(18)}`;
}

/**
 * Every 6 characters in a row of `secret`, as written and URL-encoded: the shortest piece of a
 * secret cut short that scrubbing promises to remove (`MIN_PARTIAL`, shared/secrets.ts).
 */
function piecesOf(secret: string): string[] {
  const pieces = new Set<string>();
  for (const form of [secret, encodeURIComponent(secret)]) {
    for (let i = 0; i + 6 <= form.length; i++) pieces.add(form.slice(i, i + 6));
  }
  return [...pieces];
}

/** Padding of a seeded length: short, or near the lengths messages and cells are cut at. */
function padding(next: () => number): string {
  const near = [0, 12, 20, 40, 60, 80, 120, 200, 300, 500, 1000, 2000, 4096, 10000][
    Math.floor(next() * 14)
  ]!;
  return 'p'.repeat(Math.max(0, near - Math.floor(next() * 30)));
}

/** The files of project `index`: rows, config, a function target and a custom evaluator. */
function projectFiles(
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
    default: return pad + params.token + ' ' + plain;
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

/** The model's and the judge's answers: the key they were sent, echoed in seeded ways. */
function answerWith(server: OpenAiServer): void {
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
    if (pick === 1) return { status: 500, body: `${pad}upstream said ${encodeURIComponent(key)}` };
    const text = `${pad}the key is ${key}`;
    return {
      content: pick === 2 ? text : JSON.stringify({ text }),
      toolArguments: { choice: pick === 3 ? 'yes' : 'no', reason: text },
    };
  });
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile());
}

describe('fuzzed secrets in every channel', () => {
  let server: OpenAiServer;
  before(async () => {
    server = await startOpenAiServer();
    answerWith(server);
  });
  after(() => server.close());

  // One project of many rows: each command is a process, and those take most of the time.
  for (const index of [0]) {
    it(`project ${index} (seed ${SEED}): no piece of a secret in any output`, async () => {
      const next = random(SEED + index);
      const secrets = [secretOf(next), secretOf(next)] as const;
      const dir = scratch();
      writeFiles(dir, projectFiles(index, secrets, server.url));
      const env = { FUZZ_SERVICE_TOKEN: secrets[0], FUZZ_PLAIN: secrets[1], COLUMNS: '100' };
      const outputs: [string, string][] = [];
      const commands = [
        ['run', '-o', 'out.json', '--junit', 'junit.xml', '--report', 'run.html'],
        ['report', 'out.json', '-o', 'report.html'],
        ['show', 'out.json', '--limit', '100'],
        ['compare', 'out.json', 'out.json', '--format', 'md'],
        ['testset', 'show', 'rows.jsonl'],
      ];
      for (const argv of commands) {
        const r = await runCli(argv, { cwd: dir, env });
        const what = `evals ${argv[0]} ${argv[1]}`;
        assert.ok(r.code === 0 || r.code === 1, `${what}: exit ${r.code}\n${r.stderr}`);
        outputs.push([`${what} stdout`, r.stdout], [`${what} stderr`, r.stderr]);
      }
      for (const file of ['out.json', 'junit.xml', 'run.html', 'report.html'])
        outputs.push([file, readFileSync(join(dir, file), 'utf8')]);
      const cached = filesUnder(join(dir, '.evalgate'));
      assert.ok(cached.length > 0, 'the model and judge answers were cached');
      for (const path of cached)
        outputs.push([path.slice(dir.length + 1), readFileSync(path, 'latin1')]);

      // The secrets did reach the run: the cases say [redacted] where they were.
      assert.match(readFileSync(join(dir, 'out.json'), 'utf8'), /\[redacted\]/);
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
      assert.deepEqual(leaks, [], `secrets ${secrets.join(', ')}`);
    });
  }
});
