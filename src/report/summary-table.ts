/**
 * The summary printed on the terminal at the end of `evals run`: per run a header, a counts
 * table, an evaluator table, the gate conditions that failed, the first failing cases and (with
 * trials) the first flaky ones that passed; then one verdict line. Pure: data in, string out.
 */
import type { CaseResult, RunResult } from '../types/index.ts';
import { painter, type Painter } from './ansi.ts';
import { addUsage } from '../judge/usage.ts';
import { renderTable, truncateToWidth, type TableColumn, printable } from '../shared/text-table.ts';
import {
  describeCaseFailure,
  describeUsage,
  flakyLabel,
  formatCount,
  formatParams,
  formatPercent,
  plural,
  shortId,
} from './labels.ts';
import { runTotals } from './totals.ts';

/** How `renderSummary` lays out its text. */
export interface SummaryOptions {
  /** Emit ANSI colors (green PASS, red FAIL). The caller decides from the stream and NO_COLOR. */
  color: boolean;
  /** Terminal columns; failing-case lines are cut to fit. Defaults to 100. */
  width?: number;
  /** The run was cut short: the overall verdict is FAIL whatever the runs say. */
  interrupted?: boolean;
  /**
   * The cases to list per run (same index as `runs`), for runs whose cases were not kept in
   * memory; absent: taken from each run's `cases`.
   */
  listings?: readonly (CaseListing | undefined)[];
}

/** The cases a run's table lists: the first few of each kind, and how many there are in all. */
export interface CaseListing {
  /** Cases that failed or errored, in testset order; at most `MAX_LISTED_CASES`. */
  notPassed: CaseResult[];
  notPassedCount: number;
  /** Cases that passed by majority but are flaky; at most `MAX_LISTED_CASES`. */
  flakyPassed: CaseResult[];
  flakyPassedCount: number;
}

/** The listing of a run that holds its cases. */
export function listingOf(cases: readonly CaseResult[]): CaseListing {
  const notPassed = cases.filter((result) => !result.passed);
  const flakyPassed = cases.filter((result) => result.passed && result.flaky === true);
  return {
    notPassed: notPassed.slice(0, MAX_LISTED_CASES),
    notPassedCount: notPassed.length,
    flakyPassed: flakyPassed.slice(0, MAX_LISTED_CASES),
    flakyPassedCount: flakyPassed.length,
  };
}

/** How many failing or errored cases are listed per run; the rest are counted. */
export const MAX_LISTED_CASES = 5;

const DEFAULT_WIDTH = 100;
const INDENT = '  ';
/** A table column of numbers: right-aligned, so digits line up. */
const NUMBER: TableColumn = { align: 'right' };

/** Renders the end-of-run summary. Ends with a newline. */
export function renderSummary(runs: readonly RunResult[], options: SummaryOptions): string {
  const paint = painter(options.color);
  const width = Math.max(40, options.width ?? DEFAULT_WIDTH);
  const blocks = runs.map((run, index) =>
    renderRun(run, options.listings?.[index] ?? listingOf(run.cases), paint, width),
  );
  // With several runs calling models, their sum is what the user pays; one run already shows it.
  const usages = runs.flatMap((run) => (run.summary.usage ? [run.summary.usage] : []));
  const [first, ...rest] = usages;
  if (first !== undefined && rest.length > 0) {
    blocks.push(`all runs: ${describeUsage(rest.reduce(addUsage, first))}`);
  }
  blocks.push(renderVerdictLine(runs, options.interrupted ?? false, paint));
  return `${blocks.join('\n\n')}\n`;
}

