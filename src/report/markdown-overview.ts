/**
 * The top of the markdown report, what a reviewer reads in five seconds: one sentence with the
 * verdict and why, then one compact table (without a baseline, each grid point's pass rate and
 * evaluator means; against a plain baseline file, base → head per grid point and row). The
 * statistical comparison's table is `comparisonTable` in `comparison-markdown.ts`.
 */
import type { Comparison } from '../types/comparison.ts';
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
/** Rows of the baseline table before the unchanged ones are folded. */
const BASELINE_TABLE_ROWS = 15;
const POINT_MAX_CHARS = 80;

/** How the verdict sentence explains a fail against a baseline. */
export type BaselineChanges =
  | { kind: 'statistics'; comparison: Comparison }
  | { kind: 'plain'; newlyFailing: number; fixed: number }
  | null;

/**
 * `❌ Blocked: 2 evaluators regressed on 1 of 4 grid points; 13 of 40 cases fail.` or
 * `✅ Passed: no significant change against the baseline; all 40 cases pass.` Plain markdown
 * (only counts, fixed words and escaped evaluator-free text), one line.
 */
export function verdictSentence(
  runs: readonly RunResult[],
  verdict: 'pass' | 'fail',
  interrupted: boolean,
  changes: BaselineChanges,
): string {
  const total = runTotals(runs);
  const unit = gridUnit(runs);
  const clauses: string[] = [];
  if (interrupted) clauses.push('the run was interrupted before every case finished');
  if (changes?.kind === 'statistics') clauses.push(regressionClause(changes.comparison, unit));
  if (changes?.kind === 'plain') {
    clauses.push(
      changes.newlyFailing > 0
        ? `${plural(changes.newlyFailing, 'case')} newly failing against the baseline`
        : 'no case newly failing against the baseline',
    );
  }
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
 * `2 evaluators and the pass rate regressed on 1 of 4 grid points`, or why nothing did: rows
 * whose change is significant after the correction over every row, as the gate counts them.
 */
function regressionClause(comparison: Comparison, unit: string): string {
  const evaluators = new Set<string>();
  let passRate = false;
  let points = 0;
  let improved = 0;
  for (const run of comparison.runs) {
    let regressed = false;
    for (const row of [run.passRate, ...run.evaluators, ...run.agreement]) {
      // What the gate acts on: a row's own test surviving the correction over the whole family.
      if (!row.significant) continue;
      if (row.label === 'improved') improved++;
      if (row.label !== 'regressed') continue;
      regressed = true;
      if ('evaluator' in row) evaluators.add(row.evaluator);
      else passRate = true;
    }
    if (regressed) points++;
  }
  const compared = comparison.runs.length;
  if (points === 0) {
    return improved > 0
      ? `${plural(improved, 'row')} improved, none regressed against the baseline`
      : 'no significant change against the baseline';
  }
  const what = [
    ...(passRate ? ['the pass rate'] : []),
    ...(evaluators.size > 0 ? [plural(evaluators.size, 'evaluator')] : []),
  ].join(' and ');
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
 * Without a baseline: one row per grid point (failing ones first when they do not all fit), its
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

/**
 * Against a plain baseline file (no statistics): one row per grid point × (pass rate and each
 * evaluator's mean), base → head and the change, unchanged rows folded when the table is long.
 * Grid points the baseline does not have are left out (the sections below say "new run").
 */
export function baselineTable(
  pairs: readonly { run: RunResult; before: RunResult }[],
  runs: readonly RunResult[],
): string {
  const rows: { cells: string[]; moved: boolean }[] = [];
  for (const { run, before } of pairs) {
    const point = pointName(run, runs);
    rows.push(
      changeRow(point, '**pass rate**', before.summary.passRate, run.summary.passRate, 'rate'),
    );
    for (const [id, stats] of Object.entries(run.summary.evaluators)) {
      const previous = before.summary.evaluators[id];
      if (previous === undefined) continue;
      // `up` is bad news for an evaluator whose lower scores are better: the name says which.
      const name = `${escapeMarkdownText(id)}${stats.lowerIsBetter === true ? ' (lower is better)' : ''}`;
      rows.push(changeRow(point, name, previous.mean, stats.mean, 'mean'));
    }
  }
  if (rows.length === 0) return '';
  const folded = rows.length > BASELINE_TABLE_ROWS ? rows.filter((row) => !row.moved) : [];
  const shown = rows.length > BASELINE_TABLE_ROWS ? rows.filter((row) => row.moved) : rows;
  const lines =
    shown.length === 0
      ? []
      : [
          tableRow(['grid point', 'row', 'base → head', 'Δ', 'change']),
          tableRow([':--', ':--', '--:', '--:', ':--']),
          ...shown.map((row) => tableRow(row.cells)),
          '',
        ];
  if (folded.length > 0) lines.push(`_${plural(folded.length, 'unchanged row')} folded._`, '');
  lines.push('_Against a baseline file: differences only, without a statistical test._');
  return lines.join('\n');
}

function changeRow(
  point: string,
  name: string,
  base: number | null,
  head: number | null,
  kind: 'rate' | 'mean',
): { cells: string[]; moved: boolean } {
  const format = kind === 'rate' ? formatPercent : formatMean;
  const show = (value: number | null): string => (value === null ? '—' : format(value));
  if (base === null || head === null) {
    return {
      cells: [point, name, `${show(base)} → ${show(head)}`, '—', '—'],
      moved: base !== head,
    };
  }
  const delta = kind === 'rate' ? (head - base) * 100 : head - base;
  const digits = kind === 'rate' ? 1 : 3;
  const text = Math.abs(delta).toFixed(digits);
  const zero = Number(text) === 0;
  const deltaText = `${zero ? '±' : delta > 0 ? '+' : '-'}${text}${kind === 'rate' ? ' pp' : ''}`;
  const change = zero ? 'same' : delta > 0 ? 'up' : 'down';
  return { cells: [point, name, `${show(base)} → ${show(head)}`, deltaText, change], moved: !zero };
}
