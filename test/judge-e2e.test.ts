/**
 * Judge evaluators end to end: the built CLI runs evals.yaml suites whose judges call an
 * OpenAI-compatible server on loopback. Covers the cache (a re-run sends nothing and says so),
 * rate limits and faults, both battle orders, the per-evaluator cap, the API key staying out of
 * every output, and the config errors of judge settings.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import type { ResultsArtifact } from '../src/types/index.ts';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

const API_KEY = 'sk-e2e-SECRET-8d1f0a77c3';

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));
beforeEach(() => {
  // Unless a test scripts otherwise, the judge says "yes": llm-judge's passing choice.
  server.setResponder(() => ({ toolArguments: { reason: 'matches', choice: 'yes' } }));
});

/** `count` CSV rows: question i, expected answer i. */
function csv(count: number): string {
  const lines = ['id,question,answer'];
  for (let i = 1; i <= count; i++) lines.push(`q${i},What is ${i} + ${i}?,${2 * i}`);
  return `${lines.join('\n')}\n`;
}

/** A project whose suite echoes the answer and is scored by `evaluators` (YAML list items). */
function project(options: {
  cases?: number;
  evaluators: string;
  judge?: string;
  suiteExtra?: string;
}): string {
  const dir = scratch();
  writeFiles(dir, {
    'cases.csv': csv(options.cases ?? 3),
    'answer.js':
      'export function answer({ testCase }) { return `The answer is ${testCase.answer}.`; }\n',
    'evals.yaml': `version: 1
defaults:
  judge:
    model: judge-mini
    baseUrl: ${server.url}
    apiKey: \${JUDGE_KEY}
    maxRetries: 2
    prices: { judge-mini: { prompt: 0.5, completion: 1.5 } }
${options.judge ?? ''}
suites:
  - id: qa
    testset: { path: cases.csv }
    function: ./answer.js#answer
${options.suiteExtra ?? ''}
    evaluators:
${options.evaluators}
`,
  });
  return dir;
}

const LLM_JUDGE = `      - id: helpful
        use: llm-judge
        with:
          prompt: "Question: {{case.question}}\\nAnswer: {{output}}\\nIs the answer correct?"
          choices: { "yes": 1, "no": 0 }
        threshold: { gte: 1 }`;

function run(dir: string, ...args: string[]) {
  return runCli(['run', 'evals.yaml', '-o', 'results.json', ...args], {
    cwd: dir,
    env: { JUDGE_KEY: API_KEY, OPENAI_API_KEY: '', OPENAI_BASE_URL: '' },
    timeoutMs: 90_000,
  });
}

function artifactOf(dir: string): ResultsArtifact {
  return JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as ResultsArtifact;
}

