/**
 * A `__proto__` key the user wrote in evals.yaml is a key like any other: assigned into a fresh
 * object while templates are filled in, it would set that object's prototype instead, so the
 * request went out without a field the config has (and an evaluator's `expected` without the
 * key, a false verdict). An http target's body (at the top, nested, with and without templates)
 * and a built-in's `with:`, read by a real loopback server, and a command target's env. A header
 * named `__proto__` fetch leaves out of the request: refused at load.
 */
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

/** What the server last received: the body as sent. */
let received: { body: string } | undefined;

/** Echoes a body back as JSON under `body`; a chat completion on `/v1/chat/completions`. */
const server = useLoopbackServer((request, response) => {
  let text = '';
  request.on('data', (chunk: Buffer) => (text += chunk.toString()));
  request.on('end', () => {
    received = { body: text };
    response.setHeader('content-type', 'application/json');
    const chat = { choices: [{ message: { role: 'assistant', content: 'ok' } }] };
    response.end(
      request.url?.endsWith('/chat/completions') === true
        ? JSON.stringify(chat)
        : `{"body":${text}}`,
    );
  });
});

beforeEach(() => {
  received = undefined;
});

describe('__proto__ keys written in evals.yaml survive the filling of templates', () => {
  it('in an http target body and an evaluator with:', async () => {
    const dir = jsonlProject(
      [{ q: 'a' }],
      [
        'target:',
        '  type: http',
        `  url: "${server.base}/echo"`,
        '  body:',
        '    __proto__: { x: "{{ case.q }}" }',
        '    q: "{{ case.q }}"',
        '    nested: { __proto__: 1, list: [{ __proto__: "{{ case.q }}" }] }',
        '  output: body',
        'evaluators:',
        '  - use: is-equals',
        '    with:',
        '      expected:',
        '        __proto__: { x: "{{ case.q }}" }',
        '        q: "{{ case.q }}"',
        '        nested: { __proto__: 1, list: [{ __proto__: "{{ case.q }}" }] }',
      ],
    );
    const run = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(
      received?.body,
      '{"__proto__":{"x":"a"},"q":"a","nested":{"__proto__":1,"list":[{"__proto__":"a"}]}}',
    );
    const testCase = artifactCases(dir)[0]!.cases[0]!;
    assert.equal(testCase.evaluations[0]?.score, 1, JSON.stringify(testCase));
    assert.equal(run.code, 0, run.stdout + run.stderr);
  });

  it('in a command target env', async () => {
    const dir = jsonlProject(
      [{ q: 'a' }],
      [
        'target:',
        '  type: command',
        `  run: [node, -e, "process.stdout.write(process.env.__proto__ ?? 'none')"]`,
        '  env: { __proto__: "v-{{ case.q }}" }',
        'evaluators:',
        '  - { use: is-equals, with: { expected: v-a } }',
      ],
    );
    const run = await runInProcess(['run', '-o', 'results.json'], dir);
    const testCase = artifactCases(dir)[0]!.cases[0]!;
    assert.equal(testCase.output, 'v-a', JSON.stringify(testCase));
    assert.equal(run.code, 0, run.stdout + run.stderr);
  });

  for (const command of [['validate'], ['run', '--dry-run']]) {
    it(`a header named __proto__, which fetch leaves out, is refused by evals ${command.join(' ')} at its key`, async () => {
      const dir = jsonlProject(
        [{ q: 'a', output: 'y' }],
        [
          'target:',
          '  type: http',
          `  url: "${server.base}/echo"`,
          '  headers: { __proto__: "h-{{ case.q }}" }',
          'evaluators:',
          '  - use: llm-judge',
          `    judge: { model: m, baseUrl: "${server.base}/v1", headers: { __Proto__: h } }`,
          '    with: { prompt: "Is {{ output }} good?", choices: { "yes": 1, "no": 0 } }',
        ],
      );
      const run = await runInProcess(command, dir, { OPENAI_API_KEY: 'sk-test' });
      assert.equal(run.code, 2, run.stdout + run.stderr);
      assert.match(
        run.stderr,
        /evals\.yaml:8:18 {2}suites\[0\]\.target\.headers: header name "__proto__" cannot be sent: fetch leaves a header of that name out of the request, without an error; use another name/,
      );
      assert.match(
        run.stderr,
        /evals\.yaml:11:77 {2}suites\[0\]\.evaluators\[0\]\.judge\.headers: header name "__Proto__" cannot be sent/,
      );
      assert.equal(received, undefined);
    });
  }
});
