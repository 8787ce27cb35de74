/**
 * A comparison that breaks (values it cannot handle, or a bug in it) must not cost the run its
 * results: `withComparison` threw anything but a usage error on, and `evals run --baseline` then
 * wrote no artifact for cases that had all run. The results are now kept without the comparison,
 * with a warning naming the failure, and a suite whose gate blocks on regressions fails, since
 * its regressions were not checked. A suite that only warns on them keeps its own verdict.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { withComparison } from '../src/pipeline/baseline.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const rows = Array.from({ length: 14 }, (_, i) => ({ q: `q${i}`, output: `a${i}` }));

async function artifactOf(regressions: 'block' | 'warn'): Promise<ResultsArtifact> {
  const dir = jsonlProject(rows, [
    'hash: [q]',
    'evaluators: [ { id: has, use: contains, with: { values: [a] } } ]',
    `gate: { regressions: ${regressions} }`,
  ]);
  const run = await runInProcess(['run', '-o', 'results.json'], dir);
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as ResultsArtifact;
}

/** `artifact` with every score `score`: a run and a baseline scored ±1e308 differ by more than a double holds. */
function scored(artifact: ResultsArtifact, score: number): ResultsArtifact {
  const copy = structuredClone(artifact);
  for (const result of copy.runs[0]!.cases) result.evaluations[0]!.score = score;
  return copy;
}

function collected(): { ctx: Parameters<typeof withComparison>[5]; err: () => string } {
  let err = '';
  return {
    ctx: {
      cwd: '.',
      env: {},
      stdout: { write: () => true },
      stderr: { write: (text: string) => ((err += text), true) },
    },
    err: () => err,
  };
}

describe('a comparison that breaks', () => {
  for (const regressions of ['block', 'warn'] as const) {
    it(`keeps the run's results (regressions: ${regressions})`, async () => {
      const run = await artifactOf(regressions);
      const head = scored(run, 1e308);
      const { ctx, err } = collected();
      const out = withComparison(
        head,
        (run) => head.runs[run]!.cases,
        scored(run, -1e308),
        'base.json',
        [{ id: 's', gate: { regressions } }],
        ctx,
      );
      assert.equal(out.comparison, undefined);
      assert.equal(out.runs[0]!.cases.length, rows.length);
      assert.match(
        err(),
        /^warning: the comparison with base\.json failed: .+; the results are written without it$/m,
      );
      const condition = out.runs[0]!.gate.conditions.find((c) => c.name === 'regressions');
      if (regressions === 'block') {
        assert.equal(out.verdict, 'fail');
        assert.equal(condition?.passed, false);
        assert.match(
          condition?.actual ?? '',
          /^not checked: the comparison with base\.json failed: /,
        );
      } else {
        assert.equal(out.verdict, run.verdict);
        assert.equal(condition, undefined);
      }
    });
  }
});
