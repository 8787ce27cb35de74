/**
 * The Action runs the cases' code in its own process, and that code may leave timers behind.
 * One that never ends must not hold the job until GitHub's time limit: the step ends with its
 * verdict once its work is done. One that ends the process while the step still posts its
 * reports must not end it as a success. The Action from src/ (through tsx), against the fake
 * GitHub on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ONE_FAILING, suiteFiles, workspace } from './helpers/action-run.ts';
import { useSourceAction } from './helpers/action-fixture.ts';

/** ONE_FAILING's cases, answered by a function that first runs `leave` (once). */
function files(leave: string): Record<string, string> {
  return suiteFiles(ONE_FAILING, {
    'app/answer.mjs': [
      "import { statSync } from 'node:fs';",
      'let left = false;',
      'export default ({ testCase }) => {',
      `  if (!left) { left = true; ${leave} }`,
      '  return testCase.answer;',
      '};',
      '',
    ].join('\n'),
  });
}

describe('the Action with timers the cases left behind', () => {
  const fixture = useSourceAction();

  it('an interval that never ends: the step still ends, with the verdict (exit 1)', async () => {
    const ws = workspace(files('setInterval(() => {}, 1000);'));
    const started = Date.now();
    const r = await fixture.run(ws, {}, {}, 30_000);
    assert.equal(r.signal, null, `killed after ${Date.now() - started} ms: the step hung`);
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.equal(r.outputs['verdict'], 'fail');
  });

  it('process.exit(0) while the step reports a failed run: exit 1, and said', async () => {
    // Fires once the job summary is written: the comment and the check run are being posted.
    const ws = workspace(
      files(
        'const poll = setInterval(() => { if (statSync(process.env.GITHUB_STEP_SUMMARY).size > 0) { clearInterval(poll); process.exit(0); } }, 2);',
      ),
    );
    const r = await fixture.run(ws, {}, {}, 30_000);
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.match(
      r.stderr,
      /error: the process was ended \(exit code 0\) (before the Action|after evals) finished/,
    );
  });
});
