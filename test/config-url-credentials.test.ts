/**
 * Credentials in a URL's user part (`http://admin:pw@host/`): fetch refuses such a URL, so the
 * config is refused at the value (without printing the password), and wherever a URL with them
 * still travels (OPENAI_BASE_URL, which the config does not hold) nothing prints them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { configSecrets } from '../src/config/secrets.ts';
import { describeTarget } from '../src/config/target.ts';
import type { LoadedConfig } from '../src/config/types.ts';
import { secretsInUrl } from '../src/shared/secrets.ts';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';
import { freePort } from './helpers/free-port.ts';

const PASSWORD = 'pw-stage-778899';
const USER_TOKEN = 'ghp-usertoken-5566778899';

/** A project whose evals.yaml is `lines`. */
function project(lines: string[]): string {
  const dir = scratch();
  writeFiles(dir, { 'evals.yaml': [...lines, ''].join('\n') });
  return dir;
}

const EVERY_PLACE = [
  'version: 1',
  'defaults:',
  '  judge: { model: j, baseUrl: "http://judge:${STAGEPW}@127.0.0.1:18080/v1" }',
  'suites:',
  '  - id: userinfo',
  '    testset: { cases: [ { q: x } ] }',
  '    target: { type: http, url: "http://admin:${STAGEPW}@127.0.0.1:18080/ok?q={{case.q}}" }',
  '  - id: model-userinfo',
  '    testset: { cases: [ { q: x } ] }',
  '    target: { type: model, baseUrl: "http://admin:${STAGEPW}@127.0.0.1:18080/v1", apiKey: dummy, model: m, prompt: hi }',
  '    evaluators:',
  '      - use: llm-judge',
  '        judge: { baseUrl: "https://ops:${STAGEPW}@judge.example.com/v1" }',
  '        with: { prompt: "ok? {{output}}", choices: { "yes": 1, "no": 0 } }',
];

describe('a URL with credentials in its user part', () => {
  for (const command of [['validate'], ['run'], ['run', '--dry-run']]) {
    it(`is refused by evals ${command.join(' ')} at each value, without printing the password`, async () => {
      const dir = project(EVERY_PLACE);
      const result = await runInProcess(command, dir, { STAGEPW: PASSWORD });
      assert.equal(result.code, 2, result.stdout + result.stderr);
      const text = result.stdout + result.stderr;
      assert.ok(!text.includes(PASSWORD), text);
      const lines = result.stderr.split('\n').filter((line) => line.includes('credentials'));
      assert.deepEqual(
        lines.map((line) => /evals\.yaml:(\d+):\d+\s+(\S+):/.exec(line)?.slice(1)),
        [
          ['3', 'defaults.judge.baseUrl'],
          ['7', 'suites[0].target.url'],
          ['10', 'suites[1].target.baseUrl'],
          ['13', 'suites[1].evaluators[0].judge.baseUrl'],
        ],
        result.stderr,
      );
      // The URL is shown with its password masked, and the message says what to do instead.
      assert.match(result.stderr, /http:\/\/admin:\*\*\*@127\.0\.0\.1:18080\/ok/);
      assert.match(result.stderr, /https:\/\/ops:\*\*\*@judge\.example\.com\/v1/);
      assert.match(lines[1] ?? '', /fetch cannot send/);
      assert.match(lines[1] ?? '', /header/);
      assert.match(lines[2] ?? '', /apiKey|header/);
    });
  }

  it('is refused when it holds only a user name (a token), shown masked', async () => {
    const dir = project([
      'version: 1',
      'suites:',
      '  - id: token-user',
      '    testset: { cases: [ { q: x } ] }',
      `    target: { type: http, url: "https://${USER_TOKEN}@api.example.com/answer" }`,
    ]);
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 2, result.stderr);
    assert.ok(!result.stderr.includes(USER_TOKEN), result.stderr);
    assert.match(
      result.stderr,
      /evals\.yaml:5:\d+\s+suites\[0\]\.target\.url: .*https:\/\/\*\*\*@api/,
    );
  });

  it('is not confused with an @ in the path or query', async () => {
    const dir = project([
      'version: 1',
      'suites:',
      '  - id: at-in-path',
      '    testset: { cases: [ { q: x } ] }',
      '    target: { type: http, url: "http://127.0.0.1:18080/users/@me?to=a@b.example" }',
    ]);
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 0, result.stderr);
  });
});

