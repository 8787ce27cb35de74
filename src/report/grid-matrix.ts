/**
 * The overview of a suite that ran over several grid points: one row per grid point, one
 * column per evaluator's mean and one for the pass rate, the best value of each column marked
 * (the lowest mean for an evaluator whose lower scores are better).
 * A model here; the terminal summary, the markdown report and the HTML report each render it.
 */
import type { RunResult } from '../types/index.ts';
import { formatParams } from './labels.ts';

/** One grid point of the matrix. */
export interface MatrixRow {
  /** The run's index in the artifact. */
  run: number;
  /** `model=small style=terse` */
  params: Record<string, string>;
  cases: number;
  passRate: number | null;
  verdict: 'pass' | 'fail';
  /** Per evaluator, in `GridMatrix.evaluators` order: its mean score, null when it has none. */
  means: (number | null)[];
}

/** A suite's grid points side by side. */
export interface GridMatrix {
  suite: string;
  /** The grid's keys, in the order the runs name them. */
  keys: string[];
  evaluators: string[];
  rows: MatrixRow[];
  /** The best pass rate over the rows (the marked cells hold it); null when no row has one. */
  bestPassRate: number | null;
  /**
   * Per evaluator, the best mean: the lowest for an evaluator whose lower scores are better
   * (`lowerIsBetter`), else the highest.
   */
  bestMeans: (number | null)[];
  /**
   * Per evaluator, whether its lower scores are better: every grid point that ran it says so in
   * its summary (`EvaluatorSummary.lowerIsBetter`). Grid points disagree only when a templated
   * threshold turns around with the params; the column is then read as higher-is-better.
   */
  lowerIsBetter: boolean[];
}

/** The matrices of every suite that ran at more than one grid point, in the artifact's order. */
export function gridMatrices(runs: readonly RunResult[]): GridMatrix[] {
  const bySuite = new Map<string, number[]>();
  runs.forEach((run, index) => bySuite.set(run.suite, [...(bySuite.get(run.suite) ?? []), index]));
  const matrices: GridMatrix[] = [];
  for (const [suite, indexes] of bySuite) {
    if (indexes.length < 2) continue;
    const suiteRuns = indexes.map((index) => ({ index, run: runs[index] as RunResult }));
    const keys = [...new Set(suiteRuns.flatMap(({ run }) => Object.keys(run.params)))];
    const evaluators = [
      ...new Set(suiteRuns.flatMap(({ run }) => Object.keys(run.summary.evaluators))),
    ];
    const rows = suiteRuns.map(({ index, run }) => ({
      run: index,
      params: Object.fromEntries(keys.map((key) => [key, paramText(run.params[key])])),
      cases: run.summary.cases,
      passRate: run.summary.cases === 0 ? null : run.summary.passRate,
      verdict: run.verdict,
      means: evaluators.map((id) => run.summary.evaluators[id]?.mean ?? null),
    }));
    const lowerIsBetter = evaluators.map((id) => {
      const summaries = suiteRuns.flatMap(({ run }) => run.summary.evaluators[id] ?? []);
      return summaries.length > 0 && summaries.every((stats) => stats.lowerIsBetter === true);
    });
    matrices.push({
      suite,
      keys,
      evaluators,
      rows,
      bestPassRate: best(rows.map((row) => row.passRate)),
      bestMeans: evaluators.map((_, column) =>
        best(
          rows.map((row) => row.means[column] ?? null),
          lowerIsBetter[column] === true,
        ),
      ),
      lowerIsBetter,
    });
  }
  return matrices;
}

/** The suites whose runs the matrices show: their per-run blocks can then be short. */
export function matrixSuites(matrices: readonly GridMatrix[]): Set<string> {
  return new Set(matrices.map((matrix) => matrix.suite));
}

function paramText(value: unknown): string {
  if (value === undefined) return '';
  return formatParams({ v: value }, '').slice(2);
}

/**
 * The highest value (the lowest when `lowest`); with a single distinct value nothing stands out,
 * so nothing is marked.
 */
function best(values: readonly (number | null)[], lowest = false): number | null {
  const numbers = values.filter((value): value is number => value !== null);
  if (numbers.length === 0) return null;
  const top = lowest ? Math.min(...numbers) : Math.max(...numbers);
  return numbers.every((value) => value === top) ? null : top;
}
