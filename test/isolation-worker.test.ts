/**
 * `isolation: worker` (issue 22, item 5): a suite's function runs in a pool of worker threads,
 * so a synchronous call past its time limit is stopped there and does not hold up the others.
 * Most cases run the CLI in this process on the sources (the threads load the worker program
 * through tsx); the last ones run the built CLI and the Action bundle as child processes.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { useActionFixture } from './helpers/action-fixture.ts';
import { workspace } from './helpers/action-run.ts';
import { functionProject, runCli, scratch, writeFiles } from './helpers/cli.ts';
import { artifactCases, runInProcess, type ArtifactCase } from './helpers/in-process.ts';
import { waitUntil } from './helpers/wait-until.ts';

/** A project: suite `s` over rows n = 1..`rows`, running `fn.ts#fn`, with `settings` added. */
const project = functionProject;

/** The cases of the only run, by their row's `n`. */
function byRow(dir: string): Map<string, ArtifactCase> {
  const [run] = artifactCases(dir);
  assert.ok(run, 'the artifact has a run');
  return new Map(run.cases.map((c) => [String(c.data.n), c]));
}

/** Busy for `ms` without ever yielding: only terminating its thread stops it. */
const BUSY = `function busy(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // spin
  }
}
`;

/**
 * `busyCall()` for a module in `dir`: it notes the thread it runs on in `busy-thread` (Linux's
 * /proc/thread-self: `PID/task/TID`), spins for 3 s, then notes in `busy-ended` that it got to
 * its end. Needs `readlinkSync` and `writeFileSync` imported from node:fs.
 */
const busyCall = (dir: string): string => `${BUSY}
function busyCall(): void {
  writeFileSync(${JSON.stringify(join(dir, 'busy-thread'))}, readlinkSync('/proc/thread-self'));
  busy(3000);
  writeFileSync(${JSON.stringify(join(dir, 'busy-ended'))}, '');
}
`;

/** A project like {@link project} whose fn.ts, written by `source`, knows the project's folder. */
function projectAt(source: (dir: string) => string, settings: string[], rows?: number): string {
  const dir = project({ 'fn.ts': '' }, settings, rows);
  writeFiles(dir, { 'fn.ts': source(dir) });
  return dir;
}

/** The thread the `busyCall()` of the project in `dir` ran on, as its /proc path names it. */
function busyThread(dir: string): { pid: number; tid: number; path: string } {
  const path = readFileSync(join(dir, 'busy-thread'), 'utf8');
  const [pid, task, tid] = path.split('/');
  assert.equal(task, 'task', `the thread was noted as ${path}`);
  return { pid: Number(pid), tid: Number(tid), path };
}

/** Whether the `busyCall()` of the project in `dir` got past its loop. */
const busyEnded = (dir: string): boolean => existsSync(join(dir, 'busy-ended'));

