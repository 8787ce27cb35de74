/**
 * Valid configs and what they load into: defaults, inheritance, evaluator ids, inline cases,
 * `locate()`, and judge settings.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import type { LoadedConfig } from '../src/config/types.ts';
import { loaded, yaml } from './fixtures/config/check.ts';

/** The brief's sketch, as a user would commit it. */
const sketch = yaml`
  # yaml-language-server: $schema=./node_modules/evalgate/schemas/evals.schema.json
  version: 1
  defaults:
    concurrency: 8
    timeout: 30s
  suites:
    - id: capitals
      testset:
        path: testsets/capitals.csv
        ref: main
        revision: 3f9a1c2b7d4e
        tags: [smoke]
      hash: [country]
      function: ./app/answer.ts#answer
      grid:
        model: [small, large]
        temperature: [0, 0.7]
      concurrency: 10
      timeout: 20s
      evaluators:
        - id: exact
          use: is-equals
          with: { expected: "{{case.capital}}", actual: "{{output.answer}}" }
          threshold: { gte: 1 }
        - id: mentions
          use: has-all-substrings
          with: { substrings: "{{case.keywords}}" }
        - id: tone
          use: ./evaluators/tone.ts#Tone
          with: { strict: true }
          threshold: { gte: 0.5 }
          concurrency: 2
      pass: all
      gate:
        minPassRate: 0.95
        evaluators: { tone: { mean: { gte: 0.7 } } }
`;

/** The config without its `locate` function, for deepEqual. */
function plain(config: LoadedConfig): Omit<LoadedConfig, 'locate'> {
  const copy: Partial<LoadedConfig> = { ...config };
  delete copy.locate;
  return copy as Omit<LoadedConfig, 'locate'>;
}