function renderRun(run: RunResult, listing: CaseListing, paint: Painter, width: number): string {
  const lines: string[] = [];
  const params = formatParams(run.params, ' ');
  lines.push(
    [
      paint.bold(printable(run.suite)),
      params ? printable(params) : null,
      verdictWord(run.verdict, paint),
    ]
      .filter((part) => part !== null)
      .join('  '),
  );

  const { summary } = run;
  // The flaky column only exists for runs with trials, so single-trial output is unchanged.
  const flaky = summary.flaky === undefined ? [] : [formatCount(summary.flaky)];
  lines.push(
    ...renderTable(
      [
        ['cases', 'passed', 'failed', 'errored', 'pass rate', ...(flaky.length ? ['flaky'] : [])],
        [
          formatCount(summary.cases),
          formatCount(summary.passed),
          formatCount(summary.failed),
          formatCount(summary.errored),
          formatPercent(summary.passRate),
          ...flaky,
        ],
      ],
      { indent: INDENT, columns: [NUMBER, NUMBER, NUMBER, NUMBER, NUMBER, NUMBER] },
    ),
  );

  const evaluators = Object.entries(summary.evaluators);
  if (evaluators.length > 0) {
    lines.push('');
    lines.push(
      ...renderTable(
        [
          ['evaluator', 'mean', 'pass rate', 'passed', 'failed', 'errors'],
          ...evaluators.map(([id, stats]) => [
            printable(id),
            stats.mean === null ? '—' : stats.mean.toFixed(3),
            stats.passRate === null ? '—' : formatPercent(stats.passRate),
            formatCount(stats.passed),
            formatCount(stats.failed),
            formatCount(stats.errors),
          ]),
        ],
        { indent: INDENT, columns: [{}, NUMBER, NUMBER, NUMBER, NUMBER, NUMBER] },
      ),
    );
  }

  if (summary.usage !== undefined) lines.push('', `${INDENT}${describeUsage(summary.usage)}`);

  const failedConditions = run.gate.conditions.filter((condition) => !condition.passed);
  if (failedConditions.length > 0) {
    lines.push('');
    for (const condition of failedConditions) {
      const text = `${printable(condition.name)}: expected ${printable(condition.expected)}, got ${printable(condition.actual)}`;
      lines.push(`${INDENT}${paint.red('✗')} ${text}`);
    }
  }

  const { notPassed, notPassedCount, flakyPassed, flakyPassedCount } = listing;
  if (notPassedCount > 0) {
    lines.push('');
    lines.push(
      notPassedCount > notPassed.length
        ? `${INDENT}${formatCount(notPassedCount)} cases did not pass, first ${notPassed.length}:`
        : `${INDENT}cases that did not pass:`,
    );
    for (const result of notPassed) lines.push(renderCaseLine(result, paint, width));
  }

  // Flaky cases that failed are in the list above (tagged); the ones that passed by majority
  // would otherwise go unseen.
  if (flakyPassedCount > 0) {
    lines.push('');
    lines.push(
      flakyPassedCount > flakyPassed.length
        ? `${INDENT}${formatCount(flakyPassedCount)} cases passed but are flaky, first ${flakyPassed.length}:`
        : `${INDENT}cases that passed but are flaky:`,
    );
    for (const result of flakyPassed) lines.push(renderCaseLine(result, paint, width));
  }
  return lines.join('\n');
}

/** `✗ id  source  reasons`, `! …` for an errored case, `~ id  source  flaky 2/3` for a flaky pass. */
function renderCaseLine(result: CaseResult, paint: Painter, width: number): string {
  const errored = result.error !== null;
  const mark = result.passed ? paint.yellow('~') : errored ? paint.yellow('!') : paint.red('✗');
  const source = result.source ? `${result.source.file}:${result.source.line}` : '(inline)';
  const flaky = flakyLabel(result);
  const reasons = describeCaseFailure(result).join('; ');
  const detail = [flaky, reasons].filter((part) => part !== null && part !== '').join('  ');
  const text = `${printable(shortId(result.id))}  ${printable(source)}  ${printable(detail)}`;
  // The mark and its indent take 6 visible columns; the text is cut, never the mark.
  return `${INDENT}${INDENT}${mark} ${truncateToWidth(text, width - 6)}`;
}

function renderVerdictLine(
  runs: readonly RunResult[],
  interrupted: boolean,
  paint: Painter,
): string {
  if (runs.length === 0) {
    return `${verdictWord(interrupted ? 'fail' : 'pass', paint)}  no runs${interrupted ? ' (interrupted)' : ''}`;
  }
  const total = runTotals(runs);
  const verdict = !interrupted && total.failedRuns === 0 ? 'pass' : 'fail';
  const runText =
    total.failedRuns === 0
      ? `${plural(total.runs, 'run')} passed`
      : `${formatCount(total.failedRuns)} of ${plural(total.runs, 'run')} failed`;
  const parts = [
    verdictWord(verdict, paint),
    interrupted ? 'interrupted' : null,
    `${runText} · ${plural(total.cases, 'case')}: ${formatCount(total.passed)} passed, ${formatCount(total.failed)} failed, ${formatCount(total.errored)} errored`,
  ];
  return parts.filter((part) => part !== null).join('  ');
}

function verdictWord(verdict: 'pass' | 'fail', paint: Painter): string {
  return verdict === 'pass' ? paint.bold(paint.green('PASS')) : paint.bold(paint.red('FAIL'));
}
