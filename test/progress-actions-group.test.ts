/**
 * Concurrent runs under GitHub Actions in a log share one `::group::evals progress`
 * (`createProgressGroup`): GitHub does not nest groups, so runs opening their own closed each
 * other's. The real reporters get a hand-set clock and write to one buffer, as the process's
 * stderr would receive it; `actionsLogIssues` reads such a log back. Last, two real
 * `runTestSuite` calls at once in a child process under `GITHUB_ACTIONS=true`.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import {
  createProgressGroup,
  createProgressReporter,
  type ProgressGroup,
} from '../src/report/progress.ts';
import { actionsLogIssues, PROGRESS_LINE } from './helpers/actions-log.ts';
import { DONE } from './helpers/progress-event.ts';
import { sdkScript } from './helpers/sdk-script.ts';
import { caseResult } from './report-fixture.ts';

/** One log (the process's stderr) and a clock shared by every run on it. */
function logWithGroup() {
  const clock = { at: 0 };
  const out: string[] = [];
  const group = createProgressGroup((text) => out.push(text));
  /** A labelled run reporting into `out`, through `group` unless told otherwise. */
  const run = (label: string, options: { shared?: ProgressGroup | null } = {}) => {
    const shared = options.shared === undefined ? group : options.shared;
    const reporter = createProgressReporter({
      isTTY: false,
      githubActions: true,
      intervalMs: 1000,
      label,
      write: (text) => out.push(text),
      now: () => clock.at,
      ...(shared === null ? {} : { group: shared }),
    });
    return {
      reporter,
      start: (total: number) =>
        reporter.onRunStart?.({
          total,
          runs: [{ suite: label, params: {}, cases: total, finished: 0 }],
        }),
      /** Ends one passing case at `at`. */
      finish: (at: number) => {
        clock.at = at;
        reporter.onCaseDone?.({ ...DONE, result: caseResult(1) });
      },
      stop: (at: number) => {
        clock.at = at;
        reporter.stop();
      },
    };
  };
  return { out, group, run };
}

