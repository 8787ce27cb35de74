/**
 * The SDK's classes score through the built-ins, whose metadata quotes the output cut at 500
 * characters (BaseIsEquals's `actual`). Under `runTestSuite` they had no scrub of the run's
 * secrets, so the cut came first and a cut within a secret's first 5 characters kept them, too
 * few for the scrub of the finished case to recognise. They scrub with the run's secrets now
 * (the environment's and `secrets`). The output is a run of `p`s and the secret, so that the
 * cut falls at every character of it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runTestSuite } from '../src/api/run-test-suite.ts';
import { BaseIsEquals } from '../src/evaluators/sdk/logic.ts';
import { scratch } from './helpers/cli.ts';

const SECRET = 'Zq7Xw9Lm2Np4Rt6VbK3d';

type C = { kept: number };

class Same extends BaseIsEquals<C, string> {
  id = 'same';
  testCaseMapper(): string {
    return 'x';
  }
  outputMapper({ output }: { output: string }): string {
    return output;
  }
}

describe('an SDK class quoting a secret in the output, cut', () => {
  it('keeps no part of it in the artifact, whatever character the cut falls on', async () => {
    const dir = scratch();
    const output = join(dir, 'out.json');
    await runTestSuite<C, string>({
      id: 'cut',
      testCases: Array.from({ length: SECRET.length }, (_, i) => ({ kept: i + 1 })),
      testCaseHash: ['kept'],
      secrets: [SECRET],
      output,
      // 500 characters kept of the output: `kept` of them the secret's.
      fn: ({ testCase }) => `${'p'.repeat(500 - testCase.kept)}${SECRET}`,
      evaluators: [new Same()],
      quiet: true,
      setExitCode: false,
    });
    const artifact = readFileSync(output, 'utf8');
    const cut = [...artifact.matchAll(/"actual":"p{90,}([^"\\\u2026]*)\u2026/g)];
    // Scrubbed, an output whose cut fell within the secret's first 9 characters is still cut.
    assert.equal(cut.length, 9);
    assert.deepEqual(
      cut.filter(([, kept = '']) => !'[redacted]'.startsWith(kept)).map(([w]) => w.slice(-30)),
      [],
    );
    const pieces = Array.from({ length: SECRET.length - 2 }, (_, i) => SECRET.slice(i, i + 3));
    assert.deepEqual(
      pieces.filter((piece) => artifact.includes(piece)),
      [],
    );
  });
});
