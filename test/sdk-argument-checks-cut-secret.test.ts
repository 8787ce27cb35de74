/**
 * `runTestSuite`'s checks of `gate`, `gridSearchParams`, `judge`, `baselinesDir`,
 * `updateBaselines`, `testCaseHash` and `signal`, the suite named by an id that is not one, a
 * call given no object of arguments, and a case hash function returning no id when the cases'
 * ids are made, quote the value they refuse cut to 80 characters. They cut first and the usage error was scrubbed after:
 * a secret whose first 1 to 5 characters fell before the cut kept them, too few for a scrub of
 * the cut text to know (the SDK's `Problems.add` scrubs before the cut; these now do too).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sdkScript } from './helpers/sdk-script.ts';

const SECRET = 'sk-supersecretvalue123';

/** Each argument a check quotes, as `name: expression of v` (v: padding, then the secret). */
const VARIANTS: Record<string, string> = {
  'gate must be': `{ gate: v }`,
  'gate.minPassRate must be': `{ gate: { minPassRate: v } }`,
  'gate.regressions must be': `{ gate: { regressions: v } }`,
  'gate.removedEvaluators must be': `{ gate: { removedEvaluators: v } }`,
  'gate.removedGridValues must': `{ gate: { removedGridValues: v } }`,
  'gate.minDetectableEffect must be': `{ gate: { minDetectableEffect: v } }`,
  'gate.evaluators must be': `{ gate: { evaluators: v } }`,
  'gate.evaluators.e must be': `{ gate: { evaluators: { e: v } } }`,
  'gridSearchParams must be': `{ gridSearchParams: v }`,
  'gridSearchParams.m must be a non-empty': `{ gridSearchParams: { m: v } }`,
  'gridSearchParams.m must be values': `{ gridSearchParams: { m: [v, v] } }`,
  'judge must be': `{ judge: v }`,
  'judge.model must be': `{ judge: { model: [v] } }`,
  'judge.prices must be': `{ judge: { prices: v } }`,
  'judge.prices.m must be': `{ judge: { prices: { m: v } } }`,
  'judge.client must be': `{ judge: { client: [v] } }`,
  'baselinesDir must be': `{ baselinesDir: [v] }`,
  'updateBaselines must be': `{ updateBaselines: v }`,
  'testCaseHash must be': `{ testCaseHash: v }`,
  'testCaseHash returned': `{ testCaseHash: () => ({ v }) }`,
  'signal must be': `{ signal: [v] }`,
  // Checked, then called again to make the cases' ids: the second call's value is quoted there.
  'the case hash function returned': `{ testCaseHash: ((n) => () => (n++ % 2 === 0 ? 'a' : { v }))(0) }`,
  'id must be': `{ id: [v] }`,
  'expects one object of arguments': `v`,
};

describe("runTestSuite's argument checks cut inside a secret", () => {
  it('quote no piece of it, at any cut', { timeout: 120_000 }, async () => {
    // 40 to 78 characters of padding: the cut at 80 falls at every offset of the secret, its
    // first 5 included, after each message's own words (up to 34 characters of them).
    const { run } = sdkScript(
      `const base = {
  id: 's', quiet: true, setExitCode: false, testCases: [{ q: 1 }], testCaseHash: ['q'],
  fn: () => 'out',
};
const variants = {
${Object.entries(VARIANTS)
  .map(([name, arg]) => `  ${JSON.stringify(name)}: (v) => (${arg}),`)
  .join('\n')}
};
for (const [name, make] of Object.entries(variants)) {
  for (let pad = 40; pad < 79; pad++) {
    const made = make('x'.repeat(pad) + process.env.MY_API_KEY);
    try {
      await runTestSuite(name.startsWith('expects') ? made : { ...base, ...made });
      console.log(name + ': no error');
    } catch (error) {
      console.log(name + ': ' + String(error.message).replace(/\\n/g, ' '));
    }
  }
}\n`,
    );
    const out = await run({ env: { MY_API_KEY: SECRET } });
    assert.equal(out.code, 0, out.stderr);
    for (const name of Object.keys(VARIANTS)) {
      const lines = out.stdout.split('\n').filter((line) => line.startsWith(`${name}: `));
      assert.equal(lines.length, 39, `${name}: ${lines.length} lines`);
      for (const line of lines) {
        // The check was reached, and the message says which.
        assert.ok(line.includes(name), `${name} not said:\n${line}`);
        // No cut keeps the secret's first character after the padding.
        assert.doesNotMatch(line, /x{40,}s/, `${name} keeps a piece of the secret:\n${line}`);
        assert.ok(!line.includes(SECRET.slice(0, 6)), line);
      }
    }
  });
});