describe('a valid config', () => {
  it("loads the brief's sketch into the typed config", () => {
    const config = plain(loaded(sketch));
    // The data hash has its own tests (config-hash.test.ts); here it is only its shape.
    assert.match(config.hash, /^[0-9a-f]{64}$/);
    // Its breakdown by key has its own tests (resume-names-config-change.test.ts): here, that it
    // breaks down this hash, with this config's keys and suite.
    assert.equal(config.dataParts?.of, config.hash);
    assert.deepEqual(Object.keys(config.dataParts?.keys ?? {}).sort(), ['defaults', 'version']);
    assert.deepEqual(
      config.dataParts?.suites.map((suite) => suite.id),
      ['capitals'],
    );
    assert.deepEqual(config, {
      file: 'evals.yaml',
      absPath: '/project/evals.yaml',
      dir: '/project',
      hash: config.hash,
      dataParts: config.dataParts,
      textHash: createHash('sha256').update(sketch).digest('hex'),
      version: 1,
      defaults: {
        concurrency: 8,
        timeoutMs: 30_000,
        trials: 1,
        isolation: 'process',
        stopAfterErrors: 5,
        judge: {},
      },
      suites: [
        {
          index: 0,
          id: 'capitals',
          testset: {
            kind: 'file',
            path: 'testsets/capitals.csv',
            ref: 'main',
            revision: '3f9a1c2b7d4e',
            tags: ['smoke'],
          },
          hash: ['country'],
          target: { kind: 'function', module: './app/answer.ts#answer' },
          grid: { model: ['small', 'large'], temperature: [0, 0.7] },
          concurrency: 10,
          timeoutMs: 20_000,
          trials: 1,
          evaluators: [
            {
              index: 0,
              id: 'exact',
              use: 'is-equals',
              kind: 'builtin',
              with: { expected: '{{case.capital}}', actual: '{{output.answer}}' },
              threshold: { gte: 1 },
            },
            {
              index: 1,
              id: 'mentions',
              use: 'has-all-substrings',
              kind: 'builtin',
              with: { substrings: '{{case.keywords}}' },
            },
            {
              index: 2,
              id: 'tone',
              use: './evaluators/tone.ts#Tone',
              kind: 'module',
              with: { strict: true },
              threshold: { gte: 0.5 },
              concurrency: 2,
            },
          ],
          pass: 'all',
          gate: { minPassRate: 0.95, evaluators: { tone: { mean: { gte: 0.7 } } } },
        },
      ],
    });
  });

  it('fills defaults: concurrency 8, timeout 30s, pass all, no grid, no gate, no options', () => {
    const config = loaded(yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          evaluators:
            - use: regex
              with: { pattern: "^ok" }
    `);
    assert.deepEqual(config.defaults, {
      concurrency: 8,
      timeoutMs: 30_000,
      trials: 1,
      isolation: 'process',
      stopAfterErrors: 5,
      judge: {},
    });
    const suite = config.suites[0];
    assert.equal(suite?.concurrency, 8);
    assert.equal(suite?.timeoutMs, 30_000);
    assert.equal(suite?.trials, 1);
    assert.equal(suite?.pass, 'all');
    assert.deepEqual(suite?.grid, {});
    assert.deepEqual(suite?.gate, {});
    assert.deepEqual(suite?.target, { kind: 'recorded' });
    assert.equal(suite?.hash, undefined);
    assert.deepEqual(suite?.evaluators[0], {
      index: 0,
      id: 'regex',
      idFromUse: true,
      use: 'regex',
      kind: 'builtin',
      with: { pattern: '^ok' },
    });
  });

  it('suites inherit defaults unless they set their own; timeout none means no limit', () => {
    const config = loaded(yaml`
      version: 1
      defaults: { concurrency: 3, timeout: 2m, trials: 3 }
      suites:
        - id: inherits
          testset: { path: a.csv }
        - id: overrides
          testset: { path: a.csv }
          concurrency: 1
          timeout: 500ms
          trials: 5
        - id: unlimited
          testset: { path: a.csv }
          timeout: none
          trials: 1
    `);
    assert.deepEqual(
      config.suites.map((s) => [s.id, s.concurrency, s.timeoutMs, s.trials]),
      [
        ['inherits', 3, 120_000, 3],
        ['overrides', 1, 500, 5],
        ['unlimited', 3, null, 1],
      ],
    );
  });

  it('gives evaluators without id: the built-in name, the export name, or the file name', () => {
    const config = loaded(yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          evaluators:
            - use: is-equals
              with: { expected: 1 }
            - use: ./evaluators/tone.ts#Tone
            - use: ./evaluators/short-answer.ts
            - use: ./evaluators/length.js#default
            - id: custom
              use: ./evaluators/tone.ts#Tone
              timeout: 1.5s
    `);
    assert.deepEqual(
      config.suites[0]?.evaluators.map((e) => [e.id, e.kind, e.timeoutMs]),
      [
        ['is-equals', 'builtin', undefined],
        ['Tone', 'module', undefined],
        ['short-answer', 'module', undefined],
        ['length', 'module', undefined],
        ['custom', 'module', 1_500],
      ],
    );
  });

  it('keeps inline cases with the line of each item', () => {
    const config = loaded(yaml`
      version: 1
      suites:
        - id: inline
          testset:
            id: capitals-v2
            cases:
              - { country: France, capital: Paris }
              - country: Spain
                capital: Madrid
                keywords: [Madrid]
    `);
    assert.deepEqual(config.suites[0]?.testset, {
      kind: 'inline',
      id: 'capitals-v2',
      records: [
        { value: { country: 'France', capital: 'Paris' }, line: 7 },
        { value: { country: 'Spain', capital: 'Madrid', keywords: ['Madrid'] }, line: 8 },
      ],
    });
  });

  it('keeps grid keys in the order written', () => {
    const config = loaded(yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          grid: { zeta: [1], alpha: [true, false], mid: [{ a: 1 }, null] }
    `);
    assert.deepEqual(Object.keys(config.suites[0]?.grid ?? {}), ['zeta', 'alpha', 'mid']);
    assert.deepEqual(config.suites[0]?.grid.mid, [{ a: 1 }, null]);
  });

  it('resolves anchors, aliases and merge keys', () => {
    const config = loaded(yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          evaluators:
            - &exact
              id: first
              use: is-equals
              with: { expected: "{{case.answer}}" }
            - <<: *exact
              id: second
              threshold: { gte: 0.5 }
    `);
    assert.deepEqual(
      config.suites[0]?.evaluators.map((e) => [e.id, e.use, e.with, e.threshold]),
      [
        ['first', 'is-equals', { expected: '{{case.answer}}' }, undefined],
        ['second', 'is-equals', { expected: '{{case.answer}}' }, { gte: 0.5 }],
      ],
    );
  });

  it('hashes the data as written: a comment changes the text hash, not the config hash', () => {
    const text = `${sketch}\n# a comment leaves the meaning as it was\n`;
    assert.equal(loaded(text).textHash, createHash('sha256').update(text).digest('hex'));
    assert.notEqual(loaded(text).textHash, loaded(sketch).textHash);
    assert.equal(loaded(text).hash, loaded(sketch).hash);
    assert.notEqual(loaded(sketch.replace('gte: 0.5', 'gte: 0.6')).hash, loaded(sketch).hash);
  });
});

