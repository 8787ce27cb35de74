/**
 * Runs are paired by suite, so a suite renamed or deleted was compared with nothing: renaming a
 * failing suite passed `regressions: block`, and renaming a one-suite config's only suite (or its
 * only grid value) left no case in common, a warning and no comparison. A suite of the baseline
 * that the config no longer has now fails the run when the baseline's gate for it blocks, saying
 * which suites are new (renamed?) and how to accept it: the top-level `removedSuites`. A
 * `--suite` filter is never a removal. The real CLI, `evals run` and `evals compare`.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { headline } from '../src/action/publish.ts';
import { renderMarkdownReport } from '../src/report/markdown.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { reported } from './helpers/cases.ts';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';

const ROWS = 12;

/** Suites of recorded outputs, each scored by one levenshtein evaluator; `top`: top-level lines. */
function config(ids: readonly string[], gate: string, top: string[] = []): string {
  return [
    'version: 1',
    ...top,
    'suites:',
    ...ids.flatMap((id) => [
      `  - id: ${id}`,
      '    testset: { path: rows.jsonl }',
      '    hash: [q]',
      '    evaluators:',
      '      - { id: close, use: levenshtein, with: { expected: "the right answer" }, threshold: { gte: 0.9 } }',
      `    gate: ${gate}`,
    ]),
    '',
  ].join('\n');
}

const rows = (output: string): string =>
  `${Array.from({ length: ROWS }, (_, i) => JSON.stringify({ q: `q${i}`, output })).join('\n')}\n`;

/** BASE: suites `ids` under `gate`, every output right, written to base.json by a real run. */
async function project(ids: readonly string[], gate = '{ regressions: block }'): Promise<string> {
  const dir = scratch();
  writeFiles(dir, { 'evals.yaml': config(ids, gate), 'rows.jsonl': rows('the right answer') });
  const base = await runCli(['run', '-o', 'base.json'], { cwd: dir });
  assert.equal(base.code, 0, base.stdout + base.stderr);
  return dir;
}

function artifact(dir: string, file = 'head.json'): ResultsArtifact {
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as ResultsArtifact;
}

const GONE =
  'suite "s" of the baseline is not in the config any more ("t" is new in the config: renamed?), so nothing was compared with it; if that is intended, list it in the config\'s top-level removedSuites';

const run = (dir: string, ...extra: string[]) =>
  runCli(['run', '--baseline', 'base.json', '-o', 'head.json', ...extra], { cwd: dir });

