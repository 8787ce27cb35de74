/* eslint-disable no-control-regex -- these tests read what a terminal receives, escapes included */
/**
 * QA round 6, what `runTestSuite` prints, in real processes: the summary's error lines as wide as
 * the terminal (D14: its columns on a TTY, whole lines in a log), and the progress of suites run
 * concurrently named by suite (D15: labelled lines in a log, one shared live line naming each
 * suite on a terminal). A terminal is had through `script`, which gives the child a pty.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sdkScript, type SdkScript } from './helpers/sdk-script.ts';

/** An error message of 300 characters whose end says why: a cut line loses it. */
const LONG_ERROR = `upstream refused the request ${'x'.repeat(240)} because THE-END-OF-THE-MESSAGE`;

/**
 * The child: `MODE=wide` runs one suite whose case throws `LONG_ERROR`; `MODE=concurrent` runs
 * suites `alpha` and `beta` at once, each case waiting (bounded by the suite's timeout) until both
 * suites have a case in flight, so both progress lines are live together.
 */
const CHILD = `const mode = process.env.MODE;
if (mode === 'wide') {
  await runTestSuite({
    id: 'wide',
    testCases: [{ q: 'a' }],
    testCaseHash: ['q'],
    fn: () => {
      throw new Error(${JSON.stringify(LONG_ERROR)});
    },
    setExitCode: false,
  });
} else {
  const started = new Set();
  let release = () => {};
  const both = new Promise((resolve) => (release = resolve));
  const suite = (id) =>
    runTestSuite({
      id,
      testCases: [{ q: id + '-1' }, { q: id + '-2' }],
      testCaseHash: ['q'],
      maxTestCaseConcurrency: 1,
      timeoutMs: 20000,
      fn: async ({ testCase }) => {
        started.add(id);
        if (started.size === 2) release();
        await both;
        return testCase.q;
      },
    });
  await Promise.all([suite('alpha'), suite('beta')]);
}
`;

function project(): SdkScript {
  return sdkScript(CHILD);
}

/**
 * Runs the child on a pty of `columns` columns (stdout and stderr both the terminal, which
 * `script` writes to its stdout) and returns what the terminal received, `\r\n` made `\n`.
 */
async function onTerminal(child: SdkScript, columns: number, mode: string): Promise<string> {
  const run = await child.run({
    env: { MODE: mode, COLUMNS: '' },
    through: (node) => ['script', '-qec', `stty cols ${columns} rows 40; ${node}`, '/dev/null'],
  });
  const out = run.stdout + run.stderr;
  if (run.code !== 0) throw new Error(`script exited ${run.code}:\n${out}`);
  return out.replace(/\r\n/g, '\n');
}

/** The lines of `text` as they read, escape sequences and carriage-return redraws left out. */
function shownLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => (line.split('\r').pop() ?? '').replace(/\x1b\[[0-9;]*[A-Za-z]/g, ''));
}

describe('runTestSuite summary width (D14)', () => {
  it('keeps an error line whole when stdout is not a terminal', { timeout: 90_000 }, async () => {
    const run = await project().run({ env: { MODE: 'wide', COLUMNS: '' } });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(run.stdout.includes(LONG_ERROR), run.stdout);
  });

  it("cuts an error line to the terminal's columns on a TTY", { timeout: 90_000 }, async () => {
    const out = await onTerminal(project(), 150, 'wide');
    const line = shownLines(out).find((text) => text.includes('upstream refused'));
    assert.ok(line !== undefined, out);
    // Wider than the old fixed 100 columns, within the terminal's 150, and cut (the whole is 300).
    assert.ok(line.length > 110 && line.length <= 150, `${line.length}: ${line}`);
    assert.ok(!out.includes(LONG_ERROR), out);
  });
});

describe('concurrent runTestSuite progress (D15)', () => {
  it('names each suite on its progress lines in a log', { timeout: 90_000 }, async () => {
    const run = await project().run({ env: { MODE: 'concurrent' } });
    assert.equal(run.code, 0, run.stderr);
    const done = run.stderr.split('\n').filter((line) => line.startsWith('done '));
    assert.deepEqual(
      done.map((line) => line.replace(/ in [\d.]+s$/, '')).sort(),
      ['done alpha  2/2', 'done beta  2/2'],
      run.stderr,
    );
  });

  it('draws one live line naming both suites on a terminal', { timeout: 90_000 }, async () => {
    const out = await onTerminal(project(), 200, 'concurrent');
    // Every redraw of the live line starts by clearing it.
    const redraws = out.split('\r\x1b[2K');
    const shared = redraws.find((text) => /alpha 0\/2 /.test(text) && /beta 0\/2 /.test(text));
    assert.ok(shared !== undefined, JSON.stringify(out));
    // The line is cleared before each summary: no summary starts mid-progress.
    for (const line of shownLines(out)) assert.doesNotMatch(line, /ETA.*(alpha|beta)\s+PASS/);
    assert.match(out, /PASS {2}1 run passed/);
  });
});

describe('runTestSuite progress on a dumb terminal', () => {
  it('draws no live line when TERM=dumb, as evals run does not', { timeout: 90_000 }, async () => {
    const run = await project().run({
      env: { MODE: 'concurrent', COLUMNS: '', TERM: 'dumb' },
      through: (node) => ['script', '-qec', `stty cols 200 rows 40; ${node}`, '/dev/null'],
    });
    const out = (run.stdout + run.stderr).replace(/\r\n/g, '\n');
    assert.equal(run.code, 0, out);
    assert.ok(!out.includes('\x1b[2K'), JSON.stringify(out));
    assert.match(out, /done alpha {2}2\/2/);
    assert.match(out, /done beta {2}2\/2/);
  });
});
