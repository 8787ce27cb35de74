/**
 * QA #11 3: the Action's `mode: report` with `baseline: FILE` showed only plain deltas (pass
 * statuses up or down) of the baseline, never the comparison `mode: run` shows. Now it compares
 * the results with the file as `evals report --baseline` does and posts it as a run posts its
 * comparison: the same verdict sentence and the same comparison table in the job summary and PR
 * comment. A baseline that is missing or not a results artifact is a warning naming the file
 * and what is wrong, as in `mode: run`, and the report goes out without a comparison.
 *
 * The Action runs from src/ (through tsx) in a child process, as the built dist/index.js would
 * run it, against the fake GitHub on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { workspace, type ActionRun, type Workspace } from './helpers/action-run.ts';
import { useSourceAction } from './helpers/action-fixture.ts';
import { runInProcess } from './helpers/in-process.ts';

/** 24 rows answered `ok`, or `bad` while the file `bad` is there; the gate ignores regressions. */
const FILES = {
  'evals.yaml': `version: 1
suites:
  - id: qa
    testset: { path: rows.jsonl }
    hash: [id]
    function: ./m.mjs#fn
    evaluators:
      - { id: eq, use: is-equals, with: { expected: ok } }
    gate: { minPassRate: 0 }
`,
  'rows.jsonl': `${Array.from({ length: 24 }, (_, n) => JSON.stringify({ id: `c${n}` })).join('\n')}\n`,
  'm.mjs': `import { existsSync } from 'node:fs';
export const fn = () => (existsSync(new URL('./bad', import.meta.url)) ? 'bad' : 'ok');
`,
};

/** The line of a job summary or comment that states the verdict. */
function verdictLine(text: string): string {
  return /^\*\*(✅|❌|⚠️)[^\n]*$/mu.exec(text)?.[0] ?? `no verdict line in:\n${text}`;
}

/** `::warning::` lines of a run's log. */
function warnings(run: ActionRun): string[] {
  return run.stdout.split('\n').filter((line) => line.startsWith('::warning::'));
}

describe("the Action's mode: report with a baseline file (QA #11 3)", () => {
  const fixture = useSourceAction();
  let ws: Workspace;
  before(async () => {
    ws = workspace(FILES);
    const base = await runInProcess(['run', '-o', 'base.json'], ws.dir);
    assert.equal(base.code, 0, base.stderr);
    writeFileSync(join(ws.dir, 'bad'), '');
    // An earlier job's results, made without a baseline: every case now fails, the gate passes.
    const head = await runInProcess(['run', '-o', 'evals-results.json'], ws.dir);
    assert.equal(head.code, 0, head.stderr);
  });

  it('posts the comparison as mode: run posts it', async () => {
    const run = await fixture.run(ws, {
      baseline: 'base.json',
      results: 'run.json',
      report: 'false',
    });
    assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
    fixture.server.state.comments.delete(7);
    const report = await fixture.run(ws, { mode: 'report', baseline: 'base.json' });
    assert.equal(report.code, 0, `${report.stdout}\n${report.stderr}`);
    assert.equal(report.outputs['verdict'], 'pass', "the verdict stays the results' own");
    assert.deepEqual(warnings(report), []);
    // The statistics' sentence, not the plain deltas' (`24 cases newly failing`).
    assert.equal(
      verdictLine(report.summary),
      '**✅ Passed**: the pass rate and 1 evaluator regressed; 24 of 24 cases fail.',
    );
    assert.equal(verdictLine(report.summary), verdictLine(run.summary));
    const table = (text: string): string =>
      /^\| [^\n]*Δ[^\n]*\n(?:\|[^\n]*\n)+/mu.exec(text)?.[0] ?? `no comparison table in:\n${text}`;
    assert.equal(table(report.summary), table(run.summary));
    const [comment] = fixture.server.state.comments.get(7) ?? [];
    assert.ok(comment, 'the comment went out');
    assert.equal(verdictLine(comment.body), verdictLine(run.summary));
    assert.equal(table(comment.body), table(run.summary));
  });

  it('warns about a baseline file that is missing, naming it, and reports without it', async () => {
    const report = await fixture.run(ws, { mode: 'report', baseline: 'gone.json' });
    assert.equal(report.code, 0, `${report.stdout}\n${report.stderr}`);
    assert.deepEqual(warnings(report), [
      `::warning::evalgate: the baseline ${join(ws.dir, 'gone.json')} does not exist; reporting without a comparison`,
    ]);
    assert.equal(verdictLine(report.summary), '**✅ Passed**: 24 of 24 cases fail.');
  });

  it('warns about a baseline file that is not a results artifact, saying why', async () => {
    writeFileSync(join(ws.dir, 'broken.json'), '{"schemaVersion": 1}');
    try {
      const report = await fixture.run(ws, {
        mode: 'report',
        baseline: 'broken.json',
      });
      assert.equal(report.code, 0, `${report.stdout}\n${report.stderr}`);
      const [warning, ...more] = warnings(report);
      assert.deepEqual(more, []);
      assert.match(
        warning ?? '',
        /^::warning::evalgate: the baseline is not a readable results artifact: .*broken\.json.*; reporting without a comparison$/,
      );
      assert.equal(verdictLine(report.summary), '**✅ Passed**: 24 of 24 cases fail.');
    } finally {
      rmSync(join(ws.dir, 'broken.json'));
    }
  });
});
