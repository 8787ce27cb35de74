/**
 * QA round 10: `runTestSuite` wrote case errors to its artifact without the scrubbing `evals run`
 * gives them, so a secret-named variable's value that an error quoted (an API key in a URL, a
 * header echoed back) left the process in the results file.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runTestSuite } from '../src/api/run-test-suite.ts';
import { scratch } from './helpers/cli.ts';

const KEY = 'sk-qa10-sdk-scrub-0123456789';

describe('runTestSuite scrubs secrets as evals run does', () => {
  before(() => {
    process.env.QA10_SCRUB_API_KEY = KEY;
  });
  after(() => {
    delete process.env.QA10_SCRUB_API_KEY;
  });

  it("a case error quoting a secret-named variable's value is written [redacted]", async () => {
    const dir = scratch();
    const output = join(dir, 'out.json');
    const result = await runTestSuite<{ q: string }, string>({
      id: 'scrub',
      testCases: [{ q: 'a' }],
      testCaseHash: ['q'],
      fn: () => {
        throw new Error(`401 from https://api.example.test/v1?key=${KEY}`);
      },
      evaluators: [],
      output,
      quiet: true,
      setExitCode: false,
    });
    const text = readFileSync(output, 'utf8');
    assert.equal(text.includes(KEY), false, 'the key reached the artifact');
    assert.match(text, /key=\[redacted\]/);
    assert.equal(result.runs[0]?.cases[0]?.error?.includes(KEY), false);
  });
});
