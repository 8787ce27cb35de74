/**
 * The Action's "incomplete run" message says what is on disk: the results written, kept at
 * another path, or kept nowhere; and which other file failed. Table-driven over the outcomes
 * `executeRun` returns (an exit code and the files it could not write).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { incompleteRun } from '../src/action/incomplete-run.ts';
import type { WriteFailure } from '../src/report/file-reports.ts';

const output = '/ws/evals-results.json';
const report = '/ws/evals-report.html';
const full = Object.assign(new Error('ENOSPC: no space left on device, write'), {
  code: 'ENOSPC',
});
const fail = (path: string, kept: string | null): WriteFailure => ({ path, error: full, kept });

const cases: {
  name: string;
  exitCode: number;
  unwritten: WriteFailure[];
  expected: string | undefined;
}[] = [
  { name: 'a verdict: nothing to say', exitCode: 1, unwritten: [], expected: undefined },
  {
    name: 'interrupted, results written',
    exitCode: 130,
    unwritten: [],
    expected: `the run was interrupted: ${output} holds only the cases that finished`,
  },
  {
    name: 'interrupted, results kept elsewhere',
    exitCode: 130,
    unwritten: [fail(output, '/tmp/kept.json')],
    expected: `the run was interrupted and ${output} could not be written: the cases that finished are kept at /tmp/kept.json (the log says why)`,
  },
  {
    name: 'interrupted, results kept nowhere',
    exitCode: 130,
    unwritten: [fail(output, null)],
    expected: `the run was interrupted and ${output} could not be written, nor a copy anywhere: the cases that finished are lost (the log says why)`,
  },
  {
    name: 'finished, the report failed',
    exitCode: 3,
    unwritten: [fail(report, '/tmp/report.html')],
    expected: `the run finished and ${output} holds its results, but ${report} could not be written (kept at /tmp/report.html) (the log says why)`,
  },
  {
    name: 'finished, results kept elsewhere',
    exitCode: 3,
    unwritten: [fail(output, '/ws/evals-results.json.1.tmp')],
    expected: `the run finished but ${output} could not be written: its complete results are kept at /ws/evals-results.json.1.tmp (the log says why)`,
  },
  {
    name: 'finished, results and report kept nowhere',
    exitCode: 3,
    unwritten: [fail(output, null), fail(report, null)],
    expected: `the run finished but ${output} could not be written, nor a copy anywhere: its results are lost (the log says why); ${report} could not be written (kept nowhere)`,
  },
];

describe('the Action says what an incomplete run left on disk', () => {
  for (const { name, exitCode, unwritten, expected } of cases) {
    it(name, () => {
      assert.equal(incompleteRun({ exitCode, unwritten }, output), expected);
    });
  }
});