describe('URL credentials are secrets', () => {
  it('secretsInUrl finds the user and the password, as written and decoded', () => {
    const found = secretsInUrl('http://svc%2Daccount:p%40ss-word-123@127.0.0.1:1/v1?api-key=k');
    for (const value of ['svc%2Daccount', 'svc-account', 'p%40ss-word-123', 'p@ss-word-123']) {
      assert.ok(found.includes(value), `${value} in ${JSON.stringify(found)}`);
    }
    assert.ok(found.includes('k'));
    // A template in the user part is resolved per case, not a secret.
    assert.deepEqual(secretsInUrl('http://{{case.user}}@127.0.0.1/'), []);
    assert.deepEqual(secretsInUrl('http://127.0.0.1/users/@me'), []);
  });

  it("configSecrets holds the credentials of every target's and judge's URL", () => {
    const config = {
      defaults: { judge: { baseUrl: 'http://judge-user:judge-password-1@h/v1' } },
      suites: [
        {
          evaluators: [{ judge: { baseUrl: 'http://ev-user:evaluator-password-2@h/v1' } }],
          target: { kind: 'http', url: 'http://u:http-password-3@h/ok', headers: {} },
        },
        {
          evaluators: [],
          target: { kind: 'model', baseUrl: 'http://u:model-password-4@h/v1', messages: [] },
        },
      ],
    } as unknown as Pick<LoadedConfig, 'defaults' | 'suites'>;
    const secrets = configSecrets(config);
    for (const value of [
      'judge-password-1',
      'evaluator-password-2',
      'http-password-3',
      'model-password-4',
      'judge-user',
    ]) {
      assert.ok(secrets.includes(value), `${value} in ${JSON.stringify(secrets)}`);
    }
  });

  it("a target's description (the plan, error text) never shows them", () => {
    const http = describeTarget({
      kind: 'http',
      method: 'GET',
      url: `http://admin:${PASSWORD}@127.0.0.1:18080/ok`,
      headers: {},
      maxRetries: 0,
    });
    const model = describeTarget({
      kind: 'model',
      model: 'm',
      baseUrl: `http://${USER_TOKEN}@127.0.0.1:18080/v1`,
      messages: [],
      responseFormat: 'text',
    });
    assert.equal(http, 'GET http://***@127.0.0.1:18080/ok');
    assert.equal(model, 'model m at http://***@127.0.0.1:18080/v1');
  });

  // Long credentials are scrubbed wherever they appear; short ones (under the scrubber's
  // minimum length) are masked in the URL that every message quotes.
  for (const [user, password] of [
    [USER_TOKEN, PASSWORD],
    ['bob', 'hunter2'],
  ] as const) {
    it(`OPENAI_BASE_URL with credentials (${user}): no output of run or show holds them`, async () => {
      const port = await freePort();
      const env = { OPENAI_BASE_URL: `http://${user}:${password}@127.0.0.1:${port}/v1` };
      // A model target that would call it is refused before anything runs, the URL masked.
      const refused = await runInProcess(
        ['run', '-o', 'results.json'],
        project([
          'version: 1',
          'suites:',
          '  - id: env-base-url',
          '    testset: { cases: [ { q: x } ] }',
          '    target: { type: model, apiKey: dummy-key, model: m, prompt: "{{case.q}}" }',
        ]),
        env,
      );
      assert.equal(refused.code, 2, refused.stdout + refused.stderr);
      assert.match(refused.stderr, /http:\/\/\*\*\*@127\.0\.0\.1/);
      for (const secret of [`${user}:`, password]) {
        assert.ok(
          !(refused.stdout + refused.stderr).includes(secret),
          `the refusal holds ${secret}`,
        );
      }
      // A judge that would call it is refused the same way, before anything runs.
      const judged = await runInProcess(
        ['run', '-o', 'results.json'],
        project([
          'version: 1',
          'suites:',
          '  - id: env-base-url',
          '    testset: { cases: [ { q: x, output: y } ] }',
          '    evaluators:',
          '      - use: llm-judge',
          '        judge: { model: m, apiKey: dummy-key, maxRetries: 0 }',
          '        with: { prompt: "Is {{ output }} fine?", choices: { "yes": 1, "no": 0 } }',
        ]),
        env,
      );
      assert.equal(judged.code, 2, judged.stdout + judged.stderr);
      assert.match(judged.stderr, /this judge has no baseUrl:.*http:\/\/\*\*\*@127\.0\.0\.1/);
      for (const secret of [`${user}:`, password]) {
        assert.ok(!(judged.stdout + judged.stderr).includes(secret), `the refusal holds ${secret}`);
      }
    });
  }
});
