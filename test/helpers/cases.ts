/** Prepared cases for engine-level tests: ids `c0`, `c1`, … and a source line per row. */
import { buildArtifact } from '../../src/artifact/artifact.ts';
import type { SuiteSpec } from '../../src/run/types.ts';
import { functionTarget } from '../../src/targets/function.ts';
import { reportedArtifact, type ReportedArtifact } from '../../src/report/reported-cases.ts';
import type {
  Params,
  PreparedCase,
  ResultsArtifact,
  RunResult,
  TestFn,
} from '../../src/types/index.ts';

export function preparedCases(rows: Record<string, unknown>[]): PreparedCase[] {
  return rows.map((data, i) => ({
    id: `c${i}`,
    contentId: `content-${i}`,
    source: { file: 'cases.jsonl', line: i + 1 },
    data,
    meta: {},
    index: i,
  }));
}

/**
 * What engine-level tests change of a suite: any field of it, or, as shorthands, `fn` (a
 * function target), `grid` (one run per point, each over `cases`) and `cases`.
 */
export type SuiteOverrides = Partial<SuiteSpec> & {
  fn?: TestFn;
  grid?: Params[];
  cases?: readonly PreparedCase[];
};

/**
 * A suite for engine-level tests over `rows`: returns each case's data, no evaluators, one grid
 * point, concurrency 4, every case must pass; `overrides` change any of it.
 */
export function suiteSpec(
  rows: Record<string, unknown>[],
  overrides: SuiteOverrides = {},
): SuiteSpec {
  const { fn, grid, cases, ...rest } = overrides;
  const planned = cases ?? preparedCases(rows);
  return {
    id: 'suite',
    target: functionTarget(fn ?? (({ testCase }) => testCase), 'test function'),
    evaluators: [],
    runs: (grid ?? [{}]).map((params) => ({ params, cases: planned })),
    concurrency: 4,
    timeoutMs: null,
    pass: 'all',
    gate: {},
    testset: { path: 'cases.jsonl', ref: null, commit: null, revision: 'rev' },
    ...rest,
  };
}

/** An artifact of `runs` with fixed tool, config and clock fields. */
export function artifactOf(runs: RunResult[], interrupted = false): ResultsArtifact {
  return buildArtifact({
    toolVersion: '0.0.0-test',
    config: 'evals.yaml',
    configHash: 'hash',
    git: null,
    startedAt: new Date(0),
    durationMs: 1,
    interrupted,
    runs,
  });
}

/** `artifact` as the pull-request reports hold it, with every case that did not pass whole. */
export function reported(artifact: ResultsArtifact): ReportedArtifact {
  return reportedArtifact(artifact, (run) => artifact.runs[run]?.cases ?? [], Infinity);
}
