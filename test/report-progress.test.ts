/* eslint-disable no-control-regex -- these tests are about escape sequences and control characters */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { fileURLToPath } from 'node:url';

import { createProgressReporter, formatDuration } from '../src/report/progress.ts';
import type { CaseResult } from '../src/types/index.ts';
import { DONE } from './helpers/progress-event.ts';
import { caseResult } from './report-fixture.ts';

const PASSED = caseResult(1);
const FAILED = caseResult(2, { passed: false });
const ERRORED = caseResult(3, { passed: false, error: 'boom' });

/** A reporter wired to a fake clock and a buffer of writes. */
function harness(options: { isTTY: boolean; intervalMs?: number; githubActions?: boolean }) {
  let clock = 0;
  const writes: string[] = [];
  const reporter = createProgressReporter({
    ...options,
    write: (text) => writes.push(text),
    now: () => clock,
  });
  const finish = (result: CaseResult, at: number): void => {
    clock = at;
    reporter.onCaseDone?.({ ...DONE, result });
  };
  return {
    reporter,
    writes,
    finish,
    setClock: (at: number) => (clock = at),
    start: (total: number) =>
      reporter.onRunStart?.({
        total,
        runs: [{ suite: 's', params: {}, cases: total, finished: 0 }],
      }),
  };
}

describe('progress on a TTY', () => {
  it('redraws one line at most every 100 ms, with counts and an ETA', () => {
    const h = harness({ isTTY: true });
    h.start(10);
    assert.deepEqual(h.writes, ['\r\x1b[2K  0/10  ✓ 0 passed  ✗ 0 failed  ! 0 errored  ETA —']);
    h.finish(PASSED, 30);
    h.finish(FAILED, 60);
    h.finish(ERRORED, 99);
    assert.equal(h.writes.length, 1, 'no redraw within 100 ms');
    h.finish(PASSED, 100);
    // 4 done in 100 ms: 6 left take 150 ms, shown rounded up.
    assert.deepEqual(h.writes.slice(1), [
      '\r\x1b[2K  4/10  ✓ 2 passed  ✗ 1 failed  ! 1 errored  ETA 1s',
    ]);
    for (let i = 0; i < 5; i++) h.finish(PASSED, 110 + i);
    assert.equal(h.writes.length, 2);
    h.finish(PASSED, 120);
    // The last case always draws, whatever the throttle says.
    assert.equal(h.writes.at(-1), '\r\x1b[2K  10/10  ✓ 8 passed  ✗ 1 failed  ! 1 errored  ETA 0s');
    h.reporter.stop();
    h.reporter.stop();
    assert.equal(h.writes.at(-1), '\r\x1b[2K');
    assert.equal(h.writes.length, 4);
  });

  it('groups thousands', () => {
    const h = harness({ isTTY: true });
    h.start(10_000);
    for (let i = 0; i < 1234; i++) h.finish(PASSED, 1);
    h.finish(PASSED, 10_000);
    assert.match(h.writes.at(-1) ?? '', /^\r\x1b\[2K {2}1,235\/10,000 {2}✓ 1,235 passed/);
  });
});

describe('progress in a log', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setInterval'] }));
  afterEach(() => mock.timers.reset());

  it('writes only the final line for a run shorter than the interval', () => {
    const h = harness({ isTTY: false, githubActions: true });
    h.start(400);
    for (let i = 1; i <= 400; i++) h.finish(i % 2 ? PASSED : FAILED, i * 3);
    mock.timers.tick(5000);
    h.setClock(1234);
    h.reporter.stop();
    assert.deepEqual(h.writes, ['done 400/400 in 1.2s\n']);
  });

  it('counts only the cases this run ran, not those a resumed run took over', () => {
    const h = harness({ isTTY: false });
    h.start(2);
    h.reporter.onCaseDone?.({ ...DONE, result: FAILED, replayed: true });
    h.finish(PASSED, 100);
    h.finish(PASSED, 200);
    h.setClock(1000);
    void h.reporter.onRunEnd?.({} as never);
    assert.deepEqual(h.writes, ['done 2/2 in 1.0s\n']);
  });

  it('writes a plain line per interval, from the timer or from a finished case', () => {
    const h = harness({ isTTY: false, intervalMs: 5000 });
    h.start(100);
    h.finish(PASSED, 1000);
    assert.deepEqual(h.writes, []);
    // A slow case: nothing finishes, the timer writes the line.
    h.setClock(5000);
    mock.timers.tick(5000);
    assert.deepEqual(h.writes, ['  1/100  ✓ 1 passed  ✗ 0 failed  ! 0 errored  ETA 8m15s\n']);
    // A busy loop: the timer is late, the next finished case writes the line.
    h.finish(ERRORED, 10_001);
    assert.equal(h.writes.length, 2);
    assert.match(h.writes[1] ?? '', /^ {2}2\/100 .* ! 1 errored {2}ETA /);
    // The late timer finds the line already written.
    h.setClock(10_002);
    mock.timers.tick(5000);
    assert.equal(h.writes.length, 2);
    h.setClock(12_000);
    h.reporter.stop();
    assert.deepEqual(h.writes.slice(2), ['done 2/100 in 12s\n']);
    // Stopped: the timer is gone and events write nothing.
    h.finish(PASSED, 60_000);
    mock.timers.tick(60_000);
    assert.equal(h.writes.length, 3);
  });

  it('folds periodic lines into a group under GitHub Actions', () => {
    const h = harness({ isTTY: false, intervalMs: 1000, githubActions: true });
    h.start(3);
    h.finish(PASSED, 1000);
    h.finish(PASSED, 2000);
    h.finish(PASSED, 3000);
    h.reporter.stop();
    assert.deepEqual(h.writes, [
      '::group::evals progress\n',
      '  1/3  ✓ 1 passed  ✗ 0 failed  ! 0 errored  ETA 2s\n',
      '  2/3  ✓ 2 passed  ✗ 0 failed  ! 0 errored  ETA 1s\n',
      '::endgroup::\n',
      'done 3/3 in 3.0s\n',
    ]);
  });

  it('stays silent when stopped before it started, and survives a failing write', () => {
    const h = harness({ isTTY: false });
    h.reporter.stop();
    assert.deepEqual(h.writes, []);

    let calls = 0;
    const reporter = createProgressReporter({
      isTTY: true,
      now: () => 0,
      write: () => {
        calls++;
        throw new Error('EPIPE');
      },
    });
    reporter.onRunStart?.({ total: 1, runs: [] });
    reporter.onCaseDone?.({ ...DONE, result: PASSED });
    reporter.stop();
    assert.equal(calls, 1);
  });
});

