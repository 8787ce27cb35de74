/**
 * A URL whose port is out of range (`http://127.0.0.1:99999/x`) is refused at its value with a
 * message that names the port and the range, not "expected an http:// or https:// URL" (an
 * http target) or a case error "is not a valid URL" for every case (a model target's or a
 * judge's baseUrl).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scratch, writeFiles } from './helpers/cli.ts';
import { artifactCases, runInProcess } from './helpers/in-process.ts';

const CONFIG = [
  'version: 1',
  'defaults:',
  '  judge: { model: j, baseUrl: "http://127.0.0.1:70000/v1" }',
  'suites:',
  '  - id: h',
  '    testset: { cases: [ { q: x } ] }',
  '    target: { type: http, url: "http://127.0.0.1:99999/x?q={{case.q}}" }',
  '  - id: m',
  '    testset: { cases: [ { q: x } ] }',
  '    target: { type: model, baseUrl: "http://u:secret-pw-123@[::1]:65536/v1", apiKey: k, model: m, prompt: hi }',
  '    evaluators:',
  '      - use: llm-judge',
  '        judge: { baseUrl: "https://judge.example.com:123456/v1" }',
  '        with: { prompt: "ok? {{output}}", choices: { "yes": 1, "no": 0 } }',
  '  - id: fine',
  '    testset: { cases: [ { q: x } ] }',
  '    target: { type: http, url: "http://127.0.0.1:65535/{{case.q}}" }',
  '',
].join('\n');

describe('a URL whose port is out of range', () => {
  for (const command of [['validate'], ['run']]) {
    it(`is refused by evals ${command.join(' ')} at each value, naming the port`, async () => {
      const dir = scratch();
      writeFiles(dir, { 'evals.yaml': CONFIG });
      const result = await runInProcess(command, dir);
      assert.equal(result.code, 2, result.stdout + result.stderr);
      const lines = result.stderr.split('\n').filter((line) => line.startsWith('error: '));
      assert.deepEqual(
        lines.map((line) => /evals\.yaml:(\d+):(\d+)\s+(\S+): (.*)$/.exec(line)?.slice(1)),
        [
          [
            '3',
            '31',
            'defaults.judge.baseUrl',
            'port 70000 is out of range: expected a port from 0 to 65535',
          ],
          [
            '7',
            '32',
            'suites[0].target.url',
            'port 99999 is out of range: expected a port from 0 to 65535',
          ],
          [
            '10',
            '37',
            'suites[1].target.baseUrl',
            'port 65536 is out of range: expected a port from 0 to 65535',
          ],
          [
            '13',
            '27',
            'suites[1].evaluators[0].judge.baseUrl',
            'port 123456 is out of range: expected a port from 0 to 65535',
          ],
        ],
        result.stderr,
      );
      assert.ok(!result.stderr.includes('secret-pw-123'), result.stderr);
    });
  }
});

describe('a port out of range that a case puts into the URL', () => {
  it('is the case error, naming the port', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'evals.yaml': [
        'version: 1',
        'suites:',
        '  - id: h',
        '    testset: { cases: [ { port: 99999 } ] }',
        '    target: { type: http, url: "http://127.0.0.1:{{case.port}}/x" }',
        '',
      ].join('\n'),
    });
    const result = await runInProcess(['run'], dir);
    assert.equal(result.code, 1, result.stderr);
    const error = artifactCases(dir, 'evals-results.json')[0]?.cases[0]?.error ?? '';
    assert.match(error, /port 99999 is out of range: expected a port from 0 to 65535/);
  });
});

describe('a port out of range in OPENAI_BASE_URL', () => {
  it('is refused at the model target and the judge that take it, naming the port', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'evals.yaml': [
        'version: 1',
        'suites:',
        '  - id: m',
        '    testset: { cases: [ { q: x } ] }',
        '    target: { type: model, model: m, prompt: hi }',
        '    evaluators:',
        '      - use: llm-judge',
        '        judge: { model: j }',
        '        with: { prompt: "ok? {{output}}", choices: { "yes": 1, "no": 0 } }',
        '',
      ].join('\n'),
    });
    const result = await runInProcess(['validate'], dir, {
      OPENAI_BASE_URL: 'http://u:secret-pw-456@127.0.0.1:99999/v1',
      OPENAI_API_KEY: 'sk-test',
    });
    assert.equal(result.code, 2, result.stdout + result.stderr);
    const lines = result.stderr.split('\n').filter((line) => line.startsWith('error: '));
    assert.equal(lines.length, 2, result.stderr);
    assert.match(
      lines[0] ?? '',
      /evals\.yaml:5:\d+ {2}suites\[0\]\.target: this model target has no baseUrl:, so it calls the URL in OPENAI_BASE_URL, whose port 99999 is out of range: expected a port from 0 to 65535/,
    );
    assert.match(
      lines[1] ?? '',
      /evals\.yaml:7:\d+ {2}suites\[0\]\.evaluators\[0\].*: this judge has no baseUrl:, so it calls the URL in OPENAI_BASE_URL, whose port 99999 is out of range/,
    );
    assert.ok(!result.stderr.includes('secret-pw-456'), result.stderr);
  });
});
