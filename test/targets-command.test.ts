/**
 * The `command` target with real processes: argv and stdin, exit codes and stderr, timeouts
 * that stop the whole process group, children left behind, shell quoting, the concurrency cap,
 * and the config checks done before anything runs.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { waitUntil } from './helpers/wait-until.ts';

/** True while a process with this pid exists and has not ended (a zombie has ended). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Waits (at most 5 s) for every process of `list` to end; the ones still running. */
async function survivors(list: readonly number[]): Promise<number[]> {
  await waitUntil(() => !list.some(alive));
  return list.filter(alive);
}

/** Pids a script wrote to `file` (one per line) under `dir`. */
function pids(dir: string, file: string): number[] {
  if (!existsSync(join(dir, file))) return [];
  return readFileSync(join(dir, file), 'utf8').split('\n').filter(Boolean).map(Number);
}

describe('command target', () => {
  it('passes the case as argv and as JSON on stdin, with env and cwd, and parses JSON output', async () => {
    const dir = jsonlProject(
      [{ q: 'two words', n: 2 }],
      [
        'grid: { mode: [x] }',
        'target:',
        '  type: command',
        '  run: [node, agent.cjs, "{{case.q}}"]',
        '  cwd: app',
        '  env: { GREETING: "hi {{params.mode}}" }',
        '  output: json',
      ],
      {
        'app/agent.cjs': [
          "const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));",
          'console.log(JSON.stringify({ argv: process.argv.slice(2), input, env: process.env.GREETING, cwd: process.cwd() }));',
        ].join('\n'),
      },
    );
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    const [run] = artifactCases(dir);
    assert.deepEqual(run!.cases[0]!.output, {
      argv: ['two words'],
      input: { case: { q: 'two words', n: 2 }, params: { mode: 'x' } },
      env: 'hi x',
      cwd: join(dir, 'app'),
    });
  });

  it('a non-zero exit is a case error with the last 20 lines of stderr; the other cases run', async () => {
    const dir = jsonlProject(
      [{ q: 'ok' }, { q: 'bad' }],
      ['target:', '  type: command', '  run: [node, fail.cjs, "{{case.q}}"]'],
      {
        'fail.cjs': [
          "if (process.argv[2] === 'ok') { console.log('fine'); process.exit(0); }",
          'for (let i = 1; i <= 30; i++) console.error(`line ${i}`);',
          'process.exit(4);',
        ].join('\n'),
      },
    );
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(result.code, 1);
    const cases = artifactCases(dir)[0]!.cases;
    assert.equal(cases[0]!.output, 'fine');
    assert.equal(cases[0]!.passed, true);
    const error = cases[1]!.error ?? '';
    assert.match(error, /exited with code 4/);
    assert.match(error, /line 11\nline 12/);
    assert.match(error, /line 30$/);
    assert.doesNotMatch(error, /line 10\n/);
  });

  it('the timeout stops the whole process group, grandchildren included, before any of it ends', async () => {
    const dir = jsonlProject(
      [{ q: 'a' }, { q: 'b' }],
      [
        'timeout: 400ms',
        'target:',
        '  type: command',
        // The script forks a child that forks again; both would sleep for 30 s, then the
        // script and the subshell note in `ended` that they got past their sleeps.
        '  run: [sh, slow.sh]',
      ],
      {
        'slow.sh': [
          'sleep 30 &',
          'echo $! >> pids',
          '(sleep 30 & echo $! >> pids; wait; echo subshell >> ended) &',
          'echo $$ >> pids',
          'wait',
          'echo script >> ended',
          '',
        ].join('\n'),
      },
    );
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(result.code, 1);
    for (const c of artifactCases(dir)[0]!.cases)
      assert.equal(c.error, 'timed out after 400 ms while running sh');
    const started_ = pids(dir, 'pids');
    assert.ok(started_.length >= 4, `the scripts recorded ${started_.length} pids`);
    // The kill is sent when the case times out; the processes take a moment to go.
    assert.deepEqual(await survivors(started_), []);
    // All gone, none past its sleep: they were killed at the time-out, not waited for.
    assert.equal(existsSync(join(dir, 'ended')), false, 'a script ran to its end');
  });

  it('a command that keeps running after SIGTERM is killed after the grace period', async () => {
    // sh starts in milliseconds, so it sets its trap and records its pid well before the
    // timeout. The trap notes the SIGTERM (which ends the `sleep` it waits for) and the loop
    // goes on: only the SIGKILL that follows can stop it before its 30 rounds end.
    const dir = jsonlProject(
      [{ q: 'a' }],
      ['timeout: 500ms', 'target:', '  type: command', '  run: [sh, stubborn.sh]'],
      {
        'stubborn.sh': [
          "trap 'echo TERM >> terms' TERM",
          'echo $$ >> pids',
          'i=0',
          'while [ $i -lt 30 ]; do sleep 1; i=$((i + 1)); done',
          'echo done >> ended',
          '',
        ].join('\n'),
      },
    );
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(result.code, 1);
    assert.equal(artifactCases(dir)[0]!.cases[0]!.error, 'timed out after 500 ms while running sh');
    const started_ = pids(dir, 'pids');
    assert.equal(started_.length, 1);
    assert.deepEqual(await survivors(started_), []);
    // It outlived the SIGTERM (its trap ran) and still never finished its loop.
    const terms = join(dir, 'terms');
    assert.equal(existsSync(terms) ? readFileSync(terms, 'utf8') : '', 'TERM\n', 'one SIGTERM');
    assert.equal(existsSync(join(dir, 'ended')), false, 'the loop ran to its end');
  });

  it('children a command leaves behind when it exits are stopped, and its output is kept', async () => {
    const dir = jsonlProject(
      [{ q: 'a' }],
      ['target:', '  type: command', '  run: [sh, leave.sh]'],
      {
        'leave.sh': 'sleep 30 &\necho $! > pids\necho done\n',
      },
    );
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(result.code, 0, result.stdout);
    assert.equal(artifactCases(dir)[0]!.cases[0]!.output, 'done');
    const started_ = pids(dir, 'pids');
    assert.equal(started_.length, 1);
    assert.deepEqual(await survivors(started_), [], 'the background sleep outlived its command');
  });

  it('with shell: true a case value is one quoted word, never shell syntax', async () => {
    const hostile = '$(touch pwned); `touch pwned2` \'quote\' "dq" \\ end';
    const dir = jsonlProject(
      [{ q: hostile }],
      ['target:', '  type: command', '  shell: true', '  run: printf "%s" {{case.q}} | cat'],
    );
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(result.code, 0, result.stdout);
    assert.equal(artifactCases(dir)[0]!.cases[0]!.output, hostile);
    assert.equal(existsSync(join(dir, 'pwned')), false);
    assert.equal(existsSync(join(dir, 'pwned2')), false);
  });

  it('holds the suite concurrency cap', async () => {
    const rows = Array.from({ length: 8 }, (_, i) => ({ q: String(i) }));
    const dir = jsonlProject(
      rows,
      ['concurrency: 3', 'target:', '  type: command', '  run: [node, busy.cjs]'],
      {
        'busy.cjs': [
          "const fs = require('fs');",
          "fs.appendFileSync('log', '+\\n');",
          "setTimeout(() => fs.appendFileSync('log', '-\\n'), 600);",
          "process.stdout.write('done');",
        ].join('\n'),
      },
    );
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(result.code, 0, result.stdout);
    let running = 0;
    let most = 0;
    for (const mark of readFileSync(join(dir, 'log'), 'utf8').split('\n').filter(Boolean)) {
      running += mark === '+' ? 1 : -1;
      most = Math.max(most, running);
    }
    // Never more than the cap; with each process alive 600 ms, several do overlap.
    assert.ok(most <= 3 && most >= 2, `${most} processes ran at once`);
  });

  it('stdout that is not JSON with output: json is a case error that keeps the text', async () => {
    const dir = jsonlProject(
      [{ q: 'a' }],
      ['target:', '  type: command', '  run: [echo, not json]', '  output: json'],
    );
    await runInProcess(['run', '-o', 'results.json'], dir);
    const c = artifactCases(dir)[0]!.cases[0]!;
    assert.equal(c.output, 'not json');
    assert.match(c.error ?? '', /stdout is not JSON/);
  });

  it('a program that is not on PATH, or a missing cwd, is refused before anything runs', async () => {
    const dir = jsonlProject([{ q: 'a' }], ['target:', '  type: command', '  run: [nodee, x.js]']);
    const validate = await runInProcess(['validate'], dir);
    assert.equal(validate.code, 2);
    assert.match(
      validate.stderr,
      /evals\.yaml:\d+:\d+ .*command nodee is not on PATH \(did you mean node\?\)/,
    );
    const run = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(run.code, 2);
    assert.equal(existsSync(join(dir, 'results.json')), false);

    const noCwd = jsonlProject(
      [{ q: 'a' }],
      ['target:', '  type: command', '  run: [node, x.js]', '  cwd: nowhere'],
    );
    const result = await runInProcess(['validate'], noCwd);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /working folder .*nowhere does not exist/);
  });

  it('validate names a target template field that no row has, with the nearest one', async () => {
    const dir = jsonlProject(
      [{ question: 'a', expected_intent: 'x' }],
      [
        'target:',
        '  type: command',
        '  run: [echo, "{{case.questoin}}"]',
        '  env: { X: "{{case.expected_intnt}}" }',
      ],
    );
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /evals\.yaml:\d+:\d+ +suites\[0\]\.target\.run\[1\]: .*did you mean \{\{ case\.question \}\}/,
    );
    assert.match(
      result.stderr,
      /suites\[0\]\.target\.env\.X: .*did you mean \{\{ case\.expected_intent \}\}/,
    );
  });

  it('run: as a string without shell: true is refused with a hint', async () => {
    const dir = jsonlProject(
      [{ q: 'a' }],
      ['target:', '  type: command', '  run: python agent.py'],
    );
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /give an argument list .* or set shell: true/);
  });
});