describe('locate()', () => {
  const config = loaded(sketch);
  const cases: [path: (string | number)[], line: number, col: number][] = [
    [[], 2, 1],
    [['suites', 0], 7, 5],
    [['suites', 0, 'id'], 7, 9],
    [['suites', 0, 'function'], 14, 15],
    [['suites', 0, 'grid', 'model', 1], 16, 22],
    [['suites', 0, 'evaluators', 2, 'use'], 29, 14],
    [['suites', 0, 'evaluators', 2, 'with', 'strict'], 30, 25],
    // Paths that do not exist point at the deepest part that does.
    [['suites', 0, 'evaluators', 1, 'threshold'], 25, 9],
    [['suites', 0, 'evaluators', 7, 'use'], 21, 7],
    [['suites', 3], 7, 3],
    [['nothing', 'here'], 2, 1],
  ];
  for (const [path, line, col] of cases) {
    it(`${JSON.stringify(path)} → ${line}:${col}`, () => {
      assert.deepEqual(config.locate(path), { line, col });
    });
  }
});

describe('judge settings', () => {
  it('defaults.judge and an evaluator judge: load with durations in milliseconds', () => {
    const config = loaded(
      yaml`
      version: 1
      defaults:
        judge:
          model: gpt-4o-mini
          baseUrl: http://127.0.0.1:8000/v1
          apiKey: \${KEY}
          temperature: 0.2
          timeout: 45s
          maxRetries: 3
          hostConcurrency: 4
          prices: { gpt-4o-mini: { prompt: 0.15, completion: 0.6 } }
      suites:
        - id: s
          testset: { path: cases.csv }
          evaluators:
            - use: is-equals
              with: { expected: x }
            - use: ./judge.ts#custom
    `,
      { KEY: 'sk-abc' },
    );
    assert.deepEqual(config.defaults.judge, {
      model: 'gpt-4o-mini',
      baseUrl: 'http://127.0.0.1:8000/v1',
      apiKey: 'sk-abc',
      temperature: 0.2,
      timeoutMs: 45_000,
      maxRetries: 3,
      hostConcurrency: 4,
      prices: { 'gpt-4o-mini': { prompt: 0.15, completion: 0.6 } },
    });
    assert.equal(config.suites[0]?.evaluators[0]?.judge, undefined);
  });

  it('no defaults.judge loads as {}', () => {
    const config = loaded(yaml`
      version: 1
      suites: [{ id: s, testset: { path: cases.csv } }]
    `);
    assert.deepEqual(config.defaults.judge, {});
  });
});
