/**
 * QA round 8 on the model target's answers and settings: odd answer shapes said with what came
 * back, headers that may change the
 * answer part of the cache key (credential headers not, and no value on disk), and an
 * `OPENAI_BASE_URL` with credentials refused when the config is checked, as `baseUrl:` is.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allText, artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((s) => (server = s));

const KEY = 'sk-qa8-model-answers-SECRET-0001';

const modelProject = (extra: string[] = []): string =>
  jsonlProject(
    [{ q: 'hello' }],
    [
      'target:',
      '  type: model',
      '  model: m',
      `  baseUrl: ${server.url}`,
      '  apiKey: ${KEY}',
      '  prompt: "{{case.q}}"',
      ...extra.map((line) => `  ${line}`),
    ],
  );

/** A chat answer whose first choice is `choice`. */
const answerWith = (choices: unknown[]): Record<string, unknown> => ({
  id: 'chatcmpl-qa8',
  object: 'chat.completion',
  choices,
  usage: { prompt_tokens: 3, completion_tokens: 2 },
});

/** Runs the project once, without the cache, against an answer of `body`; the case's error and output. */
async function caseFor(body: string | Record<string, unknown>): Promise<{
  output: unknown;
  error: string | null | undefined;
}> {
  server.reset();
  server.setDefault({ body });
  const dir = modelProject();
  await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir, { KEY });
  const c = artifactCases(dir)[0]!.cases[0]!;
  return { output: c.output, error: c.error };
}

describe('odd model answers', () => {
  it('no choices: says so, with what came back', async () => {
    const { error } = await caseFor(answerWith([]));
    assert.match(
      error ?? '',
      /^POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions answered 200 with no choices \(choices is empty\): \{"id":"chatcmpl-qa8","object":"chat\.completion","choices":\[\],/,
    );
  });

  it('a choice without a message, numeric content, parts that are not objects: each said, with an excerpt', async () => {
    const cases: [unknown, RegExp][] = [
      [
        { index: 0, text: 'legacy' },
        /answered 200 with a choice without a message: \{.*"text":"legacy"/,
      ],
      [
        { index: 0, message: { role: 'assistant', content: 42 } },
        /answered 200 with message\.content a number, not text: \{.*"content":42/,
      ],
      [
        {
          index: 0,
          message: { role: 'assistant', content: ['plain', 'strings'] },
        },
        /answered 200 with message\.content a list whose parts are not all objects \(\{ type: "text", text: … \}\): \{.*\["plain","strings"\]/,
      ],
    ];
    for (const [choice, expected] of cases) {
      const { error } = await caseFor(answerWith([choice]));
      assert.match(error ?? '', expected);
    }
  });

  it('a body without choices at all is quoted, the key scrubbed from the excerpt', async () => {
    const { error } = await caseFor({ result: `echo ${KEY}`, status: 'done' });
    assert.match(
      error ?? '',
      /answered 200 without choices: \{"result":"echo \[redacted\]","status":"done"\}$/,
    );
    assert.equal((error ?? '').includes(KEY), false);
  });

  it('a byte order mark before the JSON is no part of it', async () => {
    const c = await caseFor(
      `\uFEFF${JSON.stringify(answerWith([{ index: 0, message: { role: 'assistant', content: 'ok' } }]))}`,
    );
    assert.deepEqual(c, { output: 'ok', error: null });
  });
});

describe('headers and the cache', () => {
  it('a header that may change the answer is part of the cache key; a credential header is not; no value reaches the disk', async () => {
    server.reset();
    // Short values (under 8 characters) are not scrubbed as secrets from the answers.
    const answers: Record<string, string> = { provA: 'first', provB: 'second' };
    server.setResponder((request) => ({
      content: `route ${answers[String(request.headers['x-route'])] ?? '?'}`,
    }));
    const dir = modelProject(['headers: { x-route: "${ROUTE}", api-key: "${AZURE}" }']);
    const runWith = async (route: string, azure: string): Promise<unknown> => {
      const result = await runInProcess(['run', '-o', 'results.json'], dir, {
        KEY,
        ROUTE: route,
        AZURE: azure,
      });
      assert.equal(result.code, 0, result.stdout + result.stderr);
      return artifactCases(dir)[0]!.cases[0]!.output;
    };
    assert.equal(await runWith('provA', 'azure-key-one-1111'), 'route first');
    assert.equal(server.requests.length, 1);
    // Another route: another answer, not the cached one.
    assert.equal(await runWith('provB', 'azure-key-one-1111'), 'route second');
    assert.equal(server.requests.length, 2);
    // The same route with a rotated key: from the cache.
    assert.equal(await runWith('provA', 'azure-key-two-2222'), 'route first');
    assert.equal(server.requests.length, 2);
    const cache = allText(`${dir}/.evalgate/cache`);
    for (const value of ['provA', 'provB', 'azure-key-one-1111', KEY]) {
      assert.equal(cache.includes(value), false, `${value} is in the cache`);
    }
  });
});

describe('OPENAI_BASE_URL', () => {
  it('with credentials, is refused by validate (and run) at the target, its user part masked', async () => {
    const dir = jsonlProject(
      [{ q: 'a' }],
      ['target:', '  type: model', '  model: m', '  prompt: "{{case.q}}"'],
    );
    const password = 'hunter2-password-xyz';
    const env = { OPENAI_BASE_URL: `http://admin:${password}@127.0.0.1:9/v1`, KEY };
    for (const argv of [['validate'], ['run', '-o', 'results.json']]) {
      const result = await runInProcess(argv, dir, env);
      const out = result.stdout + result.stderr;
      assert.equal(result.code, 2, out);
      assert.match(
        out,
        /evals\.yaml:6:7 +suites\[0\]\.target: this model target has no baseUrl:, so it calls the URL in OPENAI_BASE_URL, "http:\/\/\*\*\*@127\.0\.0\.1:9\/v1", has credentials in its user part, which fetch cannot send/,
      );
      assert.equal(out.includes(password), false);
      assert.equal(out.includes('admin'), false);
    }
  });

  it('with credentials, is refused for a judge without baseUrl: too, and not for one with it', async () => {
    const password = 'hunter2-password-xyz';
    const env = { OPENAI_BASE_URL: `http://admin:${password}@127.0.0.1:9/v1` };
    const judged = (judge: string): string =>
      jsonlProject(
        [{ q: 'a', output: 'b' }],
        [
          'evaluators:',
          `  - { id: j, use: llm-judge, with: { prompt: "ok?", choices: { yes: 1, no: 0 } }, judge: ${judge} }`,
        ],
      );
    const refused = await runInProcess(['validate'], judged('{ model: m }'), env);
    assert.equal(refused.code, 2, refused.stdout + refused.stderr);
    assert.match(
      refused.stderr,
      /suites\[0\]\.evaluators\[0\]\.use: this judge has no baseUrl:, so it calls the URL in OPENAI_BASE_URL, "http:\/\/\*\*\*@127\.0\.0\.1:9\/v1", has credentials/,
    );
    assert.equal(refused.stderr.includes(password), false);
    const own = await runInProcess(
      ['validate'],
      judged(`{ model: m, baseUrl: "${server.url}" }`),
      env,
    );
    assert.equal(own.code, 0, own.stdout + own.stderr);
  });

  it('without credentials, is used as it was', async () => {
    server.reset();
    const dir = jsonlProject(
      [{ q: 'a' }],
      ['target:', '  type: model', '  model: m', '  prompt: "{{case.q}}"'],
    );
    const result = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir, {
      OPENAI_BASE_URL: server.url,
    });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.equal(server.requests.length, 1);
  });
});
