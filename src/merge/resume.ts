/**
 * `evals run --resume PARTIAL.json`, the core: which cases still need to run, and how the
 * interrupted artifact's cases and the new ones combine into the artifact an uninterrupted run
 * would have written (through the same `combineRun` as `evals merge`). The partial's cases are
 * read one at a time (they may be hundreds of thousands): what is held is one bit per planned
 * case (done or not) and the prepared suites' own ids.
 */
import { hash } from 'node:crypto';
import { runKey } from '../compare/run-key.ts';
import type { CaseSink, SuiteSpec } from '../run/types.ts';
import type { CaseResult, ResultsArtifact, RunResult } from '../types.ts';
import { combineRun, describeRun, type Checked, type NamedArtifact } from './merge.ts';

/** Why `partial` cannot be resumed by a run of the config with hash `configHash`; [] if it can. */
export function checkPartial(partial: ResultsArtifact, name: string, configHash: string): string[] {
  if (!partial.interrupted) {
    return [
      `nothing to resume: ${name} is a complete run (interrupted: false); run evals run without --resume to run it again`,
    ];
  }
  const problems: string[] = [];
  if (partial.configHash !== configHash) {
    problems.push(
      `${name} was written by another version of the config (configHash ${partial.configHash}, now ${configHash}); resuming needs the config the interrupted run used`,
    );
  }
  const unplanned = partial.runs.filter((r) => r.plan === undefined);
  if (unplanned.length > 0) {
    problems.push(
      `${name} has no run plan for ${unplanned.map(describeRun).join(', ')} (written by an older evalgate); run it again with this version`,
    );
  }
  return problems;
}

/** Rank maps by the suites they index: planning and combining share one (200k ids is ~10 MB). */
const rankCache = new WeakMap<readonly SuiteSpec[], Map<string, Map<string, number>>>();

/** Each suite's case ids mapped to their place in its prepared `cases` (testset order). */
function ranksOf(suites: readonly SuiteSpec[]): Map<string, Map<string, number>> {
  let ranks = rankCache.get(suites);
  if (ranks === undefined) {
    ranks = new Map();
    for (const spec of suites) {
      if (!ranks.has(spec.id)) {
        ranks.set(spec.id, new Map(spec.cases.map((c, i) => [c.id, i])));
      }
    }
    rankCache.set(suites, ranks);
  }
  return ranks;
}

/**
 * The suites to run to finish `partial`: its runs only (suite and grid point), each with the
 * cases it has no result for, with the trials it ran with. Suites come from prepare (the same
 * config, shard and tag filters), and must plan the same cases on the same testset revision.
 *
 * The engine shares a suite's cases across its grid points, but an interrupt may leave grid
 * points at different places, so a suite is split into one spec per distinct set of remaining
 * cases (usually one or two). The suite's `concurrency` is divided among those specs so the
 * resumed run stays within it (at least one each).
 */
