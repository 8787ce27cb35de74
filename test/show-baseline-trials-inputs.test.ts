/**
 * `evals show --baseline` prints what the baseline ran, not only what it answered: the baseline's
 * trials (each trial's mark and scores, as HEAD's are printed) and the case's inputs there, but
 * the inputs only when they differ from HEAD's (a case is paired by id, and `hash: [id]` lets the
 * other columns change under the same id). Through the real CLI.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { runCli, writeFiles } from './helpers/cli.ts';
import { jsonlProject } from './helpers/in-process.ts';

let dir = '';

const rows = (q0: string): string =>
  [
    { id: 'c0', q: q0 },
    { id: 'c1', q: 'same' },
  ]
    .map((row) => JSON.stringify(row))
    .join('\n') + '\n';

before(async () => {
  dir = jsonlProject(
    [],
    [
      'hash: [id]',
      'trials: 2',
      'function: ./m.mjs#fn',
      'evaluators:',
      '  - { id: eq, use: is-equals, with: { expected: ok } }',
    ],
    {
      'rows.jsonl': rows('before'),
      'm.mjs': 'export const fn = () => process.env.ANSWER;\n',
    },
  );
  const base = await runCli(['run', '-o', 'base.json'], { cwd: dir, env: { ANSWER: 'ok' } });
  assert.equal(base.code, 0, base.stderr);
  writeFiles(dir, { 'rows.jsonl': rows('after') });
  const head = await runCli(['run', '-o', 'head.json'], { cwd: dir, env: { ANSWER: 'no' } });
  assert.equal(head.code, 1, head.stderr);
});

/** The part of `show`'s text from the `in BASE` line to the end of the case whose `q` is HEAD's `q`. */
async function baseOf(q: string): Promise<string> {
  const r = await runCli(['show', 'head.json', '--failed', '--baseline', 'base.json'], {
    cwd: dir,
  });
  assert.equal(r.code, 0, r.stderr);
  const shown = r.stdout.split(/\n\n(?=\u2717 )/).find((text) => text.includes(`    q   ${q}\n`));
  const at = shown?.indexOf('in BASE') ?? -1;
  assert.ok(shown !== undefined && at > 0, r.stdout);
  return shown.slice(at);
}

describe('evals show --baseline: the baseline case', () => {
  it("prints the baseline's trials under its evaluations", async () => {
    const base = await baseOf('same');
    assert.match(
      base,
      /\n {2}trials: 2 of 2 passed\n {4}1\. \u2713 [\d,]+ ms {2}eq 1\n {4}2\. \u2713 [\d,]+ ms {2}eq 1\n/,
    );
  });

  it("prints the baseline's inputs when they differ from HEAD's", async () => {
    const base = await baseOf('after');
    assert.match(
      base,
      /^in BASE \(base\.json\): PASSED\n {2}inputs:\n {4}id {2}c0\n {4}q {3}before\n/,
    );
  });

  it("leaves the inputs out when they are the same as HEAD's", async () => {
    const base = await baseOf('same');
    assert.match(base, /^in BASE \(base\.json\): PASSED\n {2}output {4}ok\n/);
    assert.doesNotMatch(base, /inputs/);
  });
});
