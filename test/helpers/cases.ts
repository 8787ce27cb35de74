/** Prepared cases for engine-level tests: ids `c0`, `c1`, … and a source line per row. */
import { buildArtifact } from '../../src/report/artifact.ts';
import type { SuiteSpec } from '../../src/run/types.ts';
import type { PreparedCase, ResultsArtifact, RunResult } from '../../src/types.ts';

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
 * A suite for engine-level tests over `rows`: returns each case's data, no evaluators, one grid
 * point, concurrency 4, every case must pass; `overrides` change any of it.
 */
export function suiteSpec(
  rows: Record<string, unknown>[],
  overrides: Partial<SuiteSpec> = {},
): SuiteSpec {
  return {
    id: 'suite',
    cases: preparedCases(rows),
    fn: ({ testCase }) => testCase,
    evaluators: [],
    grid: [{}],
    concurrency: 4,
    timeoutMs: null,
    pass: 'all',
    gate: {},
    testset: { path: 'cases.jsonl', ref: null, commit: null, revision: 'rev' },
    ...overrides,
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
