/**
 * QA round 6, D15: the progress of a labelled run (a `runTestSuite` suite) names it on every line,
 * and runs sharing a terminal share one live line (`createProgressBoard`) that names each. The
 * clock and the output are handed in, as `report-progress.test.ts` does.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createProgressBoard, createProgressReporter } from '../src/report/progress.ts';
import type { ProgressBoard } from '../src/report/progress.ts';
import { DONE } from './helpers/progress-event.ts';
import { caseResult } from './report-fixture.ts';

/** A labelled reporter on a hand-set clock; `finish()` ends one passing case at `at`. */
function harness(label: string, options: { isTTY: boolean; board?: ProgressBoard }) {
  let clock = 0;
  const writes: string[] = [];
  const reporter = createProgressReporter({
    ...options,
    label,
    intervalMs: 1000,
    write: (text) => writes.push(text),
    now: () => clock,
  });
  return {
    reporter,
    writes,
    start: (total: number) =>
      reporter.onRunStart?.({
        total,
        runs: [{ suite: label, params: {}, cases: total, finished: 0 }],
      }),
    finish: (at: number) => {
      clock = at;
      reporter.onCaseDone?.({ ...DONE, result: caseResult(1) });
    },
  };
}

describe('labelled progress in a log', () => {
  it('names the suite on the periodic lines and the done line', () => {
    const h = harness('alpha', { isTTY: false });
    h.start(3);
    h.finish(1500);
    h.finish(2000);
    h.finish(2600);
    h.reporter.stop();
    assert.deepEqual(h.writes, [
      '  alpha  1/3  ✓ 1 passed  ✗ 0 failed  ! 0 errored  ETA 3s\n',
      'done alpha  3/3 in 2.6s\n',
    ]);
  });

  it('leaves an unlabelled run (evals run) as it was', () => {
    const writes: string[] = [];
    const reporter = createProgressReporter({
      isTTY: false,
      write: (t) => writes.push(t),
      now: () => 0,
    });
    reporter.onRunStart?.({ total: 0, runs: [] });
    reporter.stop();
    assert.deepEqual(writes, ['done 0/0 in 0.0s\n']);
  });
});

describe('one live line shared by several runs', () => {
  it('shows one run whole, several briefly and named, and clears when all stop', () => {
    const out: string[] = [];
    const board = createProgressBoard(
      (text) => out.push(text),
      () => 200,
    );
    const a = harness('alpha', { isTTY: true, board });
    const b = harness('beta', { isTTY: true, board });
    a.start(2);
    b.start(4);
    assert.deepEqual(out, [
      '\r\x1b[2K  alpha  0/2  ✓ 0 passed  ✗ 0 failed  ! 0 errored  ETA —',
      '\r\x1b[2K  alpha 0/2 ✓0 ✗0 !0 ETA —  ·  beta 0/4 ✓0 ✗0 !0 ETA —',
    ]);
    // Nothing is written by the reporters themselves: the board draws.
    assert.deepEqual([...a.writes, ...b.writes], []);
    a.reporter.stop();
    assert.equal(out.at(-1), '\r\x1b[2K  beta  0/4  ✓ 0 passed  ✗ 0 failed  ! 0 errored  ETA —');
    b.reporter.stop();
    assert.equal(out.at(-1), '\r\x1b[2K');
  });

  it('cuts the line to the terminal width, and clears it around other output', () => {
    const out: string[] = [];
    const board = createProgressBoard(
      (text) => out.push(text),
      () => 30,
    );
    const a = harness('a-suite-with-a-long-name', { isTTY: true, board });
    a.start(5);
    assert.equal(out.at(-1), '\r\x1b[2K  a-suite-with-a-long-name  …');
    board.print(() => out.push('summary\n'));
    assert.deepEqual(out.slice(-3), [
      '\r\x1b[2K',
      'summary\n',
      '\r\x1b[2K  a-suite-with-a-long-name  …',
    ]);
  });
});
