/**
 * The workers' pauses for the event loop (src/run/engine.ts, `loopHeldOut`): taken when
 * synchronous cases keep the loop out (engine-interrupts.test.ts shows a timer still fires), and
 * not taken by a suite whose calls wait on timers, where the loop turns between waves anyway.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSuites } from '../src/run/engine.ts';
import { evaluator, makeSuite, rows } from './helpers/engine-suite.ts';

void test('calls that wait on timers start their next case in the same wave: no worker pauses', async () => {
  // Each call waits on a timer of its own. A worker that goes on starts its next call in the
  // microtasks right after its timer's callback, before the next timer of the wave fires; one
  // that pauses for the loop starts it only after the whole wave. Counting from the last pause
  // (idle waits included) paused some 60-110 of these 390 calls; only a wave that itself keeps
  // the loop out for 20 ms may pause now (a busy machine can stretch one: hence the margin, under
  // half the fewest the old rule paused).
  const events: ('start' | 'fired')[] = [];
  const suite = makeSuite({
    rows: rows(400),
    concurrency: 10,
    fn: async ({ testCase }) => {
      events.push('start');
      await new Promise<void>((resolve) =>
        setTimeout(() => {
          events.push('fired');
          resolve();
        }, 5),
      );
      return testCase;
    },
    evaluators: [evaluator('sync', () => ({ score: 1 }))],
  });
  const { runs } = await runSuites([suite]);
  assert.equal(runs[0]!.cases.length, 400);
  const lastStart = events.lastIndexOf('start');
  let wentOn = 0;
  let paused = 0;
  for (let k = 0; k < lastStart; k++) {
    if (events[k] !== 'fired') continue;
    if (events[k + 1] === 'start') wentOn++;
    else paused++;
  }
  assert.equal(wentOn + paused, 390, 'every call but the last wave has a next one');
  assert.ok(paused <= 30, `${paused} of 390 calls paused before their worker's next call`);
});
