/**
 * The top of the markdown report, what a reviewer reads in five seconds: one sentence with the
 * verdict and why, then one compact table: without a comparison, each grid point's pass rate and
 * evaluator means (`runTable`); with one, the statistical comparison's table, `comparisonTable`
 * in `comparison-markdown.ts`.
 */
import type { Comparison, RowTest } from '../types/comparison.ts';
import type { EvaluatorSummary, Params, RunResult } from '../types/index.ts';
import { clipText } from './failure-details.ts';
import {
  describeRun,
  formatCount,
  formatMean,
  formatParams,
  formatPercent,
  plural,
} from './labels.ts';
import { escapeMarkdownText, tableRow } from './markdown-text.ts';
import { runTotals } from './totals.ts';

/** Grid points listed in the run table; the rest are in the sections below. */
const RUN_TABLE_ROWS = 20;
/** Evaluator columns of the run table; the others are in the sections below. */
const RUN_TABLE_EVALUATORS = 6;
const POINT_MAX_CHARS = 80;

/**
 * `❌ Blocked: 2 evaluators regressed on 1 of 4 grid points; 13 of 40 cases fail.` or
 * `✅ Passed: no significant change against the baseline; all 40 cases pass.` Plain markdown
 * (only counts, fixed words and escaped evaluator-free text), one line.
 */
export function verdictSentence(
  runs: readonly RunResult[],
  verdict: 'pass' | 'fail',
  interrupted: boolean,
  comparison: Comparison | null,
  missingSuites = 0,
): string {
  const total = runTotals(runs);
  const unit = gridUnit(runs);
  const clauses: string[] = [];
  if (interrupted) clauses.push('the run was interrupted before every case finished');
  if (missingSuites > 0) {
    clauses.push(
      `${plural(missingSuites, 'suite')} of the baseline ${missingSuites === 1 ? 'is' : 'are'} gone from the config`,
    );
  }
  if (comparison !== null) clauses.push(regressionClause(comparison, unit));
  if (total.failedRuns > 0) {
    clauses.push(
      total.runs === 1
        ? 'the gate failed'
        : `the gate failed on ${formatCount(total.failedRuns)} of ${plural(total.runs, unit)}`,
    );
  }
  const failing = total.failed + total.errored;
  const errored = total.errored > 0 ? ` (${formatCount(total.errored)} errored)` : '';
  clauses.push(
    total.cases === 0
      ? 'no case ran'
      : failing === 0
        ? `${total.cases === 1 ? 'the' : 'all'} ${plural(total.cases, 'case')} pass${total.cases === 1 ? 'es' : ''}`
        : `${formatCount(failing)} of ${plural(total.cases, 'case')} fail${failing === 1 ? 's' : ''}${errored}`,
  );
  const lead = interrupted ? '⚠️ Interrupted' : verdict === 'pass' ? '✅ Passed' : '❌ Blocked';
  return `**${lead}**: ${clauses.join('; ')}.`;
}

/**
 * `the pass rate and 2 evaluators regressed on 1 of 4 grid points` (a judge's κ row as `the
 * agreement κ of 1 judge`), or why nothing did: rows whose change is significant after the
 * correction over every row, as the gate counts them.
 */
