/**
 * `evals run --resume PARTIAL.json`, the pure part: which cases still need to run, and how the
 * interrupted artifact's cases and the new ones combine into the artifact an uninterrupted run
 * would have written (through the same `combineRun` as `evals merge`).
 */
import { runKey } from '../compare/run-key.ts';
import type { SuiteSpec } from '../run/types.ts';
import type { ResultsArtifact, RunResult } from '../types.ts';
import { combineRun, describeRun, type Checked } from './merge.ts';

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
  partial: ResultsArtifact,
  name: string,
  options: { trials?: number } = {},
): Checked<SuiteSpec[]> {
  const problems: string[] = [];
  const wanted = new Map(partial.runs.map((run) => [runKey(run), run]));
  const found = new Set<string>();
  const planned: SuiteSpec[] = [];

  for (const spec of suites) {
    const groups = new Map<string, { grid: SuiteSpec['grid']; cases: SuiteSpec['cases'] }>();
    let trials = spec.trials ?? 1;
    for (const params of spec.grid) {
      const key = runKey({ suite: spec.id, params });
      const run = wanted.get(key);
      if (run === undefined) continue;
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
      const ids = new Set(spec.cases.map((c) => c.id));
      const done = new Set(run.cases.map((c) => c.id));
      const stray = run.cases.filter((c) => !ids.has(c.id));
      if (stray.length > 0) {
        problems.push(
          `${what}: ${name} holds ${stray.length} case(s) this run does not plan (e.g. ${stray[0]?.id}); pass the same --tag filters as the interrupted run`,
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
      trials = planTrials;
      const remaining = spec.cases.filter((c) => !done.has(c.id));
      if (remaining.length === 0) continue;
      // Case ids are unique in a testset, so the joined ids name the remaining set exactly.
      const signature = remaining.map((c) => c.id).join('\n');
      const group = groups.get(signature) ?? { grid: [], cases: remaining };
      group.grid.push(params);
      groups.set(signature, group);
    }
    const share = Math.max(1, Math.floor(spec.concurrency / Math.max(1, groups.size)));
    for (const group of groups.values()) {
      planned.push({ ...spec, grid: group.grid, cases: group.cases, trials, concurrency: share });
    }
  }

  for (const [key, run] of wanted) {
    if (!found.has(key)) {
      problems.push(
        `${describeRun(run)} of ${name} is not run by this config (pass the same --suite and --grid as the interrupted run)`,
      );
    }
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: planned };
}

/**
 * `partial`'s runs completed with the `fresh` runs of the resumed execution, in `partial`'s run
 * order, cases in testset order (by the positions prepare gave `suites`' cases). A run the
 * resumption did not touch (it was complete) is recomputed as is. `keepIndex`: a resumed
 * shard keeps its cases' positions for a later `evals merge`.
 */
export function combineResumed(
  partial: ResultsArtifact,
  name: string,
  fresh: readonly RunResult[],
  suites: readonly SuiteSpec[],
  keepIndex: boolean,
): Checked<RunResult[]> {
  const freshByKey = new Map(fresh.map((run) => [runKey(run), run]));
  const positions = new Map<string, Map<string, number>>();
  for (const spec of suites) {
    positions.set(spec.id, new Map(spec.cases.map((c, i) => [c.id, c.index ?? i])));
  }
  const problems: string[] = [];
  const runs: RunResult[] = [];
  for (const run of partial.runs) {
    const more = freshByKey.get(runKey(run));
    const order = positions.get(run.suite) ?? new Map<string, number>();
    const combined = combineRun(
      [{ from: name, run }, ...(more ? [{ from: 'the resumed run', run: more }] : [])],
      {
        planned: run.testset.cases,
        position: (c) => order.get(c.id) ?? Number.MAX_SAFE_INTEGER,
        keepIndex,
      },
    );
    if (combined.ok) runs.push(combined.value);
    else problems.push(...combined.problems);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: runs };
}