describe('regressions: block and a suite of the baseline gone from the config', () => {
  it('a renamed suite fails the run, naming the new suite and how to accept it', async () => {
    const dir = await project(['s', 'other']);
    // Every case of `t` fails now: compared with nothing, the rename used to hide it.
    writeFiles(dir, {
      'evals.yaml': config(['t', 'other'], '{ regressions: block, minPassRate: 0 }'),
    });
    const r = await run(dir, '--junit', 'junit.xml');
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const head = artifact(dir);
    assert.equal(head.verdict, 'fail');
    // A CI test report shows the failure too, under the suite's old name.
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    assert.match(junit, /^<testsuites name="evalgate" tests="25" failures="1" /m);
    assert.match(
      junit,
      /<testsuite name="s" tests="1" failures="1"[^>]*>\n {4}<testcase name="\(gone\)" classname="s" time="0\.000">\n {6}<failure message="suite &quot;s&quot; of the baseline is not in the config any more/,
    );
    assert.deepEqual(head.missingSuites, [{ suite: 's', text: GONE }]);
    // No run failed: what fails is the suite gone, which the summary says above its verdict.
    assert.deepEqual(
      head.runs.map((r) => r.verdict),
      ['pass', 'pass'],
    );
    assert.ok(r.stdout.includes(`regressions: ${GONE} (the baseline's gate: block)`), r.stdout);
    assert.match(r.stdout, /FAIL {2}1 suite of the baseline gone · 2 runs passed/);
  });

  it('the PR comment and the check run say it beside the verdict, from the artifact', async () => {
    const dir = await project(['s', 'other']);
    writeFiles(dir, { 'evals.yaml': config(['t', 'other'], '{ regressions: block }') });
    assert.equal((await run(dir)).code, 1);
    const head = artifact(dir);
    // The Action's check run concludes from the verdict, and its title counts the suite gone.
    assert.match(headline(head), /^fail: 1 suite of the baseline gone · 0 of 2 runs failed · /);
    const md = renderMarkdownReport(reported(head), {
      title: 'evals: evals.yaml',
      marker: '',
      maxChars: 65_000,
      sourceRoot: '',
    });
    const [, verdict, gone] = md.split('\n\n');
    assert.match(
      verdict ?? '',
      /^\*\*❌ Blocked\*\*: 1 suite of the baseline is gone from the config; /,
    );
    assert.ok(
      gone?.startsWith(
        '❌ **Suite s of the baseline is gone (its gate there: regressions: block):** suite ',
      ),
      md,
    );
    assert.match(gone ?? '', /top-level removedSuites$/);
  });

  it('listed in the top-level removedSuites, the change is accepted', async () => {
    const dir = await project(['s', 'other']);
    writeFiles(dir, {
      'evals.yaml': config(['t', 'other'], '{ regressions: block }', ['removedSuites: [s]']),
    });
    const r = await run(dir);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const head = artifact(dir);
    assert.equal(head.verdict, 'pass');
    assert.equal(head.missingSuites, undefined);
    assert.deepEqual(head.removedSuites, ['s']);
  });

  it("under the baseline's regressions: warn it is a warning, whatever HEAD's gate says", async () => {
    const dir = await project(['s', 'other'], '{ regressions: warn }');
    writeFiles(dir, { 'evals.yaml': config(['t', 'other'], '{ regressions: block }') });
    const r = await run(dir);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.ok(r.stderr.includes(`warning: ${GONE}\n`), r.stderr);
    assert.equal(artifact(dir).missingSuites, undefined);
  });

  it('a run that did not select the suite (--suite) is not failed', async () => {
    const dir = await project(['s', 'other']);
    const r = await run(dir, '--suite', 'other');
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(artifact(dir).missingSuites, undefined);
    assert.doesNotMatch(r.stderr, /not in the config any more/);
  });

  it('a one-suite config whose only suite is renamed fails, rather than not comparing', async () => {
    const dir = await project(['s']);
    writeFiles(dir, { 'evals.yaml': config(['t'], '{ regressions: block }') });
    const r = await run(dir);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const head = artifact(dir);
    assert.deepEqual(head.missingSuites, [{ suite: 's', text: GONE }]);
    // Compared, over no run in common: recorded for --resume and evals merge, not "not compared".
    assert.equal(head.notCompared, undefined);
    assert.deepEqual(
      head.comparison?.onlyInBase.map((r) => r.suite),
      ['s'],
    );
    assert.doesNotMatch(r.stderr, /no comparison with/);
  });

  it('a one-suite config whose only grid value is renamed fails too, in run and compare', async () => {
    const dir = scratch();
    const grid = (model: string): string =>
      config(['s'], '{ regressions: block }').replace(
        '    hash: [q]\n',
        `    hash: [q]\n    grid: { model: [${model}] }\n`,
      );
    writeFiles(dir, { 'evals.yaml': grid('large'), 'rows.jsonl': rows('the right answer') });
    assert.equal((await runCli(['run', '-o', 'base.json'], { cwd: dir })).code, 0);
    writeFiles(dir, { 'evals.yaml': grid('large2') });
    const r = await run(dir);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const condition = artifact(dir).runs[0]?.gate.conditions.find((c) => c.name === 'regressions');
    assert.equal(condition?.passed, false);
    assert.match(condition?.actual ?? '', /^grid point "model=large" of the baseline is not in/);
    const compared = await runCli(['compare', 'base.json', 'head.json'], { cwd: dir });
    assert.equal(compared.code, 1, compared.stdout + compared.stderr);
    assert.match(compared.stderr, /^HEAD s: grid point "model=large" of the baseline/);
  });

  it("evals compare exits 1 for it too, under BASE's recorded gate, in every format", async () => {
    const dir = await project(['s', 'other']);
    writeFiles(dir, { 'evals.yaml': config(['t', 'other'], '{ regressions: off }') });
    assert.equal((await runCli(['run', '-o', 'head.json'], { cwd: dir })).code, 0);
    const text = await runCli(['compare', 'base.json', 'head.json'], { cwd: dir });
    assert.equal(text.code, 1, text.stdout + text.stderr);
    assert.equal(text.stderr, `HEAD: ${GONE}\n`);
    const md = await runCli(['compare', 'base.json', 'head.json', '--format', 'md'], { cwd: dir });
    assert.equal(md.code, 1, md.stdout + md.stderr);
    const [headline, next] = md.stdout.split('\n\n');
    assert.match(headline ?? '', /^Compared with /);
    assert.ok(
      next?.startsWith(
        '❌ **Suite s of BASE is gone from HEAD (its gate in BASE: regressions: block):** suite ',
      ),
      md.stdout,
    );
    assert.match(next ?? '', /is new in the config: renamed\?\).*top-level removedSuites$/);
    const json = await runCli(['compare', 'base.json', 'head.json', '--format', 'json'], {
      cwd: dir,
    });
    assert.equal(json.code, 1, json.stdout + json.stderr);
    const parsed = JSON.parse(json.stdout) as Record<string, unknown>;
    assert.equal(parsed.hasRegression, false);
    assert.equal(parsed.blocked, true);
    assert.deepEqual(parsed.missingSuites, [{ suite: 's', text: GONE }]);
    // Listed in HEAD's removedSuites, which its artifact records, it is accepted.
    writeFiles(dir, {
      'evals.yaml': config(['t', 'other'], '{ regressions: off }', ['removedSuites: [s]']),
    });
    assert.equal((await runCli(['run', '-o', 'head.json'], { cwd: dir })).code, 0);
    const accepted = await runCli(['compare', 'base.json', 'head.json', '--format', 'json'], {
      cwd: dir,
    });
    assert.equal(accepted.code, 0, accepted.stdout + accepted.stderr);
    assert.deepEqual((JSON.parse(accepted.stdout) as Record<string, unknown>).missingSuites, []);
    // A HEAD run narrowed by --suite, of the config unchanged, removed nothing.
    writeFiles(dir, { 'evals.yaml': config(['s', 'other'], '{ regressions: block }') });
    await runCli(['run', '--suite', 'other', '-o', 'head.json'], { cwd: dir });
    const filtered = await runCli(['compare', 'base.json', 'head.json'], { cwd: dir });
    assert.equal(filtered.code, 0, filtered.stdout + filtered.stderr);
  });

  it('evals compare of a one-suite rename exits 1 with the reason, not 2 (no case in common)', async () => {
    const dir = await project(['s']);
    writeFiles(dir, { 'evals.yaml': config(['t'], '{ regressions: block }') });
    assert.equal((await runCli(['run', '-o', 'head.json'], { cwd: dir })).code, 0);
    const r = await runCli(['compare', 'base.json', 'head.json'], { cwd: dir });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(
      r.stderr,
      `HEAD: the baseline's only suite ("s") is not in HEAD's config, and the baseline shares no case with HEAD: a baseline of another config? If the suite was renamed, list it in removedSuites\nHEAD: ${GONE}\n`,
    );
  });

  it('evals report --baseline of a one-suite rename writes the report, saying why, not exit 2', async () => {
    const dir = await project(['s']);
    writeFiles(dir, { 'evals.yaml': config(['t'], '{ regressions: block }') });
    assert.equal((await runCli(['run', '-o', 'head.json'], { cwd: dir })).code, 0);
    const r = await runCli(['report', 'head.json', '--baseline', 'base.json', '-o', 'r.html'], {
      cwd: dir,
    });
    // The report does not gate (its verdict is the run's own): it compares, as evals compare
    // does, and says the removal on stderr instead of refusing a "wrong file".
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stderr, /^warning: the baseline's only suite \("s"\) is not in HEAD's config/);
    assert.ok(r.stderr.includes(`warning: ${GONE}\n`), r.stderr);
    assert.doesNotMatch(r.stderr, /no common cases/);
    assert.match(readFileSync(join(dir, 'r.html'), 'utf8'), /<html/i);
  });

  it('a baseline of another config says so in one sentence first, in run and compare', async () => {
    const dir = await project(['a', 'b']);
    // Another project: other suites, other rows, so no case in common either.
    const other = (output: string) =>
      rows(output).replace(/"q":"q(\d+)"/g, (_, i: string) => `"q":"other${i}"`);
    writeFiles(dir, {
      'evals.yaml': config(['x', 'y'], '{ regressions: block }'),
      'rows.jsonl': other('the right answer'),
    });
    const sentence =
      'none of the baseline\'s suites ("a", "b") is in this config, and the baseline shares no case with this run: a baseline of another config? If the suites were renamed, list them in removedSuites';
    const r = await run(dir);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.ok(r.stderr.startsWith(`warning: ${sentence}\n`), r.stderr);
    assert.deepEqual(
      artifact(dir).missingSuites?.map((gone) => gone.suite),
      ['a', 'b'],
      'still failed, suite by suite',
    );
    const compared = await runCli(['compare', 'base.json', 'head.json'], { cwd: dir });
    assert.equal(compared.code, 1, compared.stdout + compared.stderr);
    const [first, ...rest] = compared.stderr.trimEnd().split('\n');
    assert.equal(
      first,
      `HEAD: ${sentence.replace('in this config', "in HEAD's config").replace('with this run', 'with HEAD')}`,
    );
    assert.equal(rest.length, 2, compared.stderr);
    // A config that keeps one of the suites shares it: no such sentence, the rename is asked.
    writeFiles(dir, { 'evals.yaml': config(['a', 'y'], '{ regressions: block }') });
    const kept = await run(dir);
    assert.doesNotMatch(kept.stderr, /another config/);
  });
});

