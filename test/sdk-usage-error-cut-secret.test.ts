/**
 * `runTestSuite`'s usage errors quote the value they refuse cut to 80 characters, and were then
 * scrubbed of whole secrets only: a secret straddling the cut (`got "xxx…sk-supersecr…"`) kept
 * its first characters, which an uncaught error prints to the terminal and the CI log. The start
 * of a secret before the ellipsis is removed too now, as the CLI removes it from a config's
 * problems (`scrubber.json`).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sdkScript } from './helpers/sdk-script.ts';

const SECRET = 'sk-supersecretvalue123';

describe("runTestSuite's usage error cut inside a secret", () => {
  it('an uncaught one prints no piece of it', { timeout: 60_000 }, async () => {
    // 60 to 78 characters before it: the cut at 80 falls at every offset of it, the first 5
    // included (too few for a scrub after the cut to know: it is scrubbed before).
    const { run } = sdkScript(
      `for (let pad = 60; pad < 79; pad++) {
  try {
    await runTestSuite({
      id: 's', quiet: true, setExitCode: false, testCases: [{ q: 1 }], testCaseHash: ['q'],
      fn: () => 'out', maxTestCaseConcurrency: 'x'.repeat(pad) + process.env.MY_API_KEY,
    });
  } catch (error) {
    console.log(String(error.stack));
  }
}
await runTestSuite({
  id: 's', quiet: true, setExitCode: false, testCases: [{ q: 1 }], testCaseHash: ['q'],
  fn: () => 'out', timeoutMs: 'y'.repeat(66) + process.env.MY_API_KEY,
});\n`,
    );
    const out = await run({ env: { MY_API_KEY: SECRET } });
    assert.notEqual(out.code, 0, 'the last error is uncaught');
    assert.match(out.stdout, /maxTestCaseConcurrency must be .*x{60}\[redacted\]/);
    // No cut keeps the secret's first character after the padding.
    assert.doesNotMatch(out.stdout, /x{60,}s/);
    assert.match(out.stderr, /timeoutMs/);
    for (const [where, text] of [
      ['stdout', out.stdout],
      ['stderr', out.stderr],
    ] as const) {
      // Six characters of it or more: what scrubbing a cut text can know.
      assert.ok(
        !text.includes(SECRET.slice(0, 6)),
        `${where} holds a piece of the secret:\n${text}`,
      );
    }
  });
});
