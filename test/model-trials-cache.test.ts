/**
 * `trials: N` and the on-disk model-call cache: each trial of a case is its own sample (trials
 * after the first have cache keys of their own, for model targets and for the judges that
 * evaluate them), trial 1 keeps the key of a run without trials, and a re-run of the same config
 * is served from the cache for every trial. Also: prompt files are read without their BOM and
 * with LF line ends, so a Windows checkout sends the same prompt and hits the same entries.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cacheKey } from '../src/judge/cache.ts';
import { inTrial } from '../src/judge/trial-scope.ts';
import { createJudgeClient } from '../src/judge/client.ts';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';
import { scratch } from './helpers/cli.ts';

let server: OpenAiServer;
useOpenAiServer((s) => (server = s));

const KEY = 'sk-trials-cache-secret-0123456789';

/** A server that answers "yes", "no", "yes", … in the order the requests arrive. */
function alternate(): void {
  let n = 0;
  server.setResponder(() => ({ content: n++ % 2 === 0 ? 'yes' : 'no' }));
}

/** A one-suite project with a model target at `temperature: 1` graded on saying "yes". */
function project(rows: Record<string, unknown>[], extra: string[] = []): string {
  return jsonlProject(rows, [
    'concurrency: 1',
    ...extra,
    'target:',
    '  type: model',
    '  model: small',
    `  baseUrl: ${server.url}`,
    '  apiKey: ${KEY}',
    '  temperature: 1',
    '  prompt: "Answer yes or no: {{case.q}}"',
    'evaluators:',
    '  - { id: yes, use: is-equals, with: { expected: "yes" } }',
  ]);
}

interface TrialView {
  output: unknown;
  passed: boolean;
}

interface CaseView {
  passed: boolean;
  flaky?: boolean;
  trials?: TrialView[];
  usage?: { calls: number; cacheHits: number };
}

function cases(dir: string): CaseView[] {
  return artifactCases(dir)[0]!.cases as unknown as CaseView[];
}

const run = (dir: string, ...args: string[]) =>
  runInProcess(['run', '-o', 'results.json', ...args], dir, { KEY });