describe('removedSuites entries that accept nothing', () => {
  it('a suite the config still has is a config error (exit 2, file:line:col), nothing run', async () => {
    const dir = await project(['s', 'other']);
    // The new id where the old one belongs: `t` is in the config, `s` stays unaccepted.
    writeFiles(dir, {
      'evals.yaml': config(['t', 'other'], '{ regressions: block }', ['removedSuites: [t]']),
    });
    const r = await run(dir);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /evals\.yaml:2:17 {2}removedSuites\[0\]: expected the id of a suite this config no longer has, found "t", a suite of this config \(suites\[0\]\.id at line 4\)/,
    );
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
    assert.equal(existsSync(join(dir, 'head.json')), false);
  });

  it('an entry naming no suite of the baseline is a warning, naming a near suite of it', async () => {
    const dir = await project(['qa_v1', 'other']);
    // A typo: `qa-v1` for `qa_v1`, which stays unaccepted and fails the run.
    writeFiles(dir, {
      'evals.yaml': config(['qa2', 'other'], '{ regressions: block }', [
        'removedSuites: [qa-v1, legacy]',
      ]),
    });
    const r = await run(dir);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.ok(
      r.stderr.includes(
        'warning: removedSuites lists "qa-v1", which is no suite of the baseline, so it accepts nothing here: did you mean "qa_v1", which the baseline has and the config does not?\n',
      ),
      r.stderr,
    );
    // No near suite: it may be a removal older than the baseline.
    assert.ok(
      r.stderr.includes(
        'warning: removedSuites lists "legacy", which is no suite of the baseline, so it accepts nothing here: if it was removed before the baseline was made, the entry can go\n',
      ),
      r.stderr,
    );
    assert.deepEqual(
      artifact(dir).missingSuites?.map((gone) => gone.suite),
      ['qa_v1'],
    );
    const compared = await runCli(['compare', 'base.json', 'head.json'], { cwd: dir });
    assert.equal(compared.code, 1, compared.stdout + compared.stderr);
    assert.match(
      compared.stderr,
      /^warning: HEAD: removedSuites lists "qa-v1", which is no suite/m,
    );
  });
});

