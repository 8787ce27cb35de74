/**
 * An evaluator class that sets no `maxConcurrency` has the SDK's 10 under `runTestSuite`; the
 * same class named by `use:` in evals.yaml had no limit at all, so one class ran at two limits.
 * It now has 10 in both. A plain object (or function) export has none of its own, as before, and
 * the entry's `concurrency:` still wins.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

const ROWS = 14;

/**
 * Each call counts the calls in flight and waits, a bounded number of event-loop turns, for
 * more of them than 10 to be in flight at once; the most it saw is its metadata. No clock.
 */
const PROBE = [
  'let now = 0;',
  'let most = 0;',
  'async function probe() {',
  '  now++;',
  '  most = Math.max(most, now);',
  '  for (let i = 0; i < 200 && most <= 10; i++) await new Promise((r) => setImmediate(r));',
  '  now--;',
  '  return { score: 1, metadata: { most } };',
  '}',
  'export class Limited { evaluateTestCase() { return probe(); } }',
  'export const plain = { evaluateTestCase: () => probe() };',
  '',
].join('\n');

/** The most calls in flight any evaluation of a run of `evaluator` saw. */
async function mostInFlight(evaluator: string): Promise<number> {
  const dir = scratch();
  writeFiles(dir, {
    'evals.yaml': [
      'version: 1',
      'suites:',
      '  - id: s',
      '    testset: { path: rows.jsonl }',
      `    concurrency: ${ROWS}`,
      '    function: ./fn.mjs#fn',
      `    evaluators: [ { id: e, ${evaluator} } ]`,
      '',
    ].join('\n'),
    'rows.jsonl': Array.from(
      { length: ROWS },
      (_, n) => JSON.stringify({ q: `a${n}` }) + '\n',
    ).join(''),
    'fn.mjs': 'export function fn({ testCase }) { return testCase.q; }\n',
    'probe.mjs': PROBE,
  });
  const r = await runInProcess(['run', '-o', 'out.json'], dir, {});
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const out = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as {
    runs: { cases: { evaluations: { metadata: { most: number } }[] }[] }[];
  };
  return Math.max(...out.runs[0]!.cases.map((c) => c.evaluations[0]!.metadata.most));
}

describe('evals.yaml: an evaluator class without maxConcurrency', () => {
  it('has the SDK default of 10 calls in flight, as under runTestSuite', async () => {
    assert.equal(await mostInFlight('use: ./probe.mjs#Limited'), 10);
  });

  it("the entry's concurrency: still wins over it", async () => {
    assert.equal(await mostInFlight('use: ./probe.mjs#Limited, concurrency: 3'), 3);
  });

  it('a plain object export has no limit of its own', async () => {
    assert.ok((await mostInFlight('use: ./probe.mjs#plain')) > 10);
  });
});
