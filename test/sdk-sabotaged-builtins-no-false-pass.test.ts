/**
 * `runTestSuite` runs `fn` and the evaluators in the calling process: a `fn` that makes
 * `Array.prototype.push` a no-op left the run with no summary, `verdict: 'pass'` and exit 0 (and,
 * with `output`, a stack trace from the artifact's write). Its end checks the built-ins as `evals
 * run`'s does (src/pipeline/written-check.ts): the replaced one is named on stderr, the verdict is
 * fail and the exit code is not 0. Code that leaves them alone passes as before. Real child
 * processes (node + tsx importing src/).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sdkScript } from './helpers/sdk-script.ts';

/** Three passing cases; `fn` runs `sabotage` on case b; the script prints the verdict. */
function script(sabotage: string, extra = ''): string {
  return `const r = await runTestSuite({ id: 's', testCases: [{ q: 'a' }, { q: 'b' }, { q: 'c' }],
  testCaseHash: ['q'], ${extra}
  fn: ({ testCase }) => { if (testCase.q === 'b') { ${sabotage} } return 'ok'; },
  evaluators: [{ id: 'e', evaluateTestCase: ({ output }) => ({ score: output === 'ok' ? 1 : 0, threshold: { gte: 1 } }) }],
});
console.log('verdict ' + r.verdict);\n`;
}

const REPLACED =
  /error: runTestSuite\(s\): the code this run loaded replaced built-ins that evals relies on \(Array\.prototype\.push\)/;

describe('runTestSuite whose fn replaces a built-in does not pass', () => {
  it('a no-op Array.prototype.push: verdict fail, exit 1, the built-in named', async () => {
    const r = await sdkScript(script('Array.prototype.push = function () { return 0; };')).run();
    assert.match(r.stderr, REPLACED);
    assert.match(r.stdout, /verdict fail/);
    assert.equal(r.code, 1, r.stderr);
  });

  it('the same with quiet: the error line is still printed, exit 1', async () => {
    const r = await sdkScript(
      script('Array.prototype.push = function () { return 0; };', 'quiet: true,'),
    ).run();
    assert.match(r.stderr, REPLACED);
    assert.equal(r.code, 1, r.stderr);
  });

  it('with output: no stack trace, the built-in named and the run not passed', async () => {
    const r = await sdkScript(
      script('Array.prototype.push = function () { return 0; };', "output: 'out.json',"),
    ).run();
    assert.match(
      r.stderr,
      /replaced built-ins (that evals relies|it relies) on \(Array\.prototype\.push\)/,
    );
    assert.doesNotMatch(r.stderr, /\n\s+at /);
    assert.notEqual(r.code, 0, r.stderr);
  });

  it('code that leaves the built-ins alone passes, exit 0', async () => {
    const r = await sdkScript(script('globalThis.touched = true;', "output: 'out.json',")).run();
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /verdict pass/);
    assert.doesNotMatch(r.stderr, /error:/);
  });

  it('built-ins changed before runTestSuite (a polyfill) are not held against the run', async () => {
    const r = await sdkScript(
      `Array.prototype.polyfilled = function () {};\n${script('globalThis.touched = true;')}`,
    ).run();
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /verdict pass/);
  });
});
