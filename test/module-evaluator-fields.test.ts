/**
 * A module evaluator's class declares only what the SDK documents (`id`, `maxConcurrency`,
 * `evaluateTestCase`): a field of its own named `threshold` or `timeoutMs` is its state, so the
 * threshold an evaluation returns decides it. An exported plain object may still set them.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
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