describe('a baseline of another config, recorded', () => {
  it('the artifact, evals compare (json, md) and the PR comment say it, not stderr alone', async () => {
    const dir = await project(['a', 'b']);
    const other = (output: string) =>
      rows(output).replace(/"q":"q(\d+)"/g, (_, i: string) => `"q":"other${i}"`);
    writeFiles(dir, {
      'evals.yaml': config(['x', 'y'], '{ regressions: block }'),
      'rows.jsonl': other('the right answer'),
    });
    const sentence =
      'none of the baseline\'s suites ("a", "b") is in this config, and the baseline shares no case with this run: a baseline of another config? If the suites were renamed, list them in removedSuites';
    assert.equal((await run(dir)).code, 1);
    const head = artifact(dir);
    assert.equal(head.comparison?.foreignBaseline, sentence);
    const md = renderMarkdownReport(reported(head), {
      title: 'evals: evals.yaml',
      marker: '',
      maxChars: 65_000,
      sourceRoot: '',
    });
    assert.ok(md.includes(`⚠️ **A baseline of another config?** ${sentence}`), md);
    // The artifact with the field reads back (evals show checks it against the schema).
    const shown = await runCli(['show', 'head.json'], { cwd: dir });
    assert.equal(shown.code, 0, shown.stdout + shown.stderr);
    const ours = sentence
      .replace('in this config', "in HEAD's config")
      .replace('with this run', 'with HEAD');
    const json = await runCli(['compare', 'base.json', 'head.json', '--format', 'json'], {
      cwd: dir,
    });
    assert.equal(json.code, 1, json.stdout + json.stderr);
    assert.equal((JSON.parse(json.stdout) as Record<string, unknown>).foreignBaseline, ours);
    const mdCompare = await runCli(['compare', 'base.json', 'head.json', '--format', 'md'], {
      cwd: dir,
    });
    assert.ok(
      mdCompare.stdout.includes(`⚠️ **A baseline of another config?** ${ours}`),
      mdCompare.stdout,
    );
  });
});