describe('progress cost and lifetime', () => {
  it('throttles: 10,000 cases finishing at once make a handful of writes', () => {
    for (const isTTY of [true, false]) {
      let writes = 0;
      const reporter = createProgressReporter({
        isTTY,
        now: () => performance.now(),
        write: () => writes++,
      });
      reporter.onRunStart?.({ total: 10_000, runs: [] });
      for (let i = 0; i < 10_000; i++) {
        reporter.onCaseDone?.({ ...DONE, result: PASSED });
      }
      reporter.stop();
      assert.ok(writes < 10, `throttling failed: ${writes} writes`);
    }
  });

  it('never keeps the process alive', () => {
    const progress = fileURLToPath(new URL('../src/report/progress.ts', import.meta.url));
    const script = `
      const { createProgressReporter } = await import(${JSON.stringify(progress)});
      const reporter = createProgressReporter({ isTTY: false, now: () => performance.now(), write: () => {}, intervalMs: 60000 });
      reporter.onRunStart({ total: 5, runs: [] });
    `;
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        timeout: 20_000,
        encoding: 'utf8',
      },
    );
    assert.equal(child.error, undefined, 'the child did not exit on its own');
    assert.equal(child.status, 0, child.stderr);
  });
});

describe('formatDuration', () => {
  it('reads naturally at every scale', () => {
    assert.equal(formatDuration(1234, true), '1.2s');
    assert.equal(formatDuration(12_400, true), '12s');
    assert.equal(formatDuration(1, false), '1s');
    assert.equal(formatDuration(245_000, false), '4m05s');
    assert.equal(formatDuration(3_720_000, false), '1h02m');
  });
});
