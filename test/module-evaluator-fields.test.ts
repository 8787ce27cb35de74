/**
 * A module evaluator's class declares only what the SDK documents (`id`, `maxConcurrency`,
 * `evaluateTestCase`): a field of its own named `threshold` or `timeoutMs` is its state, so the
 * threshold an evaluation returns decides it. An exported plain object may still set them.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { scratch, writeFiles } from './helpers/cli.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

interface Evaluated {
  runs: { cases: { passed: boolean; evaluations: { threshold: unknown; passed: boolean }[] }[] }[];
}

describe('module evaluators in evals.yaml', () => {
  it("a class's own threshold field does not override the threshold its evaluation returns", async () => {
    const dir = jsonlProject(
      [{ q: 'a', critical: true }],
      ['function: ./fn.mjs#fn', 'evaluators: [ { id: quality, use: ./quality.mjs#Quality } ]'],
      {
        'fn.mjs': 'export function fn() { return "x"; }\n',
        'quality.mjs': [
          'export class Quality {',
          '  threshold = { gte: 0.5 };',
          '  timeoutMs = 0;',
          '  evaluateTestCase({ testCase }) {',
          '    return { score: 0.7, threshold: testCase.critical ? { gte: 0.9 } : this.threshold };',
          '  }',
          '}',
          '',
        ].join('\n'),
      },
    );
    const r = await runInProcess(['run', '-o', 'out.json'], dir, {});
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const out = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as Evaluated;
    const evaluation = out.runs[0]!.cases[0]!.evaluations[0]!;
    assert.deepEqual(evaluation.threshold, { gte: 0.9 });
    assert.equal(evaluation.passed, false);
  });

  it('an exported plain object still sets its threshold', async () => {
    const dir = jsonlProject(
      [{ q: 'a' }],
      ['function: ./fn.mjs#fn', 'evaluators: [ { use: ./quality.mjs#quality } ]'],
      {
        'fn.mjs': 'export function fn() { return "x"; }\n',
        'quality.mjs':
          'export const quality = { threshold: { gte: 0.8 }, evaluateTestCase: () => ({ score: 0.7 }) };\n',
      },
    );
    const r = await runInProcess(['run', '-o', 'out.json'], dir, {});
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const out = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as Evaluated;
    assert.deepEqual(out.runs[0]!.cases[0]!.evaluations[0]!.threshold, { gte: 0.8 });
  });
});

/**
 * Two suites `s` and `t` of `rows` rows each, run `rows` cases at a time, each with one evaluator
 * `limited` (`{ id: limited, <evaluator> }`).
 */
function twoSuitesProject(rows: number, evaluator: string, files: Record<string, string>): string {
  const dir = scratch();
  const suite = (id: string) => [
    `  - id: ${id}`,
    '    testset: { path: rows.jsonl }',
    `    concurrency: ${rows}`,
    '    function: ./fn.mjs#fn',
    `    evaluators: [ { id: limited, ${evaluator} } ]`,
  ];
  writeFiles(dir, {
    'evals.yaml': ['version: 1', 'suites:', ...suite('s'), ...suite('t'), ''].join('\n'),
    'rows.jsonl': Array.from(
      { length: rows },
      (_, n) => JSON.stringify({ q: `a${n}` }) + '\n',
    ).join(''),
    'fn.mjs': 'export function fn({ testCase }) { return testCase.q; }\n',
    ...files,
  });
  return dir;
}

describe("a module evaluator's maxConcurrency", () => {
  it('an exported instance used by two suites is held to its limit across both', async () => {
    const dir = twoSuitesProject(6, 'use: ./limited.mjs#limited', {
      // Fails a case whose call found another one in flight.
      'limited.mjs': [
        'let now = 0;',
        'export const limited = {',
        '  maxConcurrency: 1,',
        '  async evaluateTestCase() {',
        '    now++;',
        '    const within = now <= 1;',
        '    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));',
        '    now--;',
        '    return { score: within ? 1 : 0, threshold: { gte: 1 } };',
        '  },',
        '};',
        '',
      ].join('\n'),
    });
    const r = await runInProcess(['run'], dir, {});
    assert.equal(r.code, 0, r.stdout + r.stderr);
  });

  it("the config's concurrency is the suite's own limit, not the exported instance's", async () => {
    const dir = twoSuitesProject(4, 'use: ./limited.mjs#limited, concurrency: 1', {
      // Fails once more than two calls were in flight: a limit of 1 in each of two suites.
      'limited.mjs': [
        'let now = 0;',
        'let most = 0;',
        'export const limited = {',
        '  async evaluateTestCase() {',
        '    now++;',
        '    most = Math.max(most, now);',
        '    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));',
        '    now--;',
        '    return { score: most <= 2 ? 1 : 0, threshold: { gte: 1 } };',
        '  },',
        '};',
        '',
      ].join('\n'),
    });
    const r = await runInProcess(['run'], dir, {});
    assert.equal(r.code, 0, r.stdout + r.stderr);
  });
});
