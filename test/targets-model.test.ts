/**
 * The `model` target against the loopback OpenAI-compatible server: prompts and messages from
 * templates and files, JSON replies parsed (and a reply that is not JSON kept as a case error),
 * retries, usage and cost, the shared cache (a second run sends nothing), and a grid over models
 * and prompt files.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { allText, artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((s) => (server = s));

const KEY = 'sk-model-target-secret-123456';

/** A one-suite project whose config prices the models `small` and `large`. */
const project = (
  rows: Record<string, unknown>[],
  suite: string[],
  files: Record<string, string> = {},
): string =>
  jsonlProject(rows, suite, files, [
    'defaults:',
    '  judge:',
    '    prices: { small: { prompt: 1, completion: 2 }, large: { prompt: 10, completion: 20 } }',
  ]);

const modelTarget = (extra: string[]): string[] => [
  'target:',
  '  type: model',
  '  model: small',
  `  baseUrl: ${server.url}`,
  '  apiKey: ${KEY}',
  ...extra.map((l) => `  ${l}`),
];

describe('model target', () => {
  it('renders the prompt per case and parses a JSON reply; usage and cost are counted per case', async () => {
    server.setDefault({ content: '{"intent":"refund"}' });
    const dir = project(
      [{ q: 'money back?' }],
      modelTarget([
        'prompt: "Classify: {{case.q}}"',
        'responseFormat: json',
        'maxTokens: 50',
        'seed: 7',
      ]),
    );
    const result = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir, { KEY });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const c = artifactCases(dir)[0]!.cases[0]!;
    assert.deepEqual(c.output, { intent: 'refund' });
    const request = server.requests[0]!;
    assert.equal(request.headers.authorization, `Bearer ${KEY}`);
    assert.deepEqual(request.body, {
      model: 'small',
      messages: [{ role: 'user', content: 'Classify: money back?' }],
      temperature: 0,
      max_tokens: 50,
      seed: 7,
      response_format: { type: 'json_object' },
    });
    assert.equal(c.usage?.calls, 1);
    assert.equal(c.usage?.promptTokens, 42);
    // 42 prompt tokens at $1 and 7 completion tokens at $2 per million.
    assert.ok(Math.abs((c.usage?.cost ?? 0) - (42 * 1 + 7 * 2) / 1e6) < 1e-12);
  });

  it('a reply that is not JSON is a case error that keeps the text and the usage', async () => {
    server.setDefault({ content: 'Sure! The intent is refund.' });
    const dir = project(
      [{ q: 'a' }],
      modelTarget(['prompt: "{{case.q}}"', 'responseFormat: json']),
    );
    const result = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir, { KEY });
    assert.equal(result.code, 1);
    const c = artifactCases(dir)[0]!.cases[0]!;
    assert.equal(c.output, 'Sure! The intent is refund.');
    assert.match(c.error ?? '', /not JSON/);
    assert.equal(c.usage?.calls, 1);
  });

  it('a JSON reply that does not match the schema is a case error', async () => {
    server.setDefault({ content: '{"intent":42}' });
    const dir = project(
      [{ q: 'a' }],
      modelTarget([
        'prompt: "{{case.q}}"',
        'responseFormat: { type: object, properties: { intent: { type: string } }, required: [intent] }',
      ]),
    );
    await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir, { KEY });
    const c = artifactCases(dir)[0]!.cases[0]!;
    assert.deepEqual(c.output, { intent: 42 });
    assert.match(c.error ?? '', /does not match responseFormat's schema at \/intent/);
    const format = (server.requests[0]!.body as { response_format: { type: string } })
      .response_format;
    assert.equal(format.type, 'json_schema');
  });

  it('retries a 429 with Retry-After, then succeeds', async () => {
    server.script({
      status: 429,
      headers: { 'retry-after': '0' },
      body: { error: { message: 'slow down' } },
    });
    const dir = project([{ q: 'a' }], modelTarget(['prompt: "{{case.q}}"']));
    const result = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir, { KEY });
    assert.equal(result.code, 0, result.stdout);
    assert.equal(server.requests.length, 2);
    assert.equal(artifactCases(dir)[0]!.cases[0]!.output, 'echo: a');
  });

  it('an error answer is a case error naming the status, with the key scrubbed', async () => {
    server.setDefault({
      status: 401,
      body: { error: { message: `Incorrect API key provided: ${KEY}` } },
    });
    const dir = project([{ q: 'a' }], modelTarget(['prompt: "{{case.q}}"']));
    const result = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir, { KEY });
    assert.equal(result.code, 1);
    const error = artifactCases(dir)[0]!.cases[0]!.error ?? '';
    assert.match(error, /401/);
    assert.equal(error.includes(KEY), false);
    assert.equal(readFileSync(join(dir, 'results.json'), 'utf8').includes(KEY), false);
  });

  it('a grid of 2 models × 2 prompt files runs 4 points; a second run is served by the cache', async () => {
    const dir = project(
      [{ q: 'one' }, { q: 'two' }],
      [
        'grid: { model: [small, large], prompt: [terse, polite] }',
        'target:',
        '  type: model',
        '  model: "{{params.model}}"',
        `  baseUrl: ${server.url}`,
        '  apiKey: ${KEY}',
        '  messages:',
        '    - { role: system, content: { file: "prompts/{{params.prompt}}.md" } }',
        '    - { role: user, content: "{{case.q}}" }',
      ],
      {
        'prompts/terse.md': 'Be terse ({{params.model}}).',
        'prompts/polite.md': 'Be polite about {{case.q}}.',
      },
    );
    const first = await runInProcess(['run', '-o', 'results.json'], dir, { KEY });
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.equal(server.requests.length, 8);
    const systems = new Set(
      server.requests.map((r) => {
        const body = r.body as { model: string; messages: { content: string }[] };
        return `${body.model}|${body.messages[0]!.content}`;
      }),
    );
    assert.deepEqual([...systems].sort(), [
      'large|Be polite about one.',
      'large|Be polite about two.',
      'large|Be terse (large).',
      'small|Be polite about one.',
      'small|Be polite about two.',
      'small|Be terse (small).',
    ]);
    const runs = artifactCases(dir);
    assert.deepEqual(
      runs.map((r) => r.params),
      [
        { model: 'small', prompt: 'terse' },
        { model: 'small', prompt: 'polite' },
        { model: 'large', prompt: 'terse' },
        { model: 'large', prompt: 'polite' },
      ],
    );
    server.reset();
    const second = await runInProcess(['run', '-o', 'results.json'], dir, { KEY });
    assert.equal(second.code, 0);
    assert.equal(server.requests.length, 0);
    for (const run of artifactCases(dir))
      for (const c of run.cases) assert.equal(c.usage?.cacheHits, 1);
    assert.equal(allText(join(dir, '.evalgate', 'cache')).includes(KEY), false);
  });

  it('a prompt file missing for some grid point is refused before anything runs', async () => {
    const dir = project(
      [{ q: 'one' }],
      [
        'grid: { prompt: [a, b] }',
        ...modelTarget(['prompt: { file: "prompts/{{params.prompt}}.md" }']),
      ],
      { 'prompts/a.md': 'A {{case.q}}' },
    );
    const result = await runInProcess(['run', '-o', 'results.json'], dir, { KEY });
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /evals\.yaml:\d+:\d+ .*prompt file prompts\/b\.md .*does not exist/,
    );
    assert.equal(server.requests.length, 0);
  });

  it('prompt and messages together, or neither, are refused', async () => {
    const both = project(
      [{ q: 'a' }],
      modelTarget(['prompt: x', 'messages: [{ role: user, content: y }]']),
    );
    const result = await runInProcess(['validate'], both, { KEY });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /prompt: .* or messages: .* not both/);
    const neither = project([{ q: 'a' }], modelTarget([]));
    assert.match(
      (await runInProcess(['validate'], neither, { KEY })).stderr,
      /a model target needs prompt:/,
    );
  });
});