describe('trials of a model target and the cache', () => {
  it('each trial is its own sample: alternating answers make flaky cases, as with --no-cache', async () => {
    alternate();
    const rows = [{ q: 'a' }, { q: 'b' }, { q: 'c' }];
    const dir = project(rows, ['trials: 2']);
    await run(dir);
    // Every trial of every case reached the server: none was a cache hit of its trial 1.
    assert.equal(server.requests.length, 6);
    const first = cases(dir);
    for (const c of first) {
      assert.equal(c.flaky, true, JSON.stringify(c));
      assert.deepEqual(
        c.trials?.map((t) => t.output),
        ['yes', 'no'],
      );
      assert.deepEqual(c.usage, { ...c.usage, calls: 2, cacheHits: 0 });
    }

    // The same config again: every trial is served from the cache, with the same answers.
    server.reset();
    await run(dir);
    assert.equal(server.requests.length, 0);
    const again = cases(dir);
    assert.deepEqual(
      again.map((c) => c.trials?.map((t) => t.output)),
      first.map((c) => c.trials?.map((t) => t.output)),
    );
    for (const c of again) assert.deepEqual(c.usage, { ...c.usage, calls: 0, cacheHits: 2 });
  });

  it('trial 1 keeps the key of a run without trials; more trials call only for the new ones', async () => {
    server.setDefault({ content: 'yes' });
    const dir = project([{ q: 'a' }]);
    await run(dir);
    assert.equal(server.requests.length, 1);

    server.reset();
    server.setDefault({ content: 'yes' });
    await run(dir, '--trials', '3');
    // Trial 1 is the cached answer of the run without trials; trials 2 and 3 are new samples.
    assert.equal(server.requests.length, 2);
    const [c] = cases(dir);
    assert.deepEqual(c!.usage, { ...c!.usage, calls: 2, cacheHits: 1 });

    server.reset();
    await run(dir, '--trials', '4');
    assert.equal(server.requests.length, 1);
  });

  it('the judge calls of trial k are cached as trial k: a yes/no judge makes the case flaky', async () => {
    let n = 0;
    server.setResponder(() => ({
      toolArguments: { reason: 'because', choice: n++ % 2 === 0 ? 'yes' : 'no' },
    }));
    const dir = jsonlProject(
      [{ q: 'a', output: 'same answer' }],
      [
        'trials: 2',
        'concurrency: 1',
        'evaluators:',
        '  - id: judged',
        '    use: llm-judge',
        '    with:',
        '      prompt: "Is {{output}} right?"',
        '      choices: { "yes": 1, "no": 0 }',
        '    threshold: { gte: 1 }',
      ],
      {},
      [
        'defaults:',
        '  judge:',
        '    model: judge-mini',
        `    baseUrl: ${server.url}`,
        '    apiKey: ${KEY}',
      ],
    );
    const result = await run(dir);
    assert.equal(server.requests.length, 2, result.stdout + result.stderr);
    const [c] = cases(dir);
    assert.equal(c!.flaky, true, JSON.stringify(c));

    server.reset();
    await run(dir);
    assert.equal(server.requests.length, 0);
    assert.equal(cases(dir)[0]!.flaky, true);
  });

  it('the client keys trial k > 1 apart, from its option or from the trial being run', async () => {
    const base = { baseUrl: 'http://127.0.0.1:1/v1', model: 'm', body: { a: 1 } };
    assert.equal(cacheKey({ ...base, trial: 1 }), cacheKey(base));
    assert.notEqual(cacheKey({ ...base, trial: 2 }), cacheKey(base));
    assert.notEqual(cacheKey({ ...base, trial: 2 }), cacheKey({ ...base, trial: 3 }));

    alternate();
    const client = createJudgeClient({ baseUrl: server.url, apiKey: KEY, cacheDir: scratch() });
    const request = { model: 'small', messages: [{ role: 'user' as const, content: 'hi' }] };
    const one = await client.chat(request);
    const two = await client.chat(request, { trial: 2 });
    const twoAgain = await inTrial(2, () => client.chat(request));
    const oneAgain = await client.chat(request, { trial: 1 });
    assert.ok(one.ok && two.ok && twoAgain.ok && oneAgain.ok);
    assert.equal(one.message.content, 'yes');
    assert.equal(two.message.content, 'no');
    assert.equal(twoAgain.cached, true);
    assert.equal(twoAgain.message.content, 'no');
    assert.equal(oneAgain.cached, true);
    assert.equal(oneAgain.message.content, 'yes');
    assert.equal(server.requests.length, 2);
  });
});

describe('prompt files', () => {
  it('are sent without a BOM and with LF line ends, so CRLF and LF checkouts share the cache', async () => {
    server.setDefault({ content: 'ok' });
    const suite = (file: string): string[] => [
      'target:',
      '  type: model',
      '  model: small',
      `  baseUrl: ${server.url}`,
      '  apiKey: ${KEY}',
      `  prompt: { file: ${file} }`,
    ];
    const dir = jsonlProject([{ q: 'a' }], suite('unix.md'), {
      'unix.md': 'Line one {{case.q}}\nLine two\n',
      'windows.md': '\uFEFFLine one {{case.q}}\r\nLine two\r\n',
    });
    await run(dir);
    const sent = server.requests.map(
      (r) => (r.body as { messages: { content: string }[] }).messages[0]!.content,
    );
    assert.deepEqual(sent, ['Line one a\nLine two\n']);

    server.reset();
    const windows = jsonlProject([{ q: 'a' }], suite('windows.md'), {
      'windows.md': '\uFEFFLine one {{case.q}}\r\nLine two\r\n',
    });
    await run(windows, '--no-cache');
    const body = server.requests[0]!.body as { messages: { content: string }[] };
    assert.equal(body.messages[0]!.content, 'Line one a\nLine two\n');
  });
});
