/**
 * The comparison pairs evaluators by id, so a renamed evaluator was compared with nothing:
 * renaming `close` to `close2` and lowering its threshold let much worse outputs pass
 * `regressions: block`, the comparison only listing each id on its own side. Under `block`, an
 * evaluator of the baseline's run that the run lacks now fails the `regressions` condition,
 * saying which is new (renamed?) and how to accept it: `gate.removedEvaluators`. The real CLI.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ResultsArtifact } from '../src/types/index.ts';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';
import { headRun, linesMentioning } from './helpers/head-run.ts';

const ROWS = 20;

/** A suite of recorded outputs scored by one levenshtein evaluator, `id`, passing at `gte`. */
function config(id: string, gte: number, gate: string): string {
  return [
    'version: 1',
    'suites:',
    '  - id: s',
    '    testset: { path: rows.jsonl }',
    '    hash: [q]',
    '    evaluators:',
    `      - { id: ${id}, use: levenshtein, with: { expected: "the right answer" }, threshold: { gte: ${gte} } }`,
    `    gate: ${gate}`,
    '',
  ].join('\n');
}

/** Rows whose recorded output is `output`. */
function rows(output: string): string {
  return Array.from({ length: ROWS }, (_, i) => JSON.stringify({ q: `q${i}`, output })).join('\n');
}

/** BASE: every output right, judged by `close`. */
async function project(): Promise<string> {
  const dir = scratch();
  writeFiles(dir, {
    'evals.yaml': config('close', 0.9, '{ regressions: block }'),
    'rows.jsonl': `${rows('the right answer')}\n`,
  });
  const base = await runCli(['run', '-o', 'base.json'], { cwd: dir });
  assert.equal(base.code, 0, base.stdout + base.stderr);
  // HEAD: much worse outputs, the evaluator renamed and its threshold lowered to let them pass.
  writeFiles(dir, { 'rows.jsonl': `${rows('a wrong one')}\n` });
  return dir;
}

function regressions(dir: string): { passed: boolean; actual: string } | undefined {
  const artifact = JSON.parse(readFileSync(join(dir, 'head.json'), 'utf8')) as ResultsArtifact;
  return artifact.runs[0]?.gate.conditions.find((c) => c.name === 'regressions');
}

