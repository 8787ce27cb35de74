/**
 * `evals run --baseline` prints the comparison as `evals compare` does, and names each case it
 * lists by its label too (`3f9a1c2b7d4… "What is 2 + 2?"`), from this run or, for a case only
 * the baseline has, from the baseline.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const QUESTIONS = Array.from({ length: 12 }, (_, i) => `What is ${i} + ${i}?`);

/**
 * Rows without an id (so each case is named by a hash), answered right but for the questions at
 * `wrong`, with `suite`'s lines added to the suite. A project of its own each time: a module once imported stays as it was in the process.
 */
function project(wrong: number[], suite: readonly string[] = []): string {
  return jsonlProject(
    QUESTIONS.map((question, i) => ({ question, answer: `${2 * i}` })),
    [
      'function: ./fn.mjs#fn',
      'evaluators: [ { id: exact, use: is-equals, with: { expected: "{{case.answer}}" } } ]',
      ...suite,
    ],
    { 'fn.mjs': fn(wrong) },
  );
}

/** The function, answering the questions at `wrong` (indexes) with a wrong number. */
function fn(wrong: number[]): string {
  return `const wrong = new Set(${JSON.stringify(wrong.map((i) => QUESTIONS[i]))});
export function fn({ testCase }) { return wrong.has(testCase.question) ? 'nope' : testCase.answer; }
`;
}

describe('run --baseline', () => {
  it('lists a newly failing case with its label', async () => {
    const baseDir = project([]);
    const base = await runInProcess(['run', '-o', 'base.json'], baseDir);
    assert.equal(base.code, 0, base.stderr);
    const dir = project([3]);
    const head = await runInProcess(
      ['run', '--baseline', join(baseDir, 'base.json'), '-o', 'head.json'],
      dir,
      { COLUMNS: '200' },
    );
    assert.equal(head.code, 1, 'a case fails now');
    // The comparison's list, not the run's own list of failing cases further down.
    const lines = head.stdout.split('\n');
    // One case of 12 cannot be told from noise (the pass rate is unchanged), but the run passed
    // its gate in BASE and fails it now: the case is the news, listed as an alarm that says so
    // under its heading; beside the case, why it fails, in the summary's words.
    const heading = lines.findIndex((line) => line.trim() === 'newly failing (1)');
    assert.ok(heading !== -1, head.stdout);
    assert.deepEqual(lines.slice(heading + 1, heading + 3), [
      '    an alarm because:',
      '      - the grid point passed its gate in BASE and fails it now',
    ]);
    assert.match(
      lines[heading + 3] ?? '',
      /^ +[0-9a-f]{11}… "What is 3 \+ 3\?" +rows\.jsonl:4 {2}exact 0 \(needs ≥ 1\): expected "6", got "nope"$/,
    );
  });

  // One flip of 12, one trial a case: nothing says whether the suite repeats itself, and no test
  // could tell one flip from noise, so the heading says just that (never "within the noise").
  it('lists it folded when the run failed its gate in BASE already, saying one flip tells nothing', async () => {
    const baseDir = project([5]);
    const base = await runInProcess(['run', '-o', 'base.json'], baseDir);
    assert.equal(base.code, 1, 'a case fails in BASE');
    const dir = project([5, 3]);
    const head = await runInProcess(
      ['run', '--baseline', join(baseDir, 'base.json'), '-o', 'head.json'],
      dir,
      { COLUMNS: '200' },
    );
    assert.equal(head.code, 1, head.stderr);
    const lines = head.stdout.split('\n').map((line) => line.trim());
    assert.ok(
      lines.includes(
        'newly failing (1; none fixed the other way: too few flips to tell noise from a change (1; fewer than 6 can never be significant))',
      ),
      head.stdout,
    );
    assert.ok(!lines.includes('newly failing (1)'), head.stdout);
  });

  it('lists it as an alarm when every trial agreed on both sides, though BASE failed already', async () => {
    // The same function, run twice a case: it answers the same each time, so the case that
    // fails now changed, whatever one flip of 12 can tell about the pass rate.
    const baseDir = project([5], ['trials: 2']);
    const base = await runInProcess(['run', '-o', 'base.json'], baseDir);
    assert.equal(base.code, 1, 'a case fails in BASE');
    const dir = project([5, 3], ['trials: 2']);
    const head = await runInProcess(
      ['run', '--baseline', join(baseDir, 'base.json'), '-o', 'head.json'],
      dir,
      { COLUMNS: '200' },
    );
    assert.equal(head.code, 1, head.stderr);
    const lines = head.stdout.split('\n').map((line) => line.trim());
    const heading = lines.indexOf('newly failing (1)');
    assert.ok(heading !== -1, head.stdout);
    assert.deepEqual(lines.slice(heading + 1, heading + 3), [
      'an alarm because:',
      '- every trial agreed in BASE and in HEAD so each flip is a real change',
    ]);
  });
});