function regressionClause(comparison: Comparison, unit: string): string {
  const evaluators = new Set<string>();
  // A judge's κ row is about its agreement with people, not its scores: named apart.
  const judges = new Set<string>();
  let passRate = false;
  let points = 0;
  let improved = 0;
  for (const run of comparison.runs) {
    let regressed = false;
    const rows: [RowTest, Set<string> | null, string][] = [
      [run.passRate, null, ''],
      ...run.evaluators.map((row): [RowTest, Set<string>, string] => [
        row,
        evaluators,
        row.evaluator,
      ]),
      ...run.agreement.map((row): [RowTest, Set<string>, string] => [row, judges, row.evaluator]),
    ];
    for (const [row, names, name] of rows) {
      // What the gate acts on: a row's own test surviving the correction over the whole family.
      if (!row.significant) continue;
      if (row.label === 'improved') improved++;
      if (row.label !== 'regressed') continue;
      regressed = true;
      if (names === null) passRate = true;
      else names.add(name);
    }
    if (regressed) points++;
  }
  const compared = comparison.runs.length;
  if (points === 0) {
    if (improved > 0)
      return `${plural(improved, 'row')} improved, none regressed against the baseline`;
    // A row with too few paired cases has no verdict: "no significant change" would be one.
    const { tooFewCases, improved: up, regressed: down, unchanged } = comparison.counts;
    if (tooFewCases > 0 && up + down + unchanged === 0) {
      return 'too few cases to test a change against the baseline';
    }
    const untested =
      tooFewCases > 0 ? ` (${plural(tooFewCases, 'row')} with too few cases to test)` : '';
    return `no significant change against the baseline${untested}`;
  }
  const parts = [
    ...(passRate ? ['the pass rate'] : []),
    ...(evaluators.size > 0 ? [plural(evaluators.size, 'evaluator')] : []),
    ...(judges.size > 0 ? [`the agreement κ of ${plural(judges.size, 'judge')}`] : []),
  ];
  const what =
    parts.length <= 2
      ? parts.join(' and ')
      : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
  const where = compared === 1 ? '' : ` on ${formatCount(points)} of ${plural(compared, unit)}`;
  return `${what} regressed${where}`;
}

/** `grid point` when every run is one suite's, else `run` (suite × grid point). */
function gridUnit(runs: readonly { suite: string }[]): string {
  return new Set(runs.map((run) => run.suite)).size <= 1 ? 'grid point' : 'run';
}

/**
 * How a grid point is named in a table: its params (`model=small temperature=0`) when every run
 * is one suite's, else the suite and params; escaped and clipped.
 */
export function pointName(
  run: { suite: string; params: Params },
  runs: readonly { suite: string }[],
): string {
  const params = formatParams(run.params, ' ');
  const text = gridUnit(runs) === 'grid point' && params !== '' ? params : describeRun(run);
  return escapeMarkdownText(clipText(text, POINT_MAX_CHARS));
}

/**
 * Without a comparison: one row per grid point (failing ones first when they do not all fit), its
 * pass rate and each evaluator's mean and pass rate.
 */
export function runTable(runs: readonly RunResult[]): string {
  if (runs.length === 0) return '';
  const ids: string[] = [];
  for (const run of runs) {
    for (const id of Object.keys(run.summary.evaluators)) if (!ids.includes(id)) ids.push(id);
  }
  const columns = ids.slice(0, RUN_TABLE_EVALUATORS);
  const shown =
    runs.length <= RUN_TABLE_ROWS
      ? runs
      : [...runs.filter((r) => r.verdict === 'fail'), ...runs.filter((r) => r.verdict !== 'fail')]
          .slice(0, RUN_TABLE_ROWS)
          .sort((a, b) => runs.indexOf(a) - runs.indexOf(b));
  const lines = [
    tableRow(['grid point', 'cases', 'pass rate', ...columns.map(escapeMarkdownText)]),
    tableRow(['', '', '', ...columns].map((_, i) => (i < 1 ? ':--' : '--:'))),
    ...shown.map((run) =>
      tableRow([
        `${run.verdict === 'pass' ? '✅' : '❌'} ${pointName(run, runs)}`,
        formatCount(run.summary.cases),
        formatPercent(run.summary.passRate),
        ...columns.map((id) => evaluatorCell(run.summary.evaluators[id])),
      ]),
    ),
  ];
  const notes = [
    runs.length > shown.length ? `${plural(runs.length - shown.length, 'more grid point')}` : '',
    ids.length > columns.length ? `${plural(ids.length - columns.length, 'more evaluator')}` : '',
  ].filter(Boolean);
  if (notes.length > 0) lines.push('', `_${notes.join(' and ')} in the sections below._`);
  return lines.join('\n');
}

/** `0.400 · 40.0%` (mean · pass rate), `0.800` without a threshold, `—` when not run. */
function evaluatorCell(stats: EvaluatorSummary | undefined): string {
  if (stats === undefined) return '—';
  const mean = stats.mean === null ? '—' : formatMean(stats.mean);
  return stats.passRate === null ? mean : `${mean} · ${formatPercent(stats.passRate)}`;
}
