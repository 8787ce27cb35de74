/**
 * An `AggregateError` (what `Promise.any` rejects with when every attempt failed) says only
 * "All promises were rejected": the causes are in its `errors`. A case error keeps the first
 * few of their messages and how many there were, scrubbed of secrets as any case error is.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runTestSuite } from '../src/api/run-test-suite.ts';
import { describeError } from '../src/shared/describe-error.ts';
import { scratch } from './helpers/cli.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const SECRET = 'sk-aggregate-0123456789';

describe('an AggregateError in a case error', () => {
  it("keeps its inner errors' messages, the first five and how many more", () => {
    const causes = Array.from({ length: 7 }, (_, i) => new Error(`route ${i + 1} down`));
    assert.equal(
      describeError(new AggregateError(causes, 'All promises were rejected')),
      'All promises were rejected (7 errors: route 1 down; route 2 down; route 3 down; route 4 down; route 5 down; and 2 more)',
    );
    assert.equal(
      describeError(new AggregateError(['a string', { code: 1 }])),
      'AggregateError (2 errors: a string; {"code":1})',
    );
    assert.equal(describeError(new AggregateError([], 'none')), 'none');
  });

  it('an inner AggregateError, or one that holds itself, is not walked into', () => {
    const inner = new AggregateError([new Error('deep')], 'inner');
    const outer = new AggregateError([inner], 'outer');
    assert.equal(describeError(outer), 'outer (1 error: inner)');
    const cyclic = new AggregateError([], 'cyclic');
    cyclic.errors.push(cyclic);
    assert.equal(describeError(cyclic), 'cyclic (1 error: cyclic)');
  });

  it('runTestSuite records the inner messages, scrubbed, from fn and from an evaluator', async () => {
    const dir = scratch();
    const output = join(dir, 'out.json');
    const result = await runTestSuite<{ q: string }, string>({
      id: 'any',
      testCases: [{ q: 'fn' }, { q: 'evaluator' }],
      testCaseHash: ['q'],
      fn: async ({ testCase }) => {
        if (testCase.q === 'evaluator') return 'ok';
        return Promise.any([
          Promise.reject(new Error('primary: 503')),
          Promise.reject(new Error(`fallback: 401 for key ${SECRET}`)),
        ]);
      },
      evaluators: [
        {
          id: 'judge',
          evaluateTestCase: () => {
            throw new AggregateError([new Error('judge A timed out'), new Error('judge B 429')]);
          },
        },
      ],
      secrets: [SECRET],
      output,
      quiet: true,
      setExitCode: false,
    });
    const [fnCase, evaluatorCase] = result.runs[0]?.cases ?? [];
    assert.equal(
      fnCase?.error,
      'All promises were rejected (2 errors: primary: 503; fallback: 401 for key [redacted])',
    );
    assert.equal(
      evaluatorCase?.evaluations[0]?.error,
      'AggregateError (2 errors: judge A timed out; judge B 429)',
    );
    const text = readFileSync(output, 'utf8');
    assert.equal(text.includes(SECRET), false, 'the secret reached the artifact');
    assert.match(text, /fallback: 401 for key \[redacted\]/);
  });

  it('evals run records them from a function run in a worker thread too', async () => {
    const dir = jsonlProject([{ q: 'a' }], ['function: ./fn.mjs#fn', 'isolation: worker'], {
      'fn.mjs':
        'export async function fn() { return Promise.any([Promise.reject(new Error("one")), Promise.reject(new Error("two"))]); }\n',
    });
    const r = await runInProcess(['run', '-o', 'out.json'], dir, {});
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const out = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as {
      runs: { cases: { error: string | null }[] }[];
    };
    assert.equal(out.runs[0]?.cases[0]?.error, 'All promises were rejected (2 errors: one; two)');
  });
});
