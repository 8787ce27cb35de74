/**
 * A model API (or judge) that answers 200 with JSON nested tens of thousands of levels deep (a
 * broken gateway, a hostile server) parses, but the client's scrubbing of the answer recursed
 * through it and overflowed the stack: the case (or the judge's evaluation) errored with
 * `Maximum call stack size exceeded`, which names neither the request nor what was wrong. Found
 * by the response fuzz (scripts/fuzz-responses.ts, `deep-nesting`). Such an answer is refused
 * where it is read, as malformed, naming the request and the nesting.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_ANSWER_NESTING, nestsDeeperThan } from '../src/judge/json-depth.ts';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

const KEY = 'sk-deep-json-answer-SECRET-2468';
const DEPTH = 30_000;

/** A chat completion whose content (and, for a judge, tool arguments' neighbour) nests DEPTH deep. */
const server = useLoopbackServer((req, res) => {
  req.resume().on('end', () => {
    const deep = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;
    const body = `{"choices":[{"index":0,"message":{"role":"assistant","content":${deep}},"finish_reason":"stop"}]}`;
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
});

const NESTED = new RegExp(
  `^(?:judge call failed: )?POST http://127\\.0\\.0\\.1:\\d+/v1/chat/completions answered 200 with JSON nested more than ${MAX_ANSWER_NESTING} levels deep`,
);

describe('a model answer nested thousands of levels deep', () => {
  it('is a model target case error naming the request and the nesting', async () => {
    const dir = jsonlProject(
      [{ q: 'x' }],
      [
        'target:',
        '  type: model',
        '  model: m',
        `  baseUrl: ${server.base}/v1`,
        '  apiKey: ${KEY}',
        '  maxRetries: 0',
        '  prompt: "{{ case.q }}"',
      ],
    );
    const result = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir, { KEY });
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(artifactCases(dir)[0]!.cases[0]!.error ?? '', NESTED);
  });

  it("is an LLM judge's evaluation error naming the request and the nesting", async () => {
    const dir = jsonlProject(
      [{ q: 'x', output: 'fine' }],
      [
        'evaluators:',
        '  - use: llm-judge',
        `    judge: { model: j, baseUrl: "${server.base}/v1", apiKey: "\${KEY}", maxRetries: 0 }`,
        '    with: { prompt: "ok? {{output}}", choices: { "yes": 1, "no": 0 } }',
      ],
    );
    const result = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir, { KEY });
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(artifactCases(dir)[0]!.cases[0]!.evaluations[0]!.error ?? '', NESTED);
  });

  it('the depth is counted outside strings only, escapes included', () => {
    assert.equal(nestsDeeperThan('[[["[[[[\\"[["]]]', 3), false);
    assert.equal(nestsDeeperThan('[[[{"a":1}]]]', 3), true);
    assert.equal(nestsDeeperThan('{"a":"\\\\"}', 1), false);
  });
});
