/**
 * `evals show RESULTS --failed --baseline BASE`, through the real CLI: a results file compared
 * with a baseline records which cases are newly failing but not what they answered there, so
 * `--baseline` prints each shown case's baseline result (status, output, evaluations) under it,
 * scrubbed of the environment's secrets before it is cut; `--json` carries it as `baseline`; a
 * bad `--baseline` file is exit 2 naming the flag.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { runCli, writeFiles } from './helpers/cli.ts';
import { jsonlProject } from './helpers/in-process.ts';

const SECRET = 'Zq9SECRETvalue77abc';
/** The secret straddles the 600 characters a value is shown to without --full. */
const LONG = `answer 1 ${'x'.repeat(600 - 9 - 3)}${SECRET} tail`;
const ENV = { MY_API_KEY: SECRET };
let dir = '';

const lines = (rows: { n: number; output: string }[]): string =>
  rows.map((row) => JSON.stringify(row)).join('\n') + '\n';

before(async () => {
  dir = jsonlProject(
    [
      { n: 0, output: `answer 0 ${SECRET}` },
      { n: 1, output: LONG },
      { n: 2, output: 'answer 2' },
    ],
    [
      'hash: [n]',
      'evaluators:',
      '  - { id: has-answer, use: contains, with: { values: [answer] } }',
    ],
  );
  const base = await runCli(['run', '-o', 'base.json'], { cwd: dir });
  assert.equal(base.code, 0, base.stderr);
  writeFiles(dir, {
    'rows.jsonl': lines([
      { n: 0, output: 'no idea' },
      { n: 1, output: 'no idea' },
      { n: 2, output: 'answer 2' },
    ]),
  });
  const head = await runCli(['run', '-o', 'head.json', '--baseline', 'base.json'], {
    cwd: dir,
    env: ENV,
  });
  assert.equal(head.code, 1, head.stderr);
});

describe('evals show --baseline', () => {
  it('without it, a newly failing case says nothing of its baseline output', async () => {
    const r = await runCli(['show', 'head.json', '--failed'], { cwd: dir, env: ENV });
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /answer 0/);
  });

  it("prints each failing case with its baseline status, inputs (here not HEAD's), output and scores under it", async () => {
    const r = await runCli(['show', 'head.json', '--failed', '--baseline', 'base.json'], {
      cwd: dir,
      env: ENV,
    });
    assert.equal(r.code, 0, r.stderr);
    const cases = r.stdout.split(/\n\n(?=✗ )/).slice(1);
    assert.equal(cases.length, 2, r.stdout);
    const first = cases.find(
      (text) => text.includes('label     no idea') && text.includes('answer 0'),
    );
    assert.ok(first !== undefined, r.stdout);
    assert.match(
      first,
      /\n {2}in BASE \(base\.json\): PASSED\n {2}inputs:\n {4}n {7}0\n {4}output {2}answer 0 \[redacted\]\n {2}output {4}answer 0 \[redacted\]\n {2}evaluations:\n {4}✓ has-answer {6}1 {2}needs ≥ 1\n/,
    );
    // HEAD's own result comes first, then the baseline's.
    assert.ok(first.indexOf('✗ has-answer') < first.indexOf('in BASE'));
    // Scrubbed before the 600-character cut: no piece of the secret is left.
    assert.ok(!r.stdout.includes(SECRET.slice(0, 3)), r.stdout);
    assert.match(r.stdout, /x\[[a-z]* … \(\d+ more characters\)/);
  });

  it('--json carries the baseline result of each case as baseline', async () => {
    const r = await runCli(['show', 'head.json', '--failed', '--json', '--baseline', 'base.json'], {
      cwd: dir,
      env: ENV,
    });
    assert.equal(r.code, 0, r.stderr);
    const shown = JSON.parse(r.stdout) as {
      cases: { case: { output: string }; baseline: { passed: boolean; output: string } | null }[];
    };
    const outputs = shown.cases.map((c) => [
      c.case.output,
      c.baseline?.passed,
      c.baseline?.output.slice(0, 9),
    ]);
    assert.deepEqual(outputs, [
      ['no idea', true, 'answer 0 '],
      ['no idea', true, 'answer 1 '],
    ]);
    assert.ok(!r.stdout.includes(SECRET), 'the secret is in the JSON');
  });

  it('a --baseline file that is missing or not results is exit 2, naming the flag', async () => {
    writeFiles(dir, { 'bad.json': '{"a": 1}\n' });
    const missing = await runCli(['show', 'head.json', '--baseline', 'nope.json'], { cwd: dir });
    assert.equal(missing.code, 2);
    assert.equal(missing.stderr, 'error: --baseline nope.json: no such results file\n');
    const bad = await runCli(['show', 'head.json', '--baseline', 'bad.json'], { cwd: dir });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^error: --baseline bad\.json is not a results artifact/);
    assert.doesNotMatch(bad.stderr, /\n\s+at /);
  });
});