describe('isolation: worker', () => {
  it('terminates the thread of a synchronous busy loop at the limit while the other cases keep running', async () => {
    const dir = projectAt(
      (at) => `import { readlinkSync, writeFileSync } from 'node:fs';
${busyCall(at)}
export function fn({ testCase }: { testCase: { n: string } }): string {
  if (testCase.n === '2') busyCall();
  return 'x';
}
`,
      ['isolation: worker', 'concurrency: 3', 'timeout: 500ms'],
      6,
    );
    const r = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(r.code, 1, r.stderr);
    const cases = byRow(dir);
    // The message of an async time-out: in the process, the loop would have held the run for its
    // 3 s and then been reported as synchronous code that ran over.
    assert.equal(cases.get('2')?.error, 'timed out after 500 ms');
    // Passed under the same 500 ms limit, so none waited for the busy thread.
    for (const n of ['1', '3', '4', '5', '6']) {
      assert.equal(cases.get(n)?.passed, true, `case ${n} ran on another thread`);
    }
    const busy = busyThread(dir);
    assert.equal(busy.pid, process.pid, 'the loop ran in this process');
    assert.notEqual(busy.tid, busy.pid, 'on a thread other than the main one');
    // The thread goes once its termination (sent at the limit) has run its course; gone, it can
    // no longer reach the end of its loop, and it had not.
    assert.ok(await waitUntil(() => !existsSync(`/proc/${busy.path}`)), 'its thread still exists');
    assert.equal(busyEnded(dir), false, 'the loop ran to its end');
  });

  it('does not charge the next case for the start of the thread that replaces a timed-out one', async () => {
    // Loading takes 1.5 s, longer than the limit: were the wait for the replacement counted,
    // rows 2 to 4 would time out without their function ever running.
    const dir = project(
      {
        'fn.ts': `${BUSY}
busy(1500);
export function fn({ testCase }: { testCase: { n: string } }): string {
  if (testCase.n === '1') busy(3000);
  return 'x';
}
`,
      },
      ['isolation: worker', 'concurrency: 1', 'timeout: 1000ms'],
    );
    const r = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(r.code, 1, r.stderr);
    const cases = byRow(dir);
    assert.equal(cases.get('1')?.error, 'timed out after 1000 ms');
    for (const n of ['2', '3', '4']) {
      assert.equal(cases.get(n)?.passed, true, `case ${n}: ${cases.get(n)?.error ?? ''}`);
    }
  });

  it('refuses timeout: none, where a call that never returns would hold the run', async () => {
    const dir = project(
      { 'fn.ts': 'export const fn = (): Promise<string> => new Promise(() => {});\n' },
      ['isolation: worker', 'timeout: none'],
    );
    const r = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /suites\[0\]\.isolation: isolation: worker needs a time limit/);
  });

  it('returns data and exceptions as they are in the process', async () => {
    const fn = `class Answer {
  constructor(public text: string, public at: Date) {}
  shout(): string { return this.text.toUpperCase(); }
}
export async function fn({ testCase }: { testCase: { n: string } }): Promise<unknown> {
  if (testCase.n === '1') return { text: 'x', list: [1, 2, { deep: true }], none: null };
  if (testCase.n === '2') return new Answer('hi', new Date(0));
  if (testCase.n === '3') throw new TypeError('bad input ' + testCase.n);
  if (testCase.n === '4') await Promise.reject(new Error('rejected later'));
  if (testCase.n === '5') throw { code: 42 };
  return 'x';
}
`;
    const inWorker = project({ 'fn.ts': fn }, ['isolation: worker', 'concurrency: 2'], 6);
    const inProcess = project({ 'fn.ts': fn }, [], 6);
    await runInProcess(['run', '-o', 'results.json'], inWorker);
    await runInProcess(['run', '-o', 'results.json'], inProcess);
    const worker = byRow(inWorker);
    const process = byRow(inProcess);
    for (const n of ['1', '2', '3', '4', '5', '6']) {
      assert.deepEqual(
        [worker.get(n)?.output, worker.get(n)?.error],
        [process.get(n)?.output, process.get(n)?.error],
        `case ${n} is the same either way`,
      );
    }
    assert.deepEqual(worker.get('1')?.output, {
      text: 'x',
      list: [1, 2, { deep: true }],
      none: null,
    });
    // A class instance arrives as a plain object of its fields.
    assert.deepEqual(worker.get('2')?.output, { text: 'hi', at: '1970-01-01T00:00:00.000Z' });
    assert.equal(worker.get('3')?.error, 'bad input 3');
    assert.equal(worker.get('4')?.error, 'rejected later');
    assert.equal(worker.get('5')?.error, '{"code":42}');
  });

  it('makes an output that cannot cross threads a case error', async () => {
    const dir = project(
      {
        'fn.ts': `export function fn({ testCase }: { testCase: { n: string } }): unknown {
  return testCase.n === '2' ? { answer: 'x', format: (s: string) => s } : 'x';
}
`,
      },
      ['isolation: worker', 'concurrency: 2'],
    );
    const r = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(r.code, 1, r.stderr);
    const cases = byRow(dir);
    assert.match(
      cases.get('2')?.error ?? '',
      /^the function's return value cannot be passed back from its worker thread \(isolation: worker\): .*could not be cloned; return plain data/,
    );
    for (const n of ['1', '3', '4']) assert.equal(cases.get(n)?.passed, true);
  });

  it('errors only the call in flight when its thread crashes, and replaces the thread', async () => {
    const dir = project(
      {
        'fn.ts': `export async function fn({ testCase }: { testCase: { n: string } }): Promise<string> {
  if (testCase.n === '2') process.exit(3);
  if (testCase.n === '4') {
    setTimeout(() => { throw new Error('stray timer'); }, 10);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return 'x';
}
`,
      },
      // One thread: every later case needs the replacements.
      ['isolation: worker', 'concurrency: 1'],
      6,
    );
    const r = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(r.code, 1, r.stderr);
    const cases = byRow(dir);
    assert.equal(
      cases.get('2')?.error,
      "the function's worker thread exited with code 3 during this call (process.exit in the function?)",
    );
    assert.equal(
      cases.get('4')?.error,
      "the function's worker thread crashed during this call: stray timer",
    );
    for (const n of ['1', '3', '5', '6']) assert.equal(cases.get(n)?.passed, true, `case ${n}`);
  });

  it('loads a TypeScript module that imports a sibling .ts file, and gets the grid point and every trial', async () => {
    const dir = project(
      {
        'fn.ts': `import { isMainThread, threadId } from 'node:worker_threads';
import { label } from './label.ts';
export function fn({ testCase, params }: { testCase: { n: string }; params: { model: string } }): unknown {
  return { text: label(testCase.n, params.model), isMainThread, threadId };
}
`,
        'label.ts': `export function label(n: string, model: string): string {
  return \`\${model}:\${n}\`;
}
`,
      },
      ['isolation: worker', 'concurrency: 2', 'trials: 2', 'grid: { model: [small, large] }'],
      3,
    );
    const r = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(r.code, 1, r.stderr);
    const runs = artifactCases(dir);
    assert.deepEqual(
      runs.map((run) => run.params),
      [{ model: 'small' }, { model: 'large' }],
    );
    const threads = new Set<number>();
    for (const run of runs) {
      assert.equal(run.cases.length, 3);
      for (const c of run.cases) {
        const trials = (c as ArtifactCase & { trials?: { output: unknown }[] }).trials ?? [];
        assert.equal(trials.length, 2, 'both trials ran');
        for (const trial of trials) {
          const output = trial.output as { text: string; isMainThread: boolean; threadId: number };
          assert.equal(output.text, `${String(run.params.model)}:${String(c.data.n)}`);
          assert.equal(output.isMainThread, false);
          threads.add(output.threadId);
        }
      }
    }
    assert.ok(
      threads.size >= 1 && threads.size <= 2,
      `at most concurrency threads: ${threads.size}`,
    );
  });

  it('takes defaults.isolation for function suites and leaves the others alone', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'evals.yaml': `version: 1
defaults:
  isolation: worker
  concurrency: 1
suites:
  - id: code
    testset: { cases: [{ q: a }] }
    function: ./fn.mjs#fn
  - id: recorded
    testset: { cases: [{ q: a, output: a }] }
`,
      'fn.mjs': `import { isMainThread } from 'node:worker_threads';
export const fn = () => (isMainThread ? 'main' : 'worker');
`,
    });
    const plan = await runInProcess(['run', '--dry-run'], dir);
    assert.equal(plan.code, 0, plan.stderr);
    assert.match(plan.stdout, /^code: function \.\/fn\.mjs#fn \(in worker threads\)$/m);
    assert.match(plan.stdout, /^recorded: recorded outputs$/m);
    const r = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(artifactCases(dir)[0]?.cases[0]?.output, 'worker');
  });

  it('is a config error on a suite without a function', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'evals.yaml': `version: 1
suites:
  - id: recorded
    testset: { cases: [{ q: a, output: a }] }
    isolation: worker
  - id: command
    testset: { cases: [{ q: a }] }
    target: { type: command, run: [echo, hi] }
    isolation: worker
  - id: typo
    testset: { cases: [{ q: a }] }
    function: ./fn.mjs
    isolation: thread
`,
      'fn.mjs': 'export default () => 1;\n',
    });
    const r = await runInProcess(['run'], dir);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /evals\.yaml:5:\d+ +suites\[0\]\.isolation: isolation applies to function targets/,
    );
    assert.match(
      r.stderr,
      /evals\.yaml:9:\d+ +suites\[1\]\.isolation: isolation applies to function targets/,
    );
    assert.match(
      r.stderr,
      /evals\.yaml:13:\d+ +suites\[2\]\.isolation: expected "process" or "worker", found "thread"/,
    );
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  });

  it('reports a module that does not load as a config error, in the process or only in a thread', async () => {
    const broken = project(
      { 'fn.ts': 'export function fn(): string {\n  return "x"\n  const = 1;\n}\n' },
      ['isolation: worker'],
    );
    const r = await runInProcess(['run'], broken);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /fn\.ts:3:\d+/);
    const threadOnly = project(
      {
        'fn.ts': `import { isMainThread } from 'node:worker_threads';
if (!isMainThread) throw new Error('this module refuses worker threads');
export const fn = (): string => 'x';
`,
        // An ES module project: on Node 20 tsx runs a CommonJS one from data: URLs, whose stack
        // frames carry no position in fn.ts (the error is then placed at the config's line).
        'package.json': '{ "type": "module" }\n',
      },
      ['isolation: worker', 'concurrency: 2'],
    );
    const t = await runInProcess(['run'], threadOnly);
    assert.equal(t.code, 2);
    assert.match(
      t.stderr,
      /fn\.ts:2:\d+ +.*this module refuses worker threads \(\.\/fn\.ts#fn loads in the main thread but not in a worker thread \(isolation: worker\)\)/,
    );
    assert.doesNotMatch(t.stderr, /\n\s+at /, 'no stack trace');
  });

  it('runs from the built CLI, console output included', async () => {
    const dir = projectAt(
      (at) => `import { readlinkSync, writeFileSync } from 'node:fs';
${busyCall(at)}
export function fn({ testCase }: { testCase: { n: string } }): string {
  console.log(\`from the thread of case \${testCase.n}\`);
  if (testCase.n === '1') busyCall();
  return 'x';
}
`,
      ['isolation: worker', 'concurrency: 2', 'timeout: 500ms'],
    );
    let cliPid: number | undefined;
    const r = await runCli(['run', '-o', 'results.json'], {
      cwd: dir,
      onSpawn: (child) => (cliPid = child.pid),
    });
    assert.equal(r.code, 1, r.stderr);
    for (const n of ['1', '2', '3', '4']) {
      assert.match(r.stdout, new RegExp(`from the thread of case ${n}`));
    }
    const cases = byRow(dir);
    assert.equal(cases.get('1')?.error, 'timed out after 500 ms');
    for (const n of ['2', '3', '4']) assert.equal(cases.get(n)?.passed, true);
    // The loop ran on a worker thread of the CLI and never got to its end. (That the thread is
    // terminated is the in-process test's to show: the CLI exits a second after its run, which
    // would end a thread left spinning too.)
    const busy = busyThread(dir);
    assert.equal(busy.pid, cliPid, 'the loop ran in the CLI process');
    assert.notEqual(busy.tid, busy.pid, 'on a thread other than the main one');
    assert.equal(busyEnded(dir), false, 'the loop ran to its end');
  });
});

describe('isolation: worker in the Action bundle', () => {
  // The worker program sits next to dist/index.js in the checked-out action.
  const fixture = useActionFixture();

  it('stops a busy loop at the limit', async () => {
    const ws = workspace({
      'evals.yaml': `version: 1
suites:
  - id: qa
    testset: { cases: [{ n: 1 }, { n: 2 }, { n: 3 }] }
    function: ./fn.mjs#fn
    isolation: worker
    concurrency: 2
    timeout: 500ms
`,
      'fn.mjs': `export function fn({ testCase }) {
  if (testCase.n === 2) { const end = Date.now() + 3000; while (Date.now() < end); }
  return 'x';
}
`,
    });
    const r = await fixture.run(ws, { comment: 'false', 'check-run': 'false' });
    assert.equal(r.code, 1, `${r.stdout}${r.stderr}`);
    const [run] = artifactCases(ws.dir, 'evals-results.json');
    const errors = run?.cases.map((c) => [c.data.n, c.error ?? null]);
    assert.deepEqual(errors, [
      [1, null],
      [2, 'timed out after 500 ms'],
      [3, null],
    ]);
  });
});
