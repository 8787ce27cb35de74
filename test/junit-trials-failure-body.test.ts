/**
 * The JUnit failure body of a case that failed its trials' majority (`--trials N`) says how many
 * trials passed and failed and the rule (more than half must pass), and for each failed
 * evaluation how many trials it passed, the per-trial threshold, and one failing trial's reason.
 * It gave the mean score against the threshold alone (`exact 0.333 (needs ≥ 1)`), which read as
 * if the mean had been judged, and no reason.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

describe('JUnit failure body of a case that failed its trials', () => {
  it('says how many trials passed and failed, and why', async () => {
    const dir = jsonlProject(
      [{ q: 'a' }],
      [
        'hash: [q]',
        'function: ./m.mjs#fn',
        'evaluators:',
        '  - { id: exact, use: is-equals, with: { expected: "Paris" } }',
      ],
      {
        // The third call passes: trials 1 and 2 fail, 3 passes (concurrency 1 keeps the order).
        'm.mjs': "let n = 0;\nexport const fn = () => (++n === 3 ? 'Paris' : 'Lyon');\n",
      },
    );
    const run = await runInProcess(
      ['run', '--trials', '3', '--concurrency', '1', '--junit', 'j.xml', '-o', 'r.json'],
      dir,
    );
    assert.equal(run.code, 1, run.stderr);
    const xml = readFileSync(join(dir, 'j.xml'), 'utf8');
    const body = /<failure[^>]*>([^<]*)<\/failure>/.exec(xml)?.[1] ?? '';
    assert.match(
      body,
      /^1 of 3 trials passed, 2 failed: a case passes when more than half of its trials pass\n\n/,
    );
    assert.match(
      body,
      /\nexact: passed 1 of 3 trials, needs more than half \(a trial passes with a score ≥ 1; mean score 0\.333\)\ntrial [12]: expected "Paris", got "Lyon"\n\{/,
    );
  });
});
