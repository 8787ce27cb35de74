/**
 * Two comparison rows that used to read as something they are not. An evaluator that errored on
 * every case in BASE has nothing to change from: the row said `no case scored in both runs` (or
 * `— → —`), as if nothing were measured anywhere; it says the scores were missing in BASE now.
 * And a row of 5 paired cases or fewer cannot reject anything at 95% (a sign flip's smallest p is
 * 2 / 2^n), so its "interval" was the largest change seen on each side: it says the cases are too
 * few to test instead of quoting one. The real CLI, `evals run` and `evals compare`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';

/** `rows` rows scored by `close`, whose score is `SCORE` (or an error when it is `error`). */
function project(rows: number): string {
  const dir = scratch();
  writeFiles(dir, {
    'evals.yaml': [
      'version: 1',
      'suites:',
      '  - id: s',
      '    testset: { path: rows.jsonl }',
      '    hash: [q]',
      '    evaluators:',
      '      - { id: close, use: ./close.mjs }',
      '',
    ].join('\n'),
    'close.mjs': [
      'export default function close({ testCase }) {',
      "  if (process.env.SCORE === 'error') throw new Error('the scorer is down');",
      '  return { score: Number(process.env.SCORE) + Number(testCase.bump ?? 0) };',
      '}',
      '',
    ].join('\n'),
    'rows.jsonl': Array.from(
      { length: rows },
      (_, i) => `${JSON.stringify({ q: `q${i}`, output: 'ok', bump: i / 100 })}\n`,
    ).join(''),
  });
  return dir;
}

async function runs(dir: string, base: string, head: string): Promise<void> {
  for (const [file, score] of [
    ['base.json', base],
    ['head.json', head],
  ] as const) {
    const r = await runCli(['run', '-o', file], { cwd: dir, env: { SCORE: score } });
    assert.ok(r.code === 0 || r.code === 1, r.stdout + r.stderr);
  }
}

const rowLine = (text: string, name: string): string => {
  const found = text.split('\n').find((line) => line.startsWith(`  ${name} `));
  assert.ok(found !== undefined, text);
  return found;
};

describe('a score row every case of BASE errored on', () => {
  it('says the scores were missing in BASE, in text, markdown and JSON', async () => {
    const dir = project(12);
    await runs(dir, 'error', '0.5');
    const text = await runCli(['compare', 'base.json', 'head.json'], { cwd: dir });
    assert.equal(text.code, 0, text.stdout + text.stderr);
    const line = rowLine(text.stdout, 'close');
    assert.match(line, /^ {2}close +no score in BASE \(errored or missing there\) /);
    assert.match(
      line,
      /too few cases \(0 of 12 scored on both sides; 12 missing in BASE: error or no score there\)$/,
    );
    const md = await runCli(['compare', 'base.json', 'head.json', '--format', 'md'], { cwd: dir });
    assert.match(md.stdout, /^\| s \| close \| no score → — \| — \| /m);
    const json = await runCli(['compare', 'base.json', 'head.json', '--format', 'json'], {
      cwd: dir,
    });
    const parsed = JSON.parse(json.stdout) as {
      runs: { evaluators: { evaluator: string; lostInBase?: number; paired: number }[] }[];
    };
    const row = parsed.runs[0]?.evaluators.find((r) => r.evaluator === 'close');
    assert.deepEqual([row?.paired, row?.lostInBase], [0, 12]);
  });
});

describe('a row of too few cases to test', () => {
  it('quotes no interval at 2 cases, saying they are too few to test', async () => {
    const dir = project(2);
    await runs(dir, '0.5', '0.8');
    const text = await runCli(['compare', 'base.json', 'head.json'], { cwd: dir });
    assert.equal(text.code, 0, text.stdout + text.stderr);
    const line = rowLine(text.stdout, 'close');
    assert.match(line, /0\.505 → 0\.805 \(\+0\.300, no interval: 2 cases are too few to test\)/);
    assert.doesNotMatch(line, /CI/);
    assert.doesNotMatch(rowLine(text.stdout, 'pass rate'), /CI/);
  });

  // The JSON carried the "interval" the text and markdown refuse to quote: a script read it as
  // a bound. It has none now, and says why, as the schema's comparison definition allows.
  it('--format json carries no interval either, and says why', async () => {
    const dir = project(2);
    await runs(dir, '0.5', '0.8');
    const json = await runCli(['compare', 'base.json', 'head.json', '--format', 'json'], {
      cwd: dir,
    });
    assert.equal(json.code, 0, json.stdout + json.stderr);
    type Row = { ci: unknown; noInterval?: string; delta: number | null };
    const parsed = JSON.parse(json.stdout) as {
      runs: { passRate: Row; evaluators: (Row & { evaluator: string })[] }[];
    };
    const close = parsed.runs[0]?.evaluators.find((r) => r.evaluator === 'close');
    assert.equal(close?.ci, null);
    assert.equal(close?.noInterval, 'no interval: 2 cases are too few to test');
    assert.ok(Math.abs((close?.delta ?? 0) - 0.3) < 1e-9, 'the change itself is still there');
    assert.equal(parsed.runs[0]?.passRate.ci, null);
    assert.equal(parsed.runs[0]?.passRate.noInterval, 'no interval: 2 cases are too few to test');
    // From 6 cases the interval is quoted, and no reason is given.
    const six = project(6);
    await runs(six, '0.5', '0.8');
    const quoted = await runCli(['compare', 'base.json', 'head.json', '--format', 'json'], {
      cwd: six,
    });
    const row = (JSON.parse(quoted.stdout) as typeof parsed).runs[0]?.evaluators[0];
    assert.notEqual(row?.ci, null);
    assert.equal(row?.noInterval, undefined);
  });

  it('quotes the interval from 6 cases, where a sign flip can reach 5%', async () => {
    const dir = project(6);
    await runs(dir, '0.5', '0.8');
    const text = await runCli(['compare', 'base.json', 'head.json'], { cwd: dir });
    const line = rowLine(text.stdout, 'close');
    assert.match(line, /\(\+0\.300, 95% CI \+0\.300…\+0\.300\)/);
    assert.doesNotMatch(line, /too few to test/);
  });
});