describe('regressions: block and an evaluator of the baseline missing from the run', () => {
  it('a renamed evaluator fails the gate, naming both ids and how to accept it', async () => {
    const dir = await project();
    const r = await headRun(dir, config('close2', 0, '{ regressions: block }'));
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const message =
      'evaluator "close" of the baseline is not in this run ("close2" is new in this run: renamed?), so nothing was compared with it; if that is intended, list it in the suite\'s gate.removedEvaluators';
    assert.deepEqual(regressions(dir), {
      name: 'regressions',
      // It says it asks for the baseline's evaluators too, since that is why it failed.
      expected:
        "no significant regression against the baseline (Holm-corrected over the comparison), and every evaluator of the baseline's run in this run or in gate.removedEvaluators",
      actual: message,
      passed: false,
    });
    assert.match(
      r.stdout.replace(/\s+/g, ' '),
      /evaluators only in BASE: close · evaluators only in HEAD: close2 \(renamed\? an evaluator is compared only with the same id\)/,
    );
    // The footnote speaks of the rows it tested: it said "nothing could block" above a block.
    assert.doesNotMatch(r.stdout, /nothing could block/);
  });

  it('listed in gate.removedEvaluators, the change is accepted', async () => {
    const dir = await project();
    const r = await headRun(
      dir,
      config('close2', 0, '{ regressions: block, removedEvaluators: [close] }'),
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(regressions(dir)?.passed, true);
  });

  it('under regressions: warn it is a warning, and the run passes', async () => {
    const dir = await project();
    const r = await headRun(dir, config('close2', 0, '{ regressions: warn }'));
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stderr, /warning: s: evaluator "close" of the baseline is not in this run/);
  });

  // `evals compare BASE HEAD` gates a CI job too: it applies HEAD's recorded gate the same way.
  it("evals compare exits 1 for it too, under HEAD's recorded regressions: block", async () => {
    const dir = await project();
    await headRun(dir, config('close2', 0, '{ regressions: block }'), []);
    const r = await runCli(['compare', 'base.json', 'head.json'], { cwd: dir });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /^HEAD s: evaluator "close" of the baseline is not in this run \("close2" is new in this run: renamed\?\), .* list it in the suite's gate\.removedEvaluators$/m,
    );
  });

  // `hasRegression` is the statistics' alone: a script reading the JSON saw no reason for the 1,
  // and the markdown (the PR comment's comparison) did not say why it failed either.
  it('evals compare --format json and md say why it exits 1', async () => {
    const dir = await project();
    await headRun(dir, config('close2', 0, '{ regressions: block }'), []);
    const json = await runCli(['compare', 'base.json', 'head.json', '--format', 'json'], {
      cwd: dir,
    });
    assert.equal(json.code, 1, json.stdout + json.stderr);
    const parsed = JSON.parse(json.stdout) as Record<string, unknown>;
    assert.equal(parsed.hasRegression, false, 'no row regressed: the statistics are unchanged');
    assert.equal(parsed.blocked, true);
    const text =
      'evaluator "close" of the baseline is not in this run ("close2" is new in this run: renamed?), so nothing was compared with it; if that is intended, list it in the suite\'s gate.removedEvaluators';
    assert.deepEqual(parsed.missingEvaluators, [
      { suite: 's', params: {}, evaluators: ['close'], text },
    ]);
    // The new keys follow hasRegression; the runs stay where they were, after them.
    const keys = Object.keys(parsed);
    assert.deepEqual(keys.slice(keys.indexOf('hasRegression'), keys.indexOf('hasRegression') + 6), [
      'hasRegression',
      'blocked',
      'missingEvaluators',
      'missingGridPoints',
      'missingSuites',
      'runs',
    ]);
    const md = await runCli(['compare', 'base.json', 'head.json', '--format', 'md'], { cwd: dir });
    assert.equal(md.code, 1, md.stdout + md.stderr);
    assert.match(
      md.stdout,
      /^❌ \*\*HEAD s fails its gate \(regressions: block\):\*\* evaluator "close" of the baseline is not in this run \("close2" is new in this run: renamed\?\)/m,
    );
  });

  it('evals compare exits 0 when HEAD lists it in removedEvaluators, or does not block', async () => {
    for (const gate of [
      '{ regressions: block, removedEvaluators: [close] }',
      '{ regressions: warn }',
    ]) {
      const dir = await project();
      await headRun(dir, config('close2', 0, gate), []);
      const r = await runCli(['compare', 'base.json', 'head.json', '--format', 'json'], {
        cwd: dir,
      });
      assert.equal(r.code, 0, `${gate}: ${r.stdout}${r.stderr}`);
      assert.equal(r.stderr, '', gate);
      const parsed = JSON.parse(r.stdout) as Record<string, unknown>;
      assert.deepEqual([parsed.blocked, parsed.missingEvaluators], [false, []], gate);
    }
  });

  // A typo in the list accepts nothing, and the gate failing for the evaluator it meant says
  // only to list it: the warning names the entry and what it likely meant.
  it('an entry naming no evaluator of the baseline is a warning, with did-you-mean', async () => {
    const dir = await project();
    const r = await headRun(
      dir,
      config('close2', 0, '{ regressions: warn, removedEvaluators: [clsoe, tone] }'),
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const warnings = linesMentioning(r.stderr, 'removedEvaluators lists');
    assert.deepEqual(warnings, [
      'warning: s: gate.removedEvaluators lists "clsoe", which is no evaluator of the baseline\'s run of the suite, so it accepts nothing here: did you mean "close", which the baseline has and this run does not?',
      'warning: s: gate.removedEvaluators lists "tone", which is no evaluator of the baseline\'s run of the suite, so it accepts nothing here: if it was removed before the baseline was made, the entry can go',
    ]);
    // evals compare says the same, of HEAD's recorded gate.
    const c = await runCli(['compare', 'base.json', 'head.json'], { cwd: dir });
    assert.match(
      c.stderr,
      /^warning: HEAD: s: gate\.removedEvaluators lists "clsoe", .* did you mean "close"/m,
    );
  });

  it('evals compare --help gives that exit code', async () => {
    const r = await runCli(['compare', '--help'], { cwd: scratch() });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout.replace(/\s+/g, ' '),
      /1 a regression, or an evaluator of BASE that HEAD lacks under regressions: block/,
    );
  });
});
