/**
 * QA round 11: `runTestSuite` scrubbed only the values of secret-named environment variables, so
 * a secret the script held otherwise (read from a file, a variable named `DB_URL`) reached the
 * terminal and the artifact when a case's error, output or metadata quoted it. `secrets` names
 * such values; they are scrubbed exactly as the environment's are, and checked like every
 * other argument (without ever being quoted in the error).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runTestSuite } from '../src/api/run-test-suite.ts';
import { UsageError } from '../src/shared/errors.ts';
import { sdkScript } from './helpers/sdk-script.ts';

const SECRET = 'qa11-db-password-5f2a9c';

describe('runTestSuite: secrets', () => {
  it(
    'a value named in secrets never reaches stdout, stderr or the artifact',
    { timeout: 60_000 },
    async () => {
      const { dir, run } = sdkScript(
        `import { readFileSync } from 'node:fs';
const password = readFileSync('db.txt', 'utf8');
const result = await runTestSuite({
  id: 'secrets',
  testCases: [{ k: 'error' }, { k: 'output' }],
  testCaseHash: ['k'],
  secrets: [password],
  output: 'out.json',
  gridSearchParams: { dsn: ['postgres://app:' + password + '@db/app'] },
  fn: ({ testCase }) => {
    if (testCase.k === 'error') throw new Error('connection refused for password ' + password);
    return 'the password is ' + password;
  },
  evaluators: [{ id: 'leak', evaluateTestCase: ({ output }) =>
    ({ score: 0, threshold: { gte: 1 }, metadata: { reason: 'saw ' + password + ' in ' + output } }) }],
});
console.log('errors', result.runs[0].cases.map((c) => c.error).join(' | '));\n`,
        // Not secret-named: only `secrets` says it is one.
        { 'db.txt': SECRET },
      );
      const out = await run({ env: { COLUMNS: '400' } });
      assert.equal(out.code, 1, out.stderr);
      const artifact = readFileSync(join(dir, 'out.json'), 'utf8');
      // The run did say what happened, with the secret redacted.
      assert.match(out.stdout, /connection refused for password \[redacted\]/);
      assert.match(artifact, /the password is \[redacted\]/);
      assert.match(artifact, /saw \[redacted\]/);
      for (const [where, text] of [
        ['stdout', out.stdout],
        ['stderr', out.stderr],
        ['artifact', artifact],
      ] as const) {
        assert.equal(text.includes(SECRET), false, `${where} holds the secret:\n${text}`);
      }
    },
  );

  it('is checked like the other arguments, and the error never quotes a value', async () => {
    const call = (extra: Record<string, unknown>): Promise<unknown> =>
      runTestSuite({
        id: 's',
        testCases: [{ q: 'a' }],
        testCaseHash: ['q'],
        fn: () => 'x',
        quiet: true,
        setExitCode: false,
        ...extra,
      } as never);
    await assert.rejects(call({ secrets: ['short7!', undefined, 42] }), (error: unknown) => {
      assert.ok(error instanceof UsageError);
      assert.equal(
        error.message,
        'runTestSuite(s): secrets[0] must be a secret of at least 8 characters, got a string of 7: shorter values are not scrubbed, since removing them would cut ordinary words out of the output; ' +
          'secrets[1] must be a string (a secret value), got nothing (an environment variable that is not set? leave it out of the list then); ' +
          'secrets[2] must be a string (a secret value), got a number',
      );
      assert.equal(error.message.includes('short7!'), false);
      return true;
    });
    await assert.rejects(call({ secrets: SECRET }), (error: unknown) => {
      assert.ok(error instanceof UsageError);
      assert.match(error.message, /secrets must be an array of the secret values/);
      assert.equal(error.message.includes(SECRET), false, error.message);
      return true;
    });
    await assert.rejects(
      call({ secret: [SECRET] }),
      /unknown argument secret: did you mean secrets\?/,
    );
  });

  it('a duplicate testCaseHash value quoted cut within its first characters keeps none of them', async () => {
    // The value is cut at 60 characters: 54 to 59 of padding (and its quote) leave 5 to 0
    // characters of the secret before the cut, too few for a scrub after it to know them.
    for (let pad = 54; pad <= 59; pad++) {
      const q = `${'p'.repeat(pad)}${SECRET}`;
      await assert.rejects(
        runTestSuite({
          id: 's',
          testCases: [
            { q, n: 1 },
            { q, n: 2 },
          ],
          testCaseHash: ['q'],
          secrets: [SECRET],
          fn: () => 'x',
          quiet: true,
          setExitCode: false,
        }),
        (error: unknown) => {
          assert.ok(error instanceof UsageError);
          const quoted = new RegExp(`fields, q "p{${pad}}(.*?)\u2026`).exec(error.message);
          assert.ok(quoted, error.message);
          assert.ok('[redacted]'.startsWith(quoted[1]!), `padding ${pad}: ${quoted[0]}`);
          return true;
        },
      );
    }
  });
});
