/** `evals compare` and `evals run --baseline`, end to end through the built CLI. */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { compareArtifacts } from '../src/compare/compare.ts';
import { renderComparisonJson } from '../src/report/comparison.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { breakProjectFiles, CLOSE, EXACT } from './helpers/break-project.ts';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';

/** The BREAK project in a scratch directory, gating on regressions as `regressions` says. */
function project(regressions: 'block' | 'warn'): string {
  const dir = scratch();
  writeFiles(
    dir,
    breakProjectFiles({ evaluators: [EXACT, CLOSE], gate: { minPassRate: 0.1, regressions } }),
  );
  return dir;
}

/** Runs the project into base.json, then with BREAK=1 (a regression) into head.json against it. */
async function regressedRun(dir: string): Promise<Awaited<ReturnType<typeof runCli>>> {
  assert.equal((await runCli(['run', '-o', 'base.json'], { cwd: dir })).code, 0);
  return runCli(['run', '-o', 'head.json', '--baseline', 'base.json'], {
    cwd: dir,
    env: { BREAK: '1' },
  });
}

function artifact(path: string): ResultsArtifact {
  return JSON.parse(readFileSync(path, 'utf8')) as ResultsArtifact;
}

describe('evals run --baseline', () => {
  it('embeds the comparison, and gate.regressions: block fails the run on a real regression', async () => {
    const dir = project('block');
    const base = await runCli(['run', '-o', 'base.json'], { cwd: dir });
    assert.equal(base.code, 0, base.stderr);
    const same = await runCli(['run', '-o', 'same.json', '--baseline', 'base.json'], { cwd: dir });
    assert.equal(same.code, 0, `no regression against itself\n${same.stderr}`);
    assert.equal(artifact(join(dir, 'same.json')).comparison?.hasRegression, false);

    const head = await runCli(['run', '-o', 'head.json', '--baseline', 'base.json'], {
      cwd: dir,
      env: { BREAK: '1' },
    });
    assert.equal(head.code, 1, head.stderr);
    const result = artifact(join(dir, 'head.json'));
    assert.equal(result.comparison?.hasRegression, true);
    const condition = result.runs[0]?.gate.conditions.find((c) => c.name === 'regressions');
    assert.equal(condition?.passed, false);
    assert.match(condition?.actual ?? '', /exact 1\.000 → 0\.350/);
    assert.match(head.stdout, /regressed/, 'the comparison is printed after the summary');
  });

  it('warn (the default) reports the regression without failing the gate on it', async () => {
    const dir = project('warn');
    const head = await regressedRun(dir);
    assert.equal(head.code, 0, head.stderr);
    assert.match(head.stderr, /warning: qa: significant regression: /);
  });

  it('embeds the comparison compareArtifacts makes of the two full artifacts', async () => {
    // The run compares reduced cases (its own read back from the spool, the baseline read a
    // case at a time); the numbers must be those of the full artifacts.
    const dir = project('warn');
    const head = await regressedRun(dir);
    assert.equal(head.code, 0, head.stderr);
    const headArtifact = artifact(join(dir, 'head.json'));
    const embedded = headArtifact.comparison;
    assert.ok(embedded);
    const direct = compareArtifacts(artifact(join(dir, 'base.json')), {
      ...headArtifact,
      comparison: undefined,
    });
    // The run also records the baseline file it read, for --resume and evals merge.
    assert.deepEqual(embedded, { ...direct, base: { ...direct.base, path: 'base.json' } });
    assert.equal(embedded.hasRegression, true);
  });

  it('refuses a baseline with an invalid case before running anything', async () => {
    const dir = project('warn');
    assert.equal((await runCli(['run', '-o', 'base.json'], { cwd: dir })).code, 0);
    const lines = readFileSync(join(dir, 'base.json'), 'utf8').split('\n');
    const at = lines.findIndex((line) => line.includes('"passed":true'));
    lines[at] = (lines[at] ?? '').replace('"passed":true', '"passed":"yes"');
    writeFiles(dir, { 'bad.json': lines.join('\n') });
    const r = await runCli(['run', '-o', 'out.json', '--baseline', 'bad.json'], { cwd: dir });
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /--baseline bad\.json is not a results artifact: \/runs\/0\/cases\/\d+\/passed/,
    );
    assert.doesNotMatch(r.stderr, /\n\s+at /);
    assert.equal(existsSync(join(dir, 'out.json')), false, 'nothing ran');
  });

  it('refuses a baseline that is not a results artifact before running anything', async () => {
    const dir = project('warn');
    writeFiles(dir, { 'nope.json': '{"hello": 1}' });
    const r = await runCli(['run', '-o', 'out.json', '--baseline', 'nope.json'], { cwd: dir });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--baseline nope\.json is not a results artifact/);
  });
});

