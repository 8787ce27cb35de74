/**
 * What the seeded differential tests (verdict-equivalence*.test.ts) share: a run of `evals` in
 * process that a test can interrupt at a case, reading its artifact, and the part of an artifact
 * that must not depend on how the run was made.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResultsArtifact } from '../../src/types/index.ts';
import { AT, STOP } from './equivalence-projects.ts';
import { stoppableRun } from './in-process.ts';

/** `evals ...argv` in `dir`, in process; interrupted (Ctrl-C) when the case `stopAt` is reached. */
export async function run(
  argv: string[],
  dir: string,
  stopAt?: string,
): Promise<{ code: number; stderr: string }> {
  const g = globalThis as Record<string, unknown>;
  if (stopAt !== undefined) g[AT] = stopAt;
  try {
    return await stoppableRun(STOP, argv, dir);
  } finally {
    delete g[AT];
  }
}

/** One way of running a project, as it ended. */
export interface Way {
  name: string;
  code: number;
  artifact: ResultsArtifact;
}

export function read(dir: string, file: string): ResultsArtifact {
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as ResultsArtifact;
}

type Evaluation = ResultsArtifact['runs'][number]['cases'][number]['evaluations'][number];
type Summary = ResultsArtifact['runs'][number]['summary'];
type Usage = NonNullable<Summary['usage']>;

/**
 * Model usage less its wall time (`latencyMs`). With a cache (`cached`), which way's call is
 * sent and which is served from the cache depends on the order the ways ran in (the first fills
 * the cache, the later ones read it), so only the calls made either way are compared, not the
 * tokens the sent ones spent.
 */
function usage(u: Usage | undefined, cached: boolean | 'stopped'): unknown {
  // Given up on after `stopAfterErrors`, a host gets the calls each way made before that (a grid
  // point whose calls were all stopped has no usage at all).
  if (cached === 'stopped') return 'calls vary';
  if (!u) return u;
  if (cached) return { callsOrHits: u.calls + u.cacheHits };
  const { latencyMs: _, ...rest } = u;
  return rest;
}

function summary(s: Summary, cached: boolean | 'stopped'): unknown {
  const evaluators: Record<string, unknown> = {};
  for (const [id, e] of Object.entries(s.evaluators))
    evaluators[id] = { ...e, usage: usage(e.usage, cached) };
  return { ...s, evaluators, usage: usage(s.usage, cached) };
}

/**
 * What must not depend on how the run was made. Left out: timings (`durationMs`, `startedAt`,
 * the model usage's `latencyMs`), the config path and git info; `shard`, per-case `index`,
 * `testset.tagFilter` and the `plan`, which shard and partial artifacts carry for merging and
 * resuming (artifact.md: a merged artifact has neither `shard` nor `index`, and `tagFilter` only
 * with `--tag`); evaluation `metadata` (with trials it names one failing trial, `fromTrial`, an
 * explanation rather than a result) and the comparison's `base`/`head` descriptions (start
 * times, paths, shard counts of the pieces). Errors are kept as text: a thrown message, a
 * command's exit and stderr, an http status must not vary either. `cached`: see `usage`.
 */
export function essence(artifact: ResultsArtifact, cached: boolean | 'stopped' = false): unknown {
  const evaluation = (e: Evaluation) => ({
    evaluator: e.evaluator,
    score: e.score,
    passed: e.passed,
    threshold: e.threshold,
    error: cause(e.error),
  });
  const comparison = artifact.comparison;
  return {
    interrupted: artifact.interrupted,
    verdict: artifact.verdict,
    configHash: artifact.configHash,
    runs: artifact.runs.map((run) => ({
      suite: run.suite,
      params: run.params,
      verdict: run.verdict,
      testset: { cases: run.testset.cases, revision: run.testset.revision },
      gate: run.gate.conditions.map(({ name, passed, actual, expected }) => ({
        ...{ name, passed, actual, expected },
      })),
      summary: summary(run.summary, cached),
      cases: run.cases.map((c) => ({
        ...{ id: c.id, contentId: c.contentId, passed: c.passed, output: c.output },
        error: cause(c.error),
        evaluations: c.evaluations.map(evaluation),
        trialPassRate: c.trialPassRate,
        flaky: c.flaky,
        trials: c.trials?.map((t) => ({
          ...{ passed: t.passed, output: t.output, error: cause(t.error) },
          evaluations: t.evaluations.map(evaluation),
        })),
      })),
    })),
    comparison: comparison && {
      ...{ counts: comparison.counts, family: comparison.family },
      ...{ hasRegression: comparison.hasRegression },
      ...{ onlyInBase: comparison.onlyInBase, onlyInHead: comparison.onlyInHead },
      runs: comparison.runs.map((c) => ({
        ...{ suite: c.suite, params: c.params, trials: c.trials, passRate: c.passRate },
        ...{ evaluators: c.evaluators, incomplete: c.incomplete },
        cases: Object.fromEntries(
          Object.entries(c.cases).map(([k, refs]) => [
            k,
            (refs as { id: string }[]).map((ref) => ref.id),
          ]),
        ),
      })),
    },
  };
}

/**
 * An error as its cause: a call not made because its host was given up on (`stopAfterErrors`)
 * says so before the cause it repeats, and which calls those are depends on the way.
 */
function cause<T extends string | null | undefined>(error: T): T {
  return (error?.replace(
    /not called: \d+ calls in a row to .+? failed the same way, so the rest were stopped: /g,
    '',
  ) ?? error) as T;
}

/**
 * Every way ended as the first (the whole run) did: exit code and every result `essence` keeps.
 * `compared`: the whole run must carry a comparison with its baseline. `cached`: its model calls
 * went through an on-disk cache the ways share, or `stopped`: a host refused them all (see
 * `usage`).
 */
export function agree(found: Way[], compared: boolean, cached: boolean | 'stopped' = false): void {
  const [whole, ...others] = found;
  assert.ok(whole);
  assert.equal(whole.artifact.interrupted, false);
  if (compared) assert.ok(whole.artifact.comparison, 'the whole run is compared');
  const expected = essence(whole.artifact, cached);
  for (const other of others) {
    assert.equal(other.code, whole.code, `${other.name}: exit code`);
    assert.deepEqual(essence(other.artifact, cached), expected, `${other.name} against whole`);
  }
}