/** Every file under `dir`, recursively (bounded by the tree, which the test made). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile());
}

describe('llm-judge through evals run', () => {
  it('a second run of 50 cases is served wholly from the cache and says so', async () => {
    const dir = project({ cases: 50, evaluators: LLM_JUDGE });

    const first = await run(dir);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(server.requests.length, 50);
    const firstArtifact = artifactOf(dir);
    const { cost, ...counts } = firstArtifact.usage ?? { cost: null };
    assert.deepEqual(counts, {
      calls: 50,
      cacheHits: 0,
      promptTokens: 50 * 42,
      completionTokens: 50 * 7,
      latencyMs: firstArtifact.usage?.latencyMs,
    });
    // $0.5 and $1.5 per million prompt and completion tokens.
    assert.ok(Math.abs((cost ?? 0) - (2100 * 0.5 + 350 * 1.5) / 1e6) < 1e-12);
    const evaluation = firstArtifact.runs[0]?.cases[0]?.evaluations[0];
    assert.equal(evaluation?.usage?.calls, 1);
    assert.deepEqual(evaluation?.metadata, { choice: 'yes', reason: 'matches' });
    assert.match(first.stdout, /model calls: 50 · tokens: 2,100 prompt \+ 350 completion/);
    // The prompt reached the server rendered for its case.
    const prompts = server.requests.map((r) => JSON.stringify(r.body));
    assert.ok(prompts.some((p) => p.includes('What is 7 + 7?') && p.includes('The answer is 14.')));

    server.reset();
    const second = await run(dir);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(server.requests.length, 0, 'no request reaches the server');
    const secondArtifact = artifactOf(dir);
    assert.deepEqual(secondArtifact.usage, {
      calls: 0,
      cacheHits: 50,
      promptTokens: 0,
      completionTokens: 0,
      cost: 0,
      latencyMs: 0,
    });
    for (const testCase of secondArtifact.runs[0]?.cases ?? []) {
      assert.equal(testCase.evaluations[0]?.usage?.cacheHits, 1);
      assert.equal(testCase.evaluations[0]?.score, 1);
    }
    assert.match(second.stdout, /model calls: 50, all from the cache/);
  });

  it('--no-cache sends every call and writes no cache; --cache-dir moves it', async () => {
    const dir = project({ cases: 4, evaluators: LLM_JUDGE });
    const noCache = await run(dir, '--no-cache');
    assert.equal(noCache.code, 0, noCache.stderr);
    assert.equal(server.requests.length, 4);
    assert.equal(existsSync(join(dir, '.evalgate')), false);

    const moved = await run(dir, '--cache-dir', 'judge-cache');
    assert.equal(moved.code, 0, moved.stderr);
    assert.equal(server.requests.length, 8);
    assert.equal(filesUnder(join(dir, 'judge-cache')).length, 4);
    assert.equal(existsSync(join(dir, '.evalgate')), false);
  });

  it('429 with Retry-After: 1 twice, then success: the evaluation passes after about 2 s', async () => {
    const dir = project({ cases: 1, evaluators: LLM_JUDGE });
    const limited = { status: 429, headers: { 'retry-after': '1' } };
    server.script(limited, limited, { toolArguments: { reason: 'ok', choice: 'yes' } });
    const started = Date.now();
    const result = await run(dir, '--no-cache');
    const elapsed = Date.now() - started;
    assert.equal(result.code, 0, result.stderr);
    assert.equal(server.requests.length, 3);
    assert.ok(elapsed >= 1900, `waited as asked twice (${elapsed} ms)`);
    const evaluation = artifactOf(dir).runs[0]?.cases[0]?.evaluations[0];
    assert.equal(evaluation?.passed, true);
    assert.equal(evaluation?.usage?.calls, 1);
  });

  it('a server that always answers 500 gives evaluation errors, and the artifact is written', async () => {
    const dir = project({ cases: 2, evaluators: LLM_JUDGE, judge: '    timeout: 5s' });
    server.setDefault({ status: 500 });
    const result = await run(dir, '--no-cache');
    assert.equal(result.code, 1, result.stderr);
    // maxRetries 2: three attempts per evaluation.
    assert.equal(server.requests.length, 6);
    const artifact = artifactOf(dir);
    for (const testCase of artifact.runs[0]?.cases ?? []) {
      const evaluation = testCase.evaluations[0];
      assert.equal(evaluation?.score, null);
      assert.match(evaluation?.error ?? '', /answered 500/);
      assert.equal(evaluation?.metadata?.attempts, 3);
      assert.equal(evaluation?.metadata?.status, 500);
      assert.equal(typeof evaluation?.metadata?.raw, 'string');
    }
    assert.equal(artifact.runs[0]?.summary.evaluators.helpful?.errors, 2);
  });

  it('an answer outside the choices is an evaluation error keeping the raw answer', async () => {
    const dir = project({ cases: 1, evaluators: LLM_JUDGE });
    server.script({ toolArguments: { reason: 'hmm', choice: 'maybe' } });
    const result = await run(dir, '--no-cache');
    assert.equal(result.code, 1, result.stderr);
    const evaluation = artifactOf(dir).runs[0]?.cases[0]?.evaluations[0];
    assert.equal(evaluation?.score, null);
    assert.match(String(evaluation?.metadata?.raw), /maybe/);
  });

  it('with concurrency: 3 on the judge, the server never sees more than 3 requests at once', async () => {
    server.setDefault({ delayMs: 60 });
    const dir = project({
      cases: 15,
      evaluators: `${LLM_JUDGE}\n        concurrency: 3`,
      suiteExtra: '    concurrency: 15',
    });
    const result = await run(dir, '--no-cache');
    assert.equal(result.code, 0, result.stderr);
    assert.equal(server.requests.length, 15);
    assert.equal(server.maxInFlight, 3);
  });

  it('the per-host cap holds across evaluators', async () => {
    server.setDefault({ delayMs: 60 });
    const second = LLM_JUDGE.replace('id: helpful', 'id: helpful-too');
    const dir = project({
      cases: 10,
      evaluators: `${LLM_JUDGE}\n${second}`,
      judge: '    hostConcurrency: 2',
      suiteExtra: '    concurrency: 10',
    });
    const result = await run(dir, '--no-cache');
    assert.equal(result.code, 0, result.stderr);
    assert.equal(server.requests.length, 20);
    assert.equal(server.maxInFlight, 2);
  });

  it('manual-battle sends both presentation orders', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'cases.csv': 'id,question,baseline\nq1,Name a colour,Blue-ish\n',
      'answer.js': 'export function answer() { return "Crimson red"; }\n',
      'evals.yaml': `version: 1
defaults:
  judge: { model: judge-mini, baseUrl: ${server.url}, apiKey: "\${JUDGE_KEY}" }
suites:
  - id: battle
    testset: { path: cases.csv }
    function: ./answer.js#answer
    evaluators:
      - use: manual-battle
        with: { baseline: "{{case.baseline}}", question: "{{case.question}}" }
`,
    });
    const result = await run(dir, '--no-cache');
    assert.ok(result.code === 0 || result.code === 1, result.stderr);
    assert.equal(server.requests.length, 2);
    const texts = server.requests.map((r) => JSON.stringify(r.body));
    const order = texts.map((text) => text.indexOf('Crimson red') < text.indexOf('Blue-ish'));
    assert.deepEqual(
      [...order].sort(),
      [false, true],
      'the output comes first in one request and second in the other',
    );
  });

  it('the API key is nowhere in stdout, stderr, the artifact, the cache or the JUnit file', async () => {
    const dir = project({ cases: 3, evaluators: LLM_JUDGE });
    server.script({ status: 500 }); // an error path too: error text must not carry the key
    const result = await run(dir, '--junit', 'junit.xml');
    assert.ok(result.code === 0 || result.code === 1, result.stderr);
    assert.ok(server.requests.length >= 3);
    for (const request of server.requests) {
      assert.equal(request.headers.authorization, `Bearer ${API_KEY}`);
    }
    const outputs = [
      result.stdout,
      result.stderr,
      readFileSync(join(dir, 'results.json'), 'utf8'),
      readFileSync(join(dir, 'junit.xml'), 'utf8'),
      ...filesUnder(join(dir, '.evalgate')).map((file) => readFileSync(file, 'utf8')),
    ];
    assert.ok(filesUnder(join(dir, '.evalgate')).length >= 3, 'the cache was written');
    for (const text of outputs) assert.equal(text.includes(API_KEY), false);
  });
});

describe('judge settings in evals.yaml', () => {
  it('a judge without a model is a config error at the evaluator', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'evals.yaml': `version: 1
suites:
  - id: s
    testset: { cases: [ { q: a } ] }
    evaluators:
      - use: llm-judge
        with: { prompt: "{{case.q}}", choices: { "yes": 1, "no": 0 } }
`,
    });
    const result = await runCli(['validate', 'evals.yaml'], { cwd: dir });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /evals\.yaml:6:\d+ .*model/);
    assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
  });

  it('judge: on a module or deterministic evaluator is refused with its position', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'tone.js': 'export function tone() { return { score: 1 }; }\n',
      'evals.yaml': `version: 1
suites:
  - id: s
    testset: { cases: [ { q: a } ] }
    evaluators:
      - use: ./tone.js#tone
        judge: { model: m }
      - use: is-equals
        with: { expected: a }
        judge: { model: m }
`,
    });
    const result = await runCli(['validate', 'evals.yaml'], { cwd: dir });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /evals\.yaml:10:\d+ .*is-equals does not call a model/);
    // Whether a module takes judge: (an SDK judge class does) is known once it is loaded, so
    // that check comes with the module checks, after the config's own.
    writeFiles(dir, {
      'evals.yaml': `version: 1
suites:
  - id: s
    testset: { cases: [ { q: a } ] }
    evaluators:
      - use: ./tone.js#tone
        judge: { model: m }
`,
    });
    const modules = await runCli(['validate', 'evals.yaml'], { cwd: dir });
    assert.equal(modules.code, 2);
    assert.match(modules.stderr, /evals\.yaml:7:\d+ .*judge: has no effect.*createJudgeClient/);
  });

  it('bad judge values are schema errors naming what was expected', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'evals.yaml': `version: 1
defaults:
  judge: { baseUrl: localhost:8080, temperature: 3, maxRetries: -1, timeout: soon }
suites:
  - id: s
    testset: { cases: [ { q: a } ] }
`,
    });
    const result = await runCli(['validate', 'evals.yaml'], { cwd: dir });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /baseUrl.*http/);
    assert.match(result.stderr, /temperature/);
    assert.match(result.stderr, /maxRetries/);
    assert.match(result.stderr, /timeout.*duration/);
  });
});