describe('one GitHub Actions group shared by concurrent runs', () => {
  it('puts both runs’ named lines in one group and each done line outside it', () => {
    const log = logWithGroup();
    const alpha = log.run('alpha');
    const beta = log.run('beta');
    alpha.start(3);
    beta.start(4);
    alpha.finish(1000);
    beta.finish(1000);
    alpha.finish(2000);
    beta.finish(2000);
    alpha.finish(2500);
    alpha.stop(2500);
    beta.finish(3000);
    beta.finish(3500);
    beta.stop(3500);
    assert.deepEqual(log.out, [
      '::group::evals progress\n',
      '  alpha  1/3  ✓ 1 passed  ✗ 0 failed  ! 0 errored  ETA 2s\n',
      '  beta  1/4  ✓ 1 passed  ✗ 0 failed  ! 0 errored  ETA 3s\n',
      '  alpha  2/3  ✓ 2 passed  ✗ 0 failed  ! 0 errored  ETA 1s\n',
      '  beta  2/4  ✓ 2 passed  ✗ 0 failed  ! 0 errored  ETA 2s\n',
      '::endgroup::\n',
      'done alpha  3/3 in 2.5s\n',
      // beta is still running: its next line opens the group again.
      '::group::evals progress\n',
      '  beta  3/4  ✓ 3 passed  ✗ 0 failed  ! 0 errored  ETA 1s\n',
      '::endgroup::\n',
      'done beta  4/4 in 3.5s\n',
    ]);
    assert.deepEqual(actionsLogIssues(log.out.join('')), []);
  });

  it('prints a run alone exactly as a run without a shared group', () => {
    const play = (shared: ProgressGroup | null): string[] => {
      const log = logWithGroup();
      const alpha = log.run('alpha', { shared: shared === null ? null : log.group });
      alpha.start(3);
      alpha.finish(1000);
      alpha.finish(2000);
      alpha.finish(3000);
      alpha.stop(3000);
      return log.out;
    };
    const alone = play(createProgressGroup(() => {}));
    assert.deepEqual(alone, play(null));
    assert.deepEqual(alone, [
      '::group::evals progress: alpha\n',
      '  alpha  1/3  ✓ 1 passed  ✗ 0 failed  ! 0 errored  ETA 2s\n',
      '  alpha  2/3  ✓ 2 passed  ✗ 0 failed  ! 0 errored  ETA 1s\n',
      '::endgroup::\n',
      'done alpha  3/3 in 3.0s\n',
    ]);
  });

  it('closes a group titled for a run alone when another run starts beside it', () => {
    const log = logWithGroup();
    const alpha = log.run('alpha');
    alpha.start(5);
    alpha.finish(1000);
    const beta = log.run('beta');
    beta.start(5);
    alpha.finish(2000);
    beta.finish(2000);
    alpha.finish(3000);
    assert.deepEqual(log.out, [
      '::group::evals progress: alpha\n',
      '  alpha  1/5  ✓ 1 passed  ✗ 0 failed  ! 0 errored  ETA 4s\n',
      // beta is in flight beside alpha now: their lines go into the shared group.
      '::endgroup::\n',
      '::group::evals progress\n',
      '  alpha  2/5  ✓ 2 passed  ✗ 0 failed  ! 0 errored  ETA 3s\n',
      '  beta  1/5  ✓ 1 passed  ✗ 0 failed  ! 0 errored  ETA 4s\n',
      '  alpha  3/5  ✓ 3 passed  ✗ 0 failed  ! 0 errored  ETA 2s\n',
    ]);
  });

  it('closes the group around other output, and reopens it at the next line', () => {
    const log = logWithGroup();
    const alpha = log.run('alpha');
    const beta = log.run('beta');
    alpha.start(5);
    beta.start(5);
    alpha.finish(1000);
    log.group.print(() => log.out.push('beta summary\n'));
    // Nested (the SDK's stderr goes through `print` too): closed once, no empty group.
    log.group.print(() => log.group.print(() => log.out.push('a note\n')));
    alpha.finish(2000);
    assert.deepEqual(log.out, [
      '::group::evals progress\n',
      '  alpha  1/5  ✓ 1 passed  ✗ 0 failed  ! 0 errored  ETA 4s\n',
      '::endgroup::\n',
      'beta summary\n',
      'a note\n',
      '::group::evals progress\n',
      '  alpha  2/5  ✓ 2 passed  ✗ 0 failed  ! 0 errored  ETA 3s\n',
    ]);
  });

  it('writes the done line of a run that never wrote a line outside the others’ group', () => {
    const log = logWithGroup();
    const slow = log.run('slow');
    const quick = log.run('quick');
    slow.start(10);
    quick.start(1);
    slow.finish(1000);
    quick.finish(1100);
    quick.stop(1100);
    slow.finish(2000);
    slow.stop(2000);
    assert.deepEqual(log.out, [
      '::group::evals progress\n',
      '  slow  1/10  ✓ 1 passed  ✗ 0 failed  ! 0 errored  ETA 9s\n',
      '::endgroup::\n',
      'done quick  1/1 in 1.1s\n',
      '::group::evals progress\n',
      '  slow  2/10  ✓ 2 passed  ✗ 0 failed  ! 0 errored  ETA 8s\n',
      '::endgroup::\n',
      'done slow  2/10 in 2.0s\n',
    ]);
  });

  it('shows labels as printable text, so a label cannot end the group', () => {
    const log = logWithGroup();
    const evil = log.run('evil\n::endgroup::');
    const other = log.run('other');
    evil.start(3);
    other.start(3);
    evil.finish(1000);
    other.finish(1000);
    evil.stop(1000);
    other.stop(1000);
    const text = log.out.join('');
    assert.equal(text.split('\n').filter((line) => line === '::endgroup::').length, 1, text);
    assert.match(text, /^ {2}evil\\u000a::endgroup:: {2}1\/3 /m);
    assert.match(text, /^done evil\\u000a::endgroup:: {2}1\/3 in 1\.0s$/m);
    assert.deepEqual(actionsLogIssues(text), []);
  });

  it('leaves a log outside GitHub Actions alone when handed a group', () => {
    const out: string[] = [];
    const group = createProgressGroup((text) => out.push(`group:${text}`));
    let clock = 0;
    const plain = createProgressReporter({
      isTTY: false,
      intervalMs: 1000,
      label: 'plain',
      group,
      write: (text) => out.push(text),
      now: () => clock,
    });
    plain.onRunStart?.({ total: 2, runs: [] });
    clock = 1000;
    plain.onCaseDone?.({ ...DONE, result: caseResult(1) });
    plain.stop();
    assert.deepEqual(out, [
      '  plain  1/2  ✓ 1 passed  ✗ 0 failed  ! 0 errored  ETA 1s\n',
      'done plain  1/2 in 1.0s\n',
    ]);
  });
});