export function planResume(
  suites: readonly SuiteSpec[],
  partial: NamedArtifact,
  options: { trials?: number } = {},
): Checked<SuiteSpec[]> {
  const name = partial.name;
  const problems: string[] = [];
  const wanted = new Map(partial.artifact.runs.map((run, r) => [runKey(run), r]));
  const found = new Set<string>();
  const planned: SuiteSpec[] = [];
  const ranks = ranksOf(suites);

  for (const spec of suites) {
    const groups = new Map<string, { grid: SuiteSpec['grid']; cases: SuiteSpec['cases'] }>();
    let trials = spec.trials ?? 1;
    for (const params of spec.grid) {
      const key = runKey({ suite: spec.id, params });
      const r = wanted.get(key);
      const run = r === undefined ? undefined : partial.artifact.runs[r];
      if (r === undefined || run === undefined) continue;
      found.add(key);
      const what = describeRun(run);
      if (run.testset.revision !== spec.testset.revision) {
        problems.push(
          `${what}: the testset changed since ${name} was written (revision ${run.testset.revision}, now ${spec.testset.revision}); resuming needs the same testset`,
        );
        continue;
      }
      if (run.testset.cases !== spec.cases.length) {
        problems.push(
          `${what}: ${name} planned ${run.testset.cases} cases, this run plans ${spec.cases.length}; pass the same --tag filters as the interrupted run`,
        );
        continue;
      }
      const planTrials = run.plan?.trials ?? trials;
      if (options.trials !== undefined && options.trials !== planTrials) {
        problems.push(
          `${what}: ${name} ran ${planTrials} trial(s) per case; --trials ${options.trials} would mix results (leave --trials out to resume with ${planTrials})`,
        );
        continue;
      }
      const rank = ranks.get(spec.id)!;
      const done = new Uint8Array(spec.cases.length);
      let stray = 0;
      let strayId = '';
      for (const testCase of partial.cases(r)) {
        const at = rank.get(testCase.id);
        if (at === undefined) {
          if (stray++ === 0) strayId = testCase.id;
        } else done[at] = 1;
      }
      if (stray > 0) {
        problems.push(
          `${what}: ${name} holds ${stray} case(s) this run does not plan (e.g. ${strayId}); pass the same --tag filters as the interrupted run`,
        );
        continue;
      }
      trials = planTrials;
      if (done.every((d) => d === 1)) continue;
      // Grid points left at the same place share a spec: the same done-set is the same cases.
      const signature = hash('sha256', done, 'hex');
      let group = groups.get(signature);
      if (group === undefined) {
        group = { grid: [], cases: spec.cases.filter((_, i) => done[i] === 0) };
        groups.set(signature, group);
      }
      group.grid.push(params);
    }
    const share = Math.max(1, Math.floor(spec.concurrency / Math.max(1, groups.size)));
    for (const group of groups.values()) {
      planned.push({ ...spec, grid: group.grid, cases: group.cases, trials, concurrency: share });
    }
  }

  for (const [key, r] of wanted) {
    if (!found.has(key)) {
      problems.push(
        `${describeRun(partial.artifact.runs[r]!)} of ${name} is not run by this config (pass the same --suite and --grid as the interrupted run)`,
      );
    }
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: planned };
}

/**
 * `partial`'s runs completed with the `fresh` runs of the resumed execution (whose cases
 * `freshCases(i)` reads back), in `partial`'s run order. Every case goes to `out` as
 * `record(run, place, case)`, `place` being its place in its suite's prepared cases (testset
 * order); the runs come back with empty `cases`. `out` is opened with each run's planned size.
 * A run the resumption did not touch (it was complete) is recomputed as is.
 */
export function combineResumed(
  partial: NamedArtifact,
  fresh: readonly RunResult[],
  freshCases: (run: number) => Iterable<CaseResult>,
  suites: readonly SuiteSpec[],
  out: CaseSink,
): Checked<RunResult[]> {
  const freshByKey = new Map(fresh.map((run, i) => [runKey(run), i]));
  const ranks = ranksOf(suites);
  const problems: string[] = [];
  const runs: RunResult[] = [];
  out.open(partial.artifact.runs.map((run) => ({ cases: run.testset.cases })));
  for (const [r, run] of partial.artifact.runs.entries()) {
    const more = freshByKey.get(runKey(run));
    const rank = ranks.get(run.suite) ?? new Map<string, number>();
    const combined = combineRun(
      [
        { from: partial.name, run, cases: partial.cases(r) },
        ...(more !== undefined
          ? [{ from: 'the resumed run', run: fresh[more]!, cases: freshCases(more) }]
          : []),
      ],
      {
        planned: run.testset.cases,
        position: (c) => rank.get(c.id),
        // Cases keep what they hold: a shard's carry their `index` for a later `evals merge`.
        keepIndex: true,
        add: (place, c) => out.record(r, place, c),
      },
    );
    if (combined.ok) runs.push(combined.value);
    else problems.push(...combined.problems);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: runs };
}