describe('a renamed suite in a matrix of --suite jobs', () => {
  it('fails the job that runs the new suite, and tells the others who fails and why', async () => {
    const dir = await project(['s', 'other']);
    writeFiles(dir, { 'evals.yaml': config(['t', 'other'], '{ regressions: block }') });
    const other = await run(dir, '--suite', 'other');
    assert.equal(other.code, 0, other.stdout + other.stderr);
    assert.equal(artifact(dir).missingSuites, undefined);
    const elsewhere =
      'suite "s" of the baseline is not in the config any more ("t" is new in the config: renamed?); this run did not select it, and a run that does (--suite t, or the whole config) fails for it under the baseline\'s regressions: block; if that is intended, list it in the config\'s top-level removedSuites';
    assert.ok(other.stderr.includes(`warning: ${elsewhere}\n`), other.stderr);
    // Recorded, so that this job's PR comment says it beside its verdict too.
    const head = artifact(dir);
    assert.deepEqual(head.goneSuiteWarnings, [{ suite: 's', text: elsewhere }]);
    const md = renderMarkdownReport(reported(head), {
      title: 'evals: evals.yaml',
      marker: '',
      maxChars: 65_000,
      sourceRoot: '',
    });
    assert.ok(
      md.includes(`⚠️ **Suite s of the baseline is gone (a warning here):** ${elsewhere}`),
      md,
    );
    // evals compare of that job's artifact agrees: not its business.
    const compared = await runCli(['compare', 'base.json', 'head.json'], { cwd: dir });
    assert.equal(compared.code, 0, compared.stdout + compared.stderr);
    const renamed = await run(dir, '--suite', 't');
    assert.equal(renamed.code, 1, renamed.stdout + renamed.stderr);
    assert.deepEqual(artifact(dir).missingSuites, [{ suite: 's', text: GONE }]);
  });

  it('a suite deleted, with no new suite to run it, fails every job', async () => {
    const dir = await project(['s', 'other', 'third']);
    writeFiles(dir, { 'evals.yaml': config(['other', 'third'], '{ regressions: block }') });
    const r = await run(dir, '--suite', 'other');
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.deepEqual(
      artifact(dir).missingSuites?.map((gone) => gone.suite),
      ['s'],
    );
  });
});

describe('a renamed grid value in a matrix of --grid jobs', () => {
  const grid = (models: string): string =>
    config(['s'], '{ regressions: block }').replace(
      '    hash: [q]\n',
      `    hash: [q]\n    grid: { model: [${models}], prompt: [a, b] }\n`,
    );

  it('fails the job whose slice holds the new value, proven from the grid digest', async () => {
    const dir = scratch();
    writeFiles(dir, { 'evals.yaml': grid('small, large'), 'rows.jsonl': rows('the right answer') });
    assert.equal((await runCli(['run', '-o', 'base.json'], { cwd: dir })).code, 0);
    writeFiles(dir, { 'evals.yaml': grid('small, large2') });
    const renamed = await run(dir, '--grid', 'model=large2');
    assert.equal(renamed.code, 1, renamed.stdout + renamed.stderr);
    const conditions = artifact(dir).runs.map(
      (r) => r.gate.conditions.find((c) => c.name === 'regressions')?.actual ?? '',
    );
    assert.equal(conditions.length, 2);
    for (const actual of conditions) {
      assert.match(
        actual,
        /^grid points "model=large prompt=a", "model=large prompt=b" of the baseline are not in the suite's grid any more/,
      );
    }
    const compared = await runCli(['compare', 'base.json', 'head.json'], { cwd: dir });
    assert.equal(compared.code, 1, compared.stdout + compared.stderr);
    // The job of a value the baseline has sees nothing new, and is not failed for it.
    const small = await run(dir, '--grid', 'model=small');
    assert.equal(small.code, 0, small.stdout + small.stderr);
    // Accepted in removedGridValues, the renamed job passes.
    writeFiles(dir, {
      'evals.yaml': grid('small, large2').replace(
        'regressions: block }',
        'regressions: block, removedGridValues: { model: [large] } }',
      ),
    });
    assert.equal((await run(dir, '--grid', 'model=large2')).code, 0);
  });
});
