/**
 * QA round 11: a `UsageError` that `runTestSuite` throws (a mistake in the caller's arguments)
 * and the script leaves uncaught was printed by Node with evalgate's source line and the stack
 * frames of evalgate's internals (`at new UsageError (…/src/shared/errors.ts…)`, `at buildSpec
 * …`), which say nothing to the user. It is now traced from the caller's own line: Node prints
 * that line, `UsageError: <message>` and the caller's frames only. Each script runs in a real
 * child process, since this is how Node ends one.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { repoRoot } from './helpers/cli.ts';
import { sdkScript } from './helpers/sdk-script.ts';

/** The package's two entry points, as `evalgate` and `evalgate/testing` resolve to them. */
const [MAIN, TESTING] = ['index.ts', 'testing.ts'].map((file) =>
  JSON.stringify(pathToFileURL(join(repoRoot, 'src', file)).href),
);
const CALL = `runTestSuite({ id: 's', testCases: [{ q: 'a' }], testCaseHash: ['q'], fn: () => 'x', maxTestCaseConcurency: 2 })`;
const MESSAGE =
  'UsageError: runTestSuite(s): unknown argument maxTestCaseConcurency: did you mean maxTestCaseConcurrency?';

/** Lines of `stderr` that point into evalgate's own code (src/, or the built lib/ or dist/). */
function evalgateLines(stderr: string): string[] {
  const inside = new RegExp(
    `(${[repoRoot, pathToFileURL(repoRoot).href].map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})/(src|lib|dist)/`,
  );
  return stderr.split('\n').filter((line) => inside.test(line));
}

describe('runTestSuite: an uncaught UsageError shows no evalgate internals', () => {
  for (const [style, script] of [
    ['top-level await', `await ${CALL};`],
    ['an async IIFE', `(async () => {\n  await ${CALL};\n})();`],
  ] as const) {
    it(
      `${style}: the message and the caller's line, no frame into evalgate`,
      { timeout: 60_000 },
      async () => {
        const out = await sdkScript(`${script}\n`).run();
        // Node's code for any uncaught exception (docs/coming-from.md says how to get 2).
        assert.equal(out.code, 1, out.stderr);
        assert.ok(out.stderr.includes(`\n${MESSAGE}\n`), out.stderr);
        assert.deepEqual(evalgateLines(out.stderr), [], out.stderr);
        // The first frame is the caller's own line.
        const frames = out.stderr.split('\n').filter((line) => /^\s+at /.test(line));
        assert.match(frames[0] ?? '', /script\.mjs:\d+:\d+\)?$/, out.stderr);
      },
    );
  }

  it(
    "an out-of-box class's setting refused before the run (BaseLLMJudge's scoreChoices): the caller's line too",
    { timeout: 60_000 },
    async () => {
      const out = await sdkScript(`import { BaseLLMJudge } from ${TESTING};
class Judge extends BaseLLMJudge {
  id = 'judge';
  scoreChoices = [{ name: 'Yes', value: 1 }];
  makePrompt() { return [{ role: 'user', content: 'x' }]; }
}
await runTestSuite({ id: 's', testCases: [{ q: 'a' }], testCaseHash: ['q'], fn: () => 'x', evaluators: [new Judge()] });\n`).run();
      assert.equal(out.code, 1, out.stderr);
      assert.match(
        out.stderr,
        /\nUsageError: runTestSuite\(s\): evaluators\[0\] \(Judge\): judge: scoreChoices needs at least 2 choices/,
      );
      assert.deepEqual(evalgateLines(out.stderr), [], out.stderr);
      const frames = out.stderr.split('\n').filter((line) => /^\s+at /.test(line));
      assert.match(frames[0] ?? '', /script\.mjs:\d+:\d+\)?$/, out.stderr);
    },
  );

  it(
    'caught, it is the UsageError both entry points export, with its message, name, exit code and short inspect',
    { timeout: 60_000 },
    async () => {
      const out = await sdkScript(`import { UsageError } from ${MAIN};
import { UsageError as FromTesting } from ${TESTING};
import { inspect } from 'node:util';
try {
  await ${CALL};
} catch (error) {
  console.error(JSON.stringify([error instanceof UsageError, UsageError === FromTesting, error.name, error.exitCode, error.issues.length]));
  console.error(inspect(error));
  console.error(error.stack);
}\n`).run();
      assert.equal(out.code, 0, out.stderr);
      const [facts, inspected, ...stack] = out.stderr.split('\n');
      assert.equal(facts, '[true,true,"UsageError",2,1]');
      assert.equal(inspected, MESSAGE);
      assert.equal(stack[0], MESSAGE);
      assert.match(stack[1] ?? '', /^\s+at .*script\.mjs:\d+:\d+\)?$/);
      assert.deepEqual(evalgateLines(out.stderr), [], out.stderr);
    },
  );
});