describe('the shared group, timer lines and many runs', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setInterval'] }));
  afterEach(() => mock.timers.reset());

  it('puts a line the timer writes (a slow case) in the shared group too', () => {
    const log = logWithGroup();
    const alpha = log.run('alpha');
    const beta = log.run('beta');
    alpha.start(4);
    beta.start(4);
    alpha.finish(500);
    log.out.length = 0;
    log.group.print(() => {}); // nothing open yet: writes nothing
    assert.deepEqual(log.out, []);
    alpha.finish(1000);
    mock.timers.tick(1000);
    // At 1000 both are due: alpha wrote from its case, beta's from its timer.
    assert.deepEqual(log.out, [
      '::group::evals progress\n',
      '  alpha  2/4  ✓ 2 passed  ✗ 0 failed  ! 0 errored  ETA 1s\n',
      '  beta  0/4  ✓ 0 passed  ✗ 0 failed  ! 0 errored  ETA —\n',
    ]);
  });

  it('keeps the log well formed however three runs interleave', () => {
    // A fixed pseudo-random sequence (a linear congruential generator): the same every run.
    let seed = 12345;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let round = 0; round < 50; round++) {
      const log = logWithGroup();
      const runs = ['a', 'b', 'c'].map((label) => ({ ...log.run(label), left: 2 + next(6) }));
      for (const run of runs) run.start(run.left);
      let at = 0;
      // Each step finishes one case of a run still going; every run ends within 3 × 8 steps.
      for (let step = 0; step < 24 && runs.some((run) => run.left > 0); step++) {
        const going = runs.filter((run) => run.left > 0);
        const run = going[next(going.length)];
        assert.ok(run !== undefined);
        at += 200 + next(1200);
        run.finish(at);
        run.left--;
        if (next(4) === 0) log.group.print(() => log.out.push('other output\n'));
        if (run.left === 0) run.stop(at);
      }
      for (const run of runs) run.stop(at);
      const text = log.out.join('');
      assert.deepEqual(actionsLogIssues(text), [], text);
      for (const label of ['a', 'b', 'c']) assert.match(text, new RegExp(`^done ${label} `, 'm'));
      // All three were in flight together: no group is titled for one of them.
      assert.deepEqual(
        text.split('\n').filter((line) => line.startsWith('::group::')),
        text.split('\n').filter((line) => line === '::group::evals progress'),
        text,
      );
    }
  });
});

/**
 * The child: suites `alpha` and `beta` at once, 4 cases each, one at a time. Each case waits
 * (bounded by a real timer) until both suites have a case in flight, so both are running before
 * any line is due, then a few milliseconds. The SDK has no progress interval to set: the clock
 * progress reads, `performance.now`, is made to step 5 s (the interval) at every reading, so
 * every finished case but a suite's last is due a periodic line whatever the machine's speed.
 */
const CHILD = `let clock = 0;
performance.now = () => (clock += 5000);
const started = new Set();
let release = () => {};
const both = new Promise((resolve) => (release = resolve));
const bound = new Promise((resolve) => setTimeout(resolve, 20000).unref());
const suite = (id) =>
  runTestSuite({
    id,
    testCases: [1, 2, 3, 4].map((n) => ({ q: id + '-' + n })),
    testCaseHash: ['q'],
    maxTestCaseConcurrency: 1,
    fn: async ({ testCase }) => {
      started.add(id);
      if (started.size === 2) release();
      await Promise.race([both, bound]);
      await new Promise((resolve) => setTimeout(resolve, 2));
      return testCase.q;
    },
  });
await Promise.all([suite('alpha'), suite('beta')]);
`;

/**
 * Runs the child with stdout and stderr one pipe (`2>&1`), as a log merges them, and returns its
 * exit code and what the pipe received (the shell's own stderr after it).
 */
async function runInActionsLog(): Promise<{ code: number | null; log: string }> {
  const run = await sdkScript(CHILD).run({
    env: { GITHUB_ACTIONS: 'true', COLUMNS: '' },
    through: (node) => ['sh', '-c', `${node} 2>&1`],
  });
  return { code: run.code, log: run.stdout + run.stderr };
}

describe('concurrent runTestSuite calls under GitHub Actions', () => {
  it(
    'write one well-formed group of named lines, done lines and summaries outside',
    { timeout: 90_000 },
    async () => {
      const { code, log } = await runInActionsLog();
      assert.equal(code, 0, log);
      // Each ::group:: closed before the next, progress only inside, nothing else inside.
      assert.deepEqual(actionsLogIssues(log), [], log);
      const lines = log.split('\n');
      const labels = lines.flatMap((line) => PROGRESS_LINE.exec(line)?.[1] ?? []);
      assert.deepEqual([...new Set(labels)].sort(), ['alpha', 'beta'], log);
      // Both suites' lines in one group: the groups, split at their markers.
      const groups = log
        .split('::group::')
        .slice(1)
        .map((group) => group.split('::endgroup::')[0] ?? '');
      assert.ok(
        groups.some(
          (group) =>
            group.startsWith('evals progress\n') &&
            /^ {2}alpha /m.test(group) &&
            /^ {2}beta /m.test(group),
        ),
        log,
      );
      // The clock steps 5 s at every reading: the durations are not the real ones.
      for (const id of ['alpha', 'beta']) {
        assert.ok(
          lines.some((line) => new RegExp(`^done ${id} {2}4/4 in \\S+$`).test(line)),
          log,
        );
      }
      assert.equal(lines.filter((line) => /PASS {2}1 run passed/.test(line)).length, 2, log);
    },
  );
});
