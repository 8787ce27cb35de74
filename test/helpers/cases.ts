/** Prepared cases for engine-level tests: ids `c0`, `c1`, … and a source line per row. */
import { buildArtifact } from '../../src/report/artifact.ts';
import type { PreparedCase, ResultsArtifact, RunResult } from '../../src/types.ts';

export function preparedCases(rows: Record<string, unknown>[]): PreparedCase[] {
  return rows.map((data, i) => ({
    id: `c${i}`,
    contentId: `content-${i}`,
    source: { file: 'cases.jsonl', line: i + 1 },
    data,
    meta: {},
  }));
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
