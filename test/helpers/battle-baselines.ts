/**
 * For the tests of a battle recording its first baselines: the evals.yaml of one suite `s`
 * whose battle `vs` keeps its baselines in battles/s/vs.json and is judged by the loopback
 * OpenAI-compatible server, and what the run's results artifact says of it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The baselines file of battle `vs` in suite `s`, relative to the project. */
export const BASELINES_FILE = join('battles', 's', 'vs.json');

/** What `judged` says of a run that recorded the first baselines of 2 cases and judged nothing. */
export const RECORDED_NOTE =
  'baselines recorded for 2 cases; nothing judged yet (the next run judges against them)';

/**
 * evals.yaml for suite `s` of testset `testset`, judged by model judge-mini at `url`: the
 * `evaluators` (one list item a line), then `suite` lines under the suite (its gate).
 */
export function battleConfig(
  url: string,
  testset: string,
  evaluators: string[],
  suite: string[] = [],
): string {
  return [
    'version: 1',
    'defaults:',
    `  judge: { model: judge-mini, baseUrl: ${url}, apiKey: test-key }`,
    'suites:',
    '  - id: s',
    `    testset: { path: ${testset} }`,
    '    evaluators:',
    ...evaluators.map((line) => `      ${line}`),
    ...suite.map((line) => `    ${line}`),
    '',
  ].join('\n');
}

/** An evaluation of a case, as the artifact records it. */
export interface BattleEvaluation {
  evaluator: string;
  score: number | null;
  passed: boolean | null;
  error: string | null;
}

/** The parts of a run's record these tests read. */
export interface BattleRun {
  verdict: string;
  gate: { conditions: { name: string; actual: string; passed: boolean }[] };
  summary: { baselinesRecorded?: number; evaluators: Record<string, { count: number }> };
  cases: { passed: boolean; recordedBaseline?: string[]; evaluations: BattleEvaluation[] }[];
}

/** The first run of the results artifact `file` in `dir`. */
export function runOf(dir: string, file = 'out.json'): BattleRun {
  const artifact = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { runs: BattleRun[] };
  return artifact.runs[0]!;
}

/** The gate's `judged` condition of `run`, or undefined when it has none. */
export function judged(run: BattleRun): { actual: string; passed: boolean } | undefined {
  const condition = run.gate.conditions.find((c) => c.name === 'judged');
  return condition && { actual: condition.actual, passed: condition.passed };
}