describe('evals compare', () => {
  it('labels a real regression, exits 1, and prints byte-identical output for identical inputs', async () => {
    const dir = project('warn');
    assert.equal((await runCli(['run', '-o', 'base.json'], { cwd: dir })).code, 0);
    await runCli(['run', '-o', 'head.json'], { cwd: dir, env: { BREAK: '1' } });
    const json = await runCli(['compare', 'base.json', 'head.json', '--format', 'json'], {
      cwd: dir,
    });
    assert.equal(json.code, 1, json.stderr);
    const comparison = JSON.parse(json.stdout) as {
      runs: {
        evaluators: { evaluator: string; label: string; ci: { high: number } }[];
        passRate: { label: string };
      }[];
    };
    // Read a case at a time and reduced, the files give the comparison of the full artifacts,
    // with why it exits 1 after hasRegression (here the regression alone).
    const { runs, onlyInBase, onlyInHead, ...rest } = compareArtifacts(
      artifact(join(dir, 'base.json')),
      artifact(join(dir, 'head.json')),
    );
    const whole = {
      ...rest,
      blocked: true,
      missingEvaluators: [],
      missingGridPoints: [],
      missingSuites: [],
      runs,
      onlyInBase,
      onlyInHead,
    };
    assert.equal(json.stdout, renderComparisonJson(whole));
    const exact = comparison.runs[0]?.evaluators.find((e) => e.evaluator === 'exact');
    assert.equal(exact?.label, 'regressed');
    assert.ok((exact?.ci.high ?? 0) < 0);
    assert.equal(comparison.runs[0]?.passRate.label, 'regressed');
    for (const format of ['json', 'md', 'text']) {
      const a = await runCli(['compare', 'base.json', 'head.json', '--format', format], {
        cwd: dir,
      });
      const b = await runCli(['compare', 'base.json', 'head.json', '--format', format], {
        cwd: dir,
      });
      assert.equal(a.stdout, b.stdout, `${format} output is deterministic`);
    }
    const md = await runCli(['compare', 'base.json', 'head.json', '--format', 'md'], { cwd: dir });
    assert.match(
      md.stdout,
      /exact: 1\.000 → 0\.350 \(-0\.650, 95% CI -0\.\d{3}…-0\.\d{3}\) \*\*regressed\*\*/,
    );
    // The newly failing cases say why each fails now, as the PR comment does (HEAD's failing
    // cases are read whole for it, the rest reduced).
    assert.match(md.stdout, /\| exact 0 \(needs ≥ 1\): expected "answer 1", got "wrong" \|/);
    const same = await runCli(['compare', 'base.json', 'base.json'], { cwd: dir });
    assert.equal(same.code, 0);
    assert.match(same.stdout, /unchanged/);
  });

  it('exits 2 on a non-results JSON, another schemaVersion, no common cases, or a missing file', async () => {
    const dir = project('warn');
    assert.equal((await runCli(['run', '-o', 'base.json'], { cwd: dir })).code, 0);
    const base = artifact(join(dir, 'base.json'));
    writeFiles(dir, {
      'other.json': '[1, 2, 3]',
      'v2.json': JSON.stringify({ ...base, schemaVersion: 2 }),
      'disjoint.json': JSON.stringify({
        ...base,
        runs: base.runs.map((r) => ({
          ...r,
          cases: r.cases.map((c) => ({ ...c, id: `other-${c.id}` })),
        })),
      }),
    });
    const cases: [string, RegExp][] = [
      ['other.json', /other\.json.*not an evalgate results artifact/],
      ['v2.json', /schemaVersion/],
      ['disjoint.json', /no common cases/],
      ['missing.json', /missing\.json: no such results file/],
    ];
    for (const [file, expect] of cases) {
      const r = await runCli(['compare', 'base.json', file], { cwd: dir });
      assert.equal(r.code, 2, `${file}\n${r.stdout}${r.stderr}`);
      assert.match(r.stderr, expect);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
    }
  });
});
