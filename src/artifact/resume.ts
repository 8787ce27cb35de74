/**
 * `evals run --resume PARTIAL.json`, the core: which cases of each run the interrupted artifact
 * already holds. The resumed run plans the same suites as the interrupted one; each run takes
 * the partial's cases over (`RunSpec.resumed`: the engine records them as they were) and runs
 * only the rest, so the artifact, summaries and reports come out as one uninterrupted run's.
 * The partial's cases are read one at a time (they may be hundreds of thousands): what is held
 * is each run's set of finished positions.
 */
import { runKey } from '../shared/run-key.ts';
import type { ResumedCases, RunSpec, SuiteSpec } from '../run/types.ts';
import { usageError } from '../shared/errors.ts';
import type { ResultsArtifact } from '../types/index.ts';
import { describeRun, type Checked, type NamedArtifact } from './merge.ts';

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
 * The suites to run to finish `partial`: its runs only (suite and grid point), in `suites`'
 * order, each taking over the cases it has a result for, with the trials it ran with. Suites
 * come from the same config with the same shard and tag filters, and must plan the same cases
 * on the same testset revision.
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

  for (const spec of suites) {
    const runs: RunSpec[] = [];
    let trials: number | undefined;
    for (const runSpec of spec.runs) {
      const key = runKey({ suite: spec.id, params: runSpec.params });
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
      if (run.testset.cases !== runSpec.cases.length) {
        problems.push(
          `${what}: ${name} planned ${run.testset.cases} cases, this run plans ${runSpec.cases.length}; pass the same --tag filters as the interrupted run`,
        );
        continue;
      }
      const planTrials = run.plan?.trials ?? spec.trials ?? 1;
      if (options.trials !== undefined && options.trials !== planTrials) {
        problems.push(
          `${what}: ${name} ran ${planTrials} trial(s) per case; --trials ${options.trials} would mix results (leave --trials out to resume with ${planTrials})`,
        );
        continue;
      }
      trials = planTrials;
      const resumed = resumedCases(partial, r, runSpec);
      if (!resumed.ok) {
        problems.push(`${what}: ${resumed.problems.join('; ')}`);
        continue;
      }
      runs.push({ ...runSpec, resumed: resumed.value });
    }
    if (runs.length > 0) planned.push({ ...spec, runs, ...(trials ? { trials } : {}) });
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
 * The cases run `r` of `partial` holds, placed among `run`'s planned cases by identity. Read
 * once now for their positions, and once more, as the run starts, for the results themselves.
 */
function resumedCases(partial: NamedArtifact, r: number, run: RunSpec): Checked<ResumedCases> {
  const rank = new Map(run.cases.map((c, i) => [c.id, i]));
  const positions = new Set<number>();
  let stray = 0;
  let strayId = '';
  for (const testCase of partial.cases(r)) {
    const at = rank.get(testCase.id);
    if (at === undefined) {
      if (stray++ === 0) strayId = testCase.id;
    } else if (positions.has(at)) {
      return { ok: false, problems: [`${partial.name} holds case ${testCase.id} twice`] };
    } else positions.add(at);
  }
  if (stray > 0) {
    return {
      ok: false,
      problems: [
        `${partial.name} holds ${stray} case(s) this run does not plan (e.g. ${strayId}); pass the same --tag filters as the interrupted run`,
      ],
    };
  }
  return {
    ok: true,
    value: {
      positions,
      *results() {
        for (const result of partial.cases(r)) {
          const index = rank.get(result.id);
          // The file changed since it was first read: it no longer matches the run.
          if (index === undefined || !positions.has(index)) {
            throw usageError('resume.changed', `${partial.name} changed while it was resumed`);
          }
          yield { index, result };
        }
      },
    },
  };
}
