/**
 * A URL on a port fetch blocks (the Fetch standard's "bad ports": 22, 6000, 6665–6669, 10080, …)
 * passed `evals validate`, then every case failed with fetch's bare "bad port". It is refused
 * at load, at the value, by `validate`, `run --dry-run` and `run` alike, naming the port and
 * what to do: an http target's `url`, a model target's and a judge's `baseUrl`, and
 * `OPENAI_BASE_URL` where it is used. A port a template fills in is checked per case.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scratch, writeFiles } from './helpers/cli.ts';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';

const CONFIG = [
  'version: 1',
  'defaults:',
  '  judge: { model: j, baseUrl: "http://127.0.0.1:10080/v1" }',
  'suites:',
  '  - id: h',
  '    testset: { cases: [ { q: x } ] }',
  '    target: { type: http, url: "http://127.0.0.1:6000/x?q={{case.q}}" }',
  '  - id: m',
  '    testset: { cases: [ { q: x } ] }',
  '    target: { type: model, baseUrl: "http://[::1]:0022/v1", apiKey: k, model: m, prompt: hi }',
  '    evaluators:',
  '      - use: llm-judge',
  '        judge: { baseUrl: "https://judge.example.com:6667/v1" }',
  '        with: { prompt: "ok? {{output}}", choices: { "yes": 1, "no": 0 } }',
  '  - id: fine',
  '    grid: { port: [8080] }',
  '    testset: { cases: [ { q: x } ] }',
  '    target: { type: http, url: "http://127.0.0.1:{{params.port}}/{{case.q}}" }',
  '  - id: fine-too',
  '    testset: { cases: [ { q: x } ] }',
  '    target: { type: http, url: "http://{{case.q}}:8080/" }',
  '',
].join('\n');

const BLOCKED = (port: number): string =>
  `port ${port} is blocked by fetch: it is on the Fetch standard's list of bad ports (ports of other services, such as 22 for ssh or 6000 for X11), which fetch refuses to connect to whatever listens there; serve the endpoint on another port (such as 8080)`;

/** The `error:` lines of stderr, as [line, col, path, message]. */
function errors(stderr: string): (string[] | undefined)[] {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('error: '))
    .map((line) => /evals\.yaml:(\d+):(\d+)\s+(\S+): (.*)$/.exec(line)?.slice(1));
}

describe('a URL on a port fetch blocks', () => {
  for (const command of [['validate'], ['run', '--dry-run'], ['run']]) {
    it(`is refused by evals ${command.join(' ')} at each value, naming the port`, async () => {
      const dir = scratch();
      writeFiles(dir, { 'evals.yaml': CONFIG });
      const result = await runInProcess(command, dir);
      assert.equal(result.code, 2, result.stdout + result.stderr);
      assert.deepEqual(
        errors(result.stderr),
        [
          ['3', '31', 'defaults.judge.baseUrl', BLOCKED(10080)],
          ['7', '32', 'suites[0].target.url', BLOCKED(6000)],
          ['10', '37', 'suites[1].target.baseUrl', BLOCKED(22)],
          ['13', '27', 'suites[1].evaluators[0].judge.baseUrl', BLOCKED(6667)],
        ],
        result.stderr,
      );
    });
  }
});

describe('a blocked port in OPENAI_BASE_URL', () => {
  for (const command of [['validate'], ['run', '--dry-run']]) {
    it(`is refused by evals ${command.join(' ')} at the model target and the judge that take it`, async () => {
      const dir = jsonlProject(
        [{ q: 'x' }],
        [
          'target: { type: model, model: m, prompt: hi }',
          'evaluators:',
          '  - use: llm-judge',
          '    judge: { model: j }',
          '    with: { prompt: "ok? {{output}}", choices: { "yes": 1, "no": 0 } }',
        ],
      );
      const result = await runInProcess(command, dir, {
        OPENAI_BASE_URL: 'http://127.0.0.1:6666/v1',
        OPENAI_API_KEY: 'sk-test',
      });
      assert.equal(result.code, 2, result.stdout + result.stderr);
      const lines = errors(result.stderr);
      assert.equal(lines.length, 2, result.stderr);
      assert.deepEqual(lines[0]?.slice(2), [
        'suites[0].target',
        `this model target has no baseUrl:, so it calls the URL in OPENAI_BASE_URL, whose ${BLOCKED(6666)}`,
      ]);
      assert.match(
        lines[1]?.[3] ?? '',
        /^this judge has no baseUrl:, so it calls the URL in OPENAI_BASE_URL, whose port 6666 is blocked by fetch/,
      );
    });
  }
});

describe('a blocked port that a case puts into the URL', () => {
  it('is the case error, naming the request and the port', async () => {
    const dir = jsonlProject(
      [{ port: 6669 }],
      ['target: { type: http, url: "http://127.0.0.1:{{case.port}}/x" }'],
    );
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(result.code, 1, result.stderr);
    const error = artifactCases(dir)[0]?.cases[0]?.error;
    assert.equal(error, `GET "http://127.0.0.1:6669/x": ${BLOCKED(6669)}`);
  });
});
