/**
 * `runTestSuite`'s usage errors quote the arguments they refuse (a grid list whose two values read
 * the same, a concurrency that is not a number): a secret-named variable's value (`MY_API_KEY`), or
 * one named in `secrets`, passed there was printed whole in the thrown message, which an uncaught
 * error puts on the terminal and in a CI log. Scrubbed as the run's own output is.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runTestSuite } from '../src/index.ts';
import { UsageError } from '../src/shared/errors.ts';

const SECRET = 'sk-supersecretvalue123';
const NAMED = 'db-password-value-42';

async function thrown(run: () => Promise<unknown>): Promise<UsageError> {
  try {
    await run();
  } catch (error) {
    assert.ok(error instanceof UsageError, String(error));
    return error;
  }
  assert.fail('no usage error');
}

describe("runTestSuite's usage errors never quote a secret", () => {
  it('a grid list of two equal secret values, a concurrency that is a secret', async () => {
    process.env.MY_API_KEY = SECRET;
    try {
      const error = await thrown(() =>
        runTestSuite({
          id: 's',
          quiet: true,
          setExitCode: false,
          testCases: [{ q: 1 }],
          testCaseHash: ['q'],
          fn: () => 'out',
          gridSearchParams: { m: [SECRET, SECRET] },
          maxTestCaseConcurrency: SECRET as unknown as number,
        }),
      );
      assert.match(error.message, /gridSearchParams\.m must be values that each read differently/);
      assert.match(error.message, /maxTestCaseConcurrency must be a whole number/);
      assert.ok(!error.message.includes(SECRET), error.message);
      assert.ok(!String(error.stack).includes(SECRET), String(error.stack));
      for (const issue of error.issues) assert.ok(!issue.message.includes(SECRET), issue.message);
    } finally {
      delete process.env.MY_API_KEY;
    }
  });

  it('a list given where the object of arguments goes, holding a secret', async () => {
    process.env.MY_API_KEY = SECRET;
    try {
      const error = await thrown(() =>
        runTestSuite([{ id: 's', key: SECRET }] as unknown as Parameters<typeof runTestSuite>[0]),
      );
      assert.match(error.message, /expects one object of arguments/);
      assert.doesNotMatch(error.message, new RegExp(SECRET));
      assert.match(error.message, /\[redacted\]/);
    } finally {
      delete process.env.MY_API_KEY;
    }
  });

  it('a value named in secrets', async () => {
    const error = await thrown(() =>
      runTestSuite({
        id: 's',
        quiet: true,
        setExitCode: false,
        secrets: [NAMED],
        testCases: [{ q: 1 }],
        testCaseHash: ['q'],
        fn: () => 'out',
        timeoutMs: NAMED as unknown as number,
      }),
    );
    assert.match(error.message, /timeoutMs/);
    assert.ok(!error.message.includes(NAMED), error.message);
  });
});
