/**
 * The project shared by the merge and resume tests, and how they read what it writes.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { validateArtifact } from '../../src/artifact/schema.ts';
import type { ResultsArtifact } from '../../src/types/index.ts';

/**
 * A project exercising what a merge must get right: a CSV suite on a two-point grid with a
 * gate (one grid point passes it, the other fails), failing and erroring cases, and an inline
 * suite with trials. The function is deterministic; it can log its calls (CALL_LOG), stop its
 * own run with SIGINT after N calls (STOP_AFTER) and pause per call (PAUSE_MS).
 */
export const FIXTURE: Record<string, string> = {
  'evals.yaml': `version: 1
suites:
  - id: math
    testset: { path: rows.csv }
    function: ./fn.mjs#times
    grid:
      factor: [2, 3]
    evaluators:
      - id: exact
        use: is-equals
        with: { expected: "{{case.expected}}" }
    gate:
      minPassRate: 0.5
      evaluators: { exact: { mean: { gte: 0.4 } } }
  - id: words
    testset:
      cases:
        - { word: alpha }
        - { word: beta }
        - { word: gamma }
        - { word: delta }
        - { word: epsilon }
    function: ./fn.mjs#upper
    trials: 2
    evaluators:
      - id: has
        use: contains
        with: { values: ["A"] }
`,
  // Every 7th row expects a wrong answer; row 13 makes the function throw.
  'rows.csv': `n,expected\n${Array.from({ length: 30 }, (_, i) => {
    const n = i + 1;
    return `${n},${n % 7 === 0 ? n * 2 + 1 : n * 2}`;
  }).join('\n')}\n`,
  'fn.mjs': `import { appendFileSync } from 'node:fs';
let calls = 0;
function log(text) {
  if (process.env.CALL_LOG) appendFileSync(process.env.CALL_LOG, text + '\\n');
  calls += 1;
  if (process.env.STOP_AFTER && calls === Number(process.env.STOP_AFTER)) {
    process.kill(process.pid, 'SIGINT');
  }
}
const pause = () => new Promise((resolve) => setTimeout(resolve, Number(process.env.PAUSE_MS ?? 0)));
export async function times({ testCase, params }) {
  log('math:' + testCase.n + ':' + params.factor);
  await pause();
  if (testCase.n === '13') throw new Error('unlucky');
  return String(Number(testCase.n) * params.factor);
}
export async function upper({ testCase }) {
  log('words:' + testCase.word);
  await pause();
  return testCase.word.toUpperCase();
}
`,
};

/** Total case results of the fixture: 30 rows × 2 grid points + 5 inline cases. */
export const FIXTURE_CASES = 65;

export function readArtifact(path: string): ResultsArtifact {
  const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
  assert.deepEqual(validateArtifact(value), [], `${path} matches schemas/results.schema.json`);
  return value as ResultsArtifact;
}

/** The artifact without what differs between two runs of the same cases: timings. */
export function withoutTimings(artifact: ResultsArtifact): unknown {
  return JSON.parse(
    JSON.stringify(artifact, (key, value: unknown) =>
      key === 'durationMs' || key === 'startedAt' ? undefined : value,
    ),
  );
}

export function caseCount(artifact: ResultsArtifact): number {
  return artifact.runs.reduce((sum, run) => sum + run.cases.length, 0);
}
