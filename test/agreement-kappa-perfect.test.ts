/**
 * A κ rule over labelled rows that all have one label, the judge giving that verdict to each: κ
 * is 0 / 0 there (chance agreement is 1). It was read as κ 1, which passed `gte: 0.6` for a judge
 * that may say "pass" to everything: rows of one verdict cannot show that it tells verdicts
 * apart. The rule is not measurable now, and fails like every gate rule with nothing to measure,
 * naming what to add (rows of the other verdict); every report says it. The real CLI.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ResultsArtifact } from '../src/types/index.ts';
import { PR_COMMENT_MAX_CHARS } from '../src/report/github-limits.ts';
import { renderMarkdownReport } from '../src/report/markdown.ts';
import { reported } from './helpers/cases.ts';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';

/**
 * Ten rows answered `output(i)` (`ok` unless told), judged by `is-equals ok` against the `human`
 * labels `label(i)`; the gate holds the κ rule `kappa`, and a pass rate only when `minPassRate` says.
 */
function project(
  label: (i: number) => string,
  kappa: string,
  options: { output?: (i: number) => string; minPassRate?: number } = {},
): string {
  const dir = scratch();
  const output = options.output ?? (() => 'ok');
  const rows = Array.from({ length: 10 }, (_, i) =>
    JSON.stringify({ id: `a${i}`, output: output(i), human: label(i) }),
  );
  const passRate = options.minPassRate === undefined ? '' : `minPassRate: ${options.minPassRate}, `;
  writeFiles(dir, {
    'evals.yaml': [
      'version: 1',
      'suites:',
      '  - id: s',
      '    testset: { path: rows.jsonl }',
      '    hash: [id]',
      '    evaluators: [ { id: eq, use: is-equals, with: { expected: ok }, agreement: { column: human } } ]',
      `    gate: { ${passRate}evaluators: { eq: { agreement: { kappa: ${kappa} } } } }`,
      '',
    ].join('\n'),
    'rows.jsonl': `${rows.join('\n')}\n`,
  });
  return dir;
}

async function kappaCondition(dir: string, ...flags: string[]) {
  const r = await runCli(['run', '-o', 'out.json', ...flags], { cwd: dir });
  const out = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as ResultsArtifact;
  const condition = out.runs[0]?.gate.conditions.find(
    (c) => c.name === 'evaluators.eq.agreement.kappa',
  );
  assert.ok(condition !== undefined, r.stdout + r.stderr);
  return { r, condition };
}

const NOT_MEASURABLE =
  'not measurable (label rows of "fail" too): every label and every verdict "pass" on 10 labelled rows, so κ is 0 / 0, and these rows cannot show that the judge tells verdicts apart (one that gave "pass" to every row would agree as well)';

describe('a κ rule over labelled rows of one verdict, all agreed', () => {
  it('fails a lower bound as not measurable, naming the rows to add', async () => {
    const { r, condition } = await kappaCondition(project(() => 'pass', '{ gte: 0.6 }'));
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.deepEqual(condition, {
      name: 'evaluators.eq.agreement.kappa',
      expected: '≥ 0.6',
      actual: NOT_MEASURABLE,
      passed: false,
    });
    // The terminal says the condition, and the agreement line says why κ is missing.
    assert.match(r.stdout, /got not measurable \(label rows of "fail" too\)/);
    assert.match(
      r.stdout,
      /κ undefined \(every label and every verdict "pass": label rows of "fail" to measure it\)/,
    );
  });

  it('fails an upper bound too: no κ was measured to meet it', async () => {
    const { r, condition } = await kappaCondition(project(() => 'pass', '{ lte: 0.5 }'));
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(condition.actual, NOT_MEASURABLE);
    assert.equal(condition.passed, false);
  });

  it('the markdown report (PR comment, job summary) and the HTML page say it', async () => {
    const dir = project(() => 'pass', '{ gte: 0.6 }');
    await kappaCondition(dir);
    const artifact = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as ResultsArtifact;
    const md = renderMarkdownReport(reported(artifact), {
      title: 'evals: evals.yaml',
      marker: '<!-- evalgate -->',
      maxChars: PR_COMMENT_MAX_CHARS,
      sourceRoot: '',
    });
    assert.ok(md.includes('not measurable (label rows of'), md);
    assert.ok(md.includes('to measure it)'), md);
    const html = await runCli(['report', 'out.json', '-o', 'page.html'], {
      cwd: dir,
    });
    assert.equal(html.code, 0, html.stdout + html.stderr);
    const page = readFileSync(join(dir, 'page.html'), 'utf8');
    assert.ok(page.includes('not measurable (label rows of'), 'page condition');
  });

  it('a truly undefined κ (no labelled row judged) still fails, saying so', async () => {
    const { r, condition } = await kappaCondition(project(() => '', '{ gte: 0.6 }'));
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(condition.actual, 'no labelled row judged');
    assert.equal(condition.passed, false);
  });

  it('with rows of both verdicts, perfect agreement is κ 1 and passes', async () => {
    // Half the rows labelled "fail" and answered wrongly: the judge tells them apart.
    const dir = project((i) => (i < 5 ? 'pass' : 'fail'), '{ gte: 0.6 }', {
      output: (i) => (i < 5 ? 'ok' : 'no'),
      minPassRate: 0,
    });
    const { r, condition } = await kappaCondition(dir);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(condition.passed, true);
    assert.match(condition.actual, /^1\b/);
  });

  it('disagreement on rows of one label is no perfect agreement: κ 0, failing', async () => {
    // Every label "fail", every verdict "pass": κ is defined (0) and fails the rule.
    const { r, condition } = await kappaCondition(project(() => 'fail', '{ gte: 0.6 }'));
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(condition.passed, false);
    assert.match(condition.actual, /^0\b/);
  });
});
