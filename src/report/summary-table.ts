/**
 * The summary printed on the terminal at the end of `evals run`: per run a header, a counts
 * table, an evaluator table, the gate conditions that failed, the first failing cases and (with
 * trials) the first flaky ones that passed; then one verdict line. Pure: data in, string out.
 */
import type { CaseResult, RunResult } from '../types/index.ts';
import { painter, type Painter } from './ansi.ts';
import { addUsage } from '../judge/usage.ts';
import { renderTable, type TableColumn, printable, textWidth } from '../shared/text-table.ts';
import {
  describeUsage,
  errorGist,
  formatCount,
  formatParams,
  formatMean,
  formatPercent,
  goneSuitesPrefix,
  plural,
} from './labels.ts';
import { renderCaseLines, wrappedReason } from './case-lines.ts';
import {
  ErrorTally,
  countedLine,
  distinctShortIds,
  fitBeside,
  type CountedMessage,
} from './case-text.ts';
import { describeGateCondition, gateConditionLine } from './gate-line.ts';
import { gridMatrices, matrixSuites } from './grid-matrix.ts';
import { renderMatrixText } from './grid-matrix-text.ts';
import { runTotals } from './totals.ts';
import { notOption, shellWord } from '../shared/shell-word.ts';
import { agreementLine, agreementsOf } from './agreement-text.ts';
import { JUDGED_CONDITION } from '../run/gate.ts';

/** How `renderSummary` lays out its text. */
export interface SummaryOptions {
  /** Emit ANSI colors (green PASS, red FAIL). The caller decides from the stream and NO_COLOR. */
  color: boolean;
  /** Terminal columns; failing-case lines are cut to fit. Defaults to 160 (a pipe: a CI log). */
  width?: number;
  /** The run was cut short: the overall verdict is FAIL whatever the runs say. */
  interrupted?: boolean;
  /**
   * The cases to list per run (same index as `runs`), for runs whose cases were not kept in
   * memory; absent: taken from each run's `cases`.
   */
  listings?: readonly (CaseListing | undefined)[];
  /** Suites of the baseline gone from the config that fail the run (`missingSuites`). */
  missingSuites?: readonly { text: string }[];
}

/** The cases a run's table lists: the first few of each kind, and how many there are in all. */
export interface CaseListing {
  /** Cases that failed or errored, in testset order; at most `MAX_LISTED_CASES`. */
  notPassed: CaseResult[];
  notPassedCount: number;
  /** Cases that passed by majority but are flaky; at most `MAX_LISTED_CASES`. */
  flakyPassed: CaseResult[];
  flakyPassedCount: number;
  /** Every error of the run (the function's and the evaluators'), identical ones counted once. */
  errors?: CountedMessage[];
}

/** The listing of a run that holds its cases. */
export function listingOf(cases: readonly CaseResult[]): CaseListing {
  const notPassed = cases.filter((result) => !result.passed);
  const flakyPassed = cases.filter((result) => result.passed && result.flaky === true);
  const errors = new ErrorTally();
  for (const result of cases) errors.addCase(result);
  return {
    notPassed: notPassed.slice(0, MAX_LISTED_CASES),
    notPassedCount: notPassed.length,
    flakyPassed: flakyPassed.slice(0, MAX_LISTED_CASES),
    flakyPassedCount: flakyPassed.length,
    errors: errors.counted(),
  };
}

/** How many failing or errored cases are listed per run; the rest are counted. */
export const MAX_LISTED_CASES = 5;

const DEFAULT_WIDTH = 160;
const INDENT = '  ';
/** A table column of numbers: right-aligned, so digits line up. */
const NUMBER: TableColumn = { align: 'right' };

/** Renders the end-of-run summary. Ends with a newline. */
export function renderSummary(runs: readonly RunResult[], options: SummaryOptions): string {
  const paint = painter(options.color);
  const width = Math.max(40, options.width ?? DEFAULT_WIDTH);
  // A suite over several grid points gets one matrix, before its first run; its runs' own
  // blocks then leave out the tables the matrix holds.
  const matrices = gridMatrices(runs);
  const inMatrix = matrixSuites(matrices);
  const blocks: string[] = [];
  runs.forEach((run, index) => {
    const matrix = matrices.find((m) => m.rows[0]?.run === index);
    if (matrix !== undefined)
      blocks.push(renderMatrixText(matrix, paint, INDENT, width).join('\n'));
    const listing = options.listings?.[index] ?? listingOf(run.cases);
    const block = renderRun(run, listing, paint, width, inMatrix.has(run.suite));
    if (block !== '') blocks.push(block);
  });
  // With several runs calling models, their sum is what the user pays; one run already shows it.
  const usages = runs.flatMap((run) => (run.summary.usage ? [run.summary.usage] : []));
  const [first, ...rest] = usages;
  if (first !== undefined && rest.length > 0) {
    blocks.push(`all runs: ${describeUsage(rest.reduce(addUsage, first))}`);
  }
  const missing = options.missingSuites ?? [];
  // No run of them is in the table: the verdict line alone would not say why it fails.
  for (const suite of missing) {
    blocks.push(`${paint.red('regressions')}: ${suite.text} (the baseline's gate: block)`);
  }
  blocks.push(renderVerdictLine(runs, options.interrupted ?? false, paint, missing.length));
  return `${blocks.join('\n\n')}\n`;
}

/**
 * The summary's closing pointer at `evals show RESULTS --failed`, when a case did not pass.
 * `results` must be the file that holds these results: a run prints it once that file is
 * written (where the results were kept instead when `-o` could not be written), since before,
 * `-o` may still hold an earlier run's; null when no file holds them (no pointer then).
 */
export function showFailedHint(
  runs: readonly RunResult[],
  results: string | null,
): string | undefined {
  const total = runTotals(runs);
  if (results === null || total.passed >= total.cases) return undefined;
  // A word to paste (`'my results.json'`, `./-r.json`, which would otherwise read as an option);
  // a name that must be shown escaped stays escaped.
  const path = notOption(results);
  const shown = printable(path) === path ? shellWord(path) : printable(path);
  return `why each case did not pass: evals show ${shown} --failed`;
}

/**
 * One run's block. `brief` (the suite's matrix shows its counts and means): only what went
 * wrong, and nothing at all for a run where nothing did.
 */
function renderRun(
  run: RunResult,
  listing: CaseListing,
  paint: Painter,
  width: number,
  brief: boolean,
): string {
  const lines: string[] = [];
  const params = formatParams(run.params, ' ');
  const suite = printable(run.suite);
  const verdict = verdictWord(run.verdict, paint);
  // Long grid values give way, cut in their middle; the suite and the verdict stay whole.
  const taken = textWidth(suite) + textWidth(verdict) + 4;
  lines.push(
    [paint.bold(suite), params ? fitBeside(printable(params), taken, width) : null, verdict]
      .filter((part) => part !== null)
      .join('  '),
  );
  const { summary } = run;
  const wrong = [
    ...renderSkippedAll(run, paint),
    ...renderMeansDespiteErrors(run),
    ...renderWrong(run, listing, paint, width),
  ];
  if (brief) {
    const usage = summary.usage !== undefined ? [`${INDENT}${describeUsage(summary.usage)}`] : [];
    if (wrong.length === 0 && usage.length === 0) return '';
    return [...lines, ...usage, ...wrong].join('\n');
  }

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
          // No cases, no rate: "100.0%" of nothing would read as a pass.
          summary.cases === 0 ? '—' : formatPercent(summary.passRate),
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
            stats.mean === null ? '—' : formatMean(stats.mean),
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

  const agreements = agreementsOf(summary.evaluators);
  if (agreements.length > 0) {
    lines.push('', ...agreements.map(([id, a]) => `${INDENT}${printable(agreementLine(id, a))}`));
  }

  if (summary.usage !== undefined) lines.push('', `${INDENT}${describeUsage(summary.usage)}`);
  return [...lines, ...wrong].join('\n');
}

/**
 * A warning for each evaluator that evaluated none of the cases that ran (it returned nothing,
 * or its `when:` matched no case): every case passes it by default, so a `return` left out or a
 * renamed field would pass the run with nothing checked. The verdict stays as the gate decides.
 * An evaluator that recorded the first baseline of each case instead (an automatic battle, run
 * the first time) skipped nothing by mistake: a passed `judged` condition is its note. Only it is
 * excused: another evaluator that skipped every case is still warned of.
 */
function renderSkippedAll(run: RunResult, paint: Painter): string[] {
  const { summary } = run;
  const ran = summary.cases - summary.errored;
  if (ran === 0) return [];
  const recorded = run.gate.conditions.find((c) => c.name === JUDGED_CONDITION && c.passed);
  const note = recorded === undefined ? [] : [`${INDENT}note: ${describeGateCondition(recorded)}`];
  return [
    ...note,
    ...Object.entries(summary.evaluators)
      .filter(([, stats]) => stats.count === 0 && (stats.baselinesRecorded ?? 0) < ran)
      .map(
        ([id]) =>
          `${INDENT}${paint.yellow('⚠')} ${printable(id)} evaluated none of the ${formatCount(ran)} ${ran === 1 ? 'case' : 'cases'} that ran (it skipped every one): nothing it checks was checked`,
      ),
  ];
}

/**
 * A note for each `mean` rule that passed over an evaluator with errored evaluations (or trials
 * that errored beside scored ones): it passed
 * because it would have whatever they scored (run/mean-bounds.ts), which the passing verdict
 * alone would not say. Failed ones are listed with the other failed conditions.
 */
function renderMeansDespiteErrors(run: RunResult): string[] {
  return run.gate.conditions
    .filter((condition) => {
      const id = /^evaluators\.(.+)\.mean$/.exec(condition.name)?.[1];
      const measured = id === undefined ? undefined : run.summary.evaluators[id];
      const errored = (measured?.errors ?? 0) + (measured?.erroredTrials?.trials ?? 0);
      // `scored` is what the bounds need: a summary without it (an earlier evalgate's) was not
      // decided by them, so its passed rule has nothing to explain.
      return condition.passed && errored > 0 && measured?.scored !== undefined;
    })
    .map((condition) => `${INDENT}note: ${describeGateCondition(condition)}`);
}

/** The failed gate conditions, the errors counted, the cases that did not pass or are flaky. */
function renderWrong(
  run: RunResult,
  listing: CaseListing,
  paint: Painter,
  width: number,
): string[] {
  const lines: string[] = [];
  const failedConditions = run.gate.conditions.filter((condition) => !condition.passed);
  if (failedConditions.length > 0) {
    lines.push('');
    for (const condition of failedConditions) {
      const line = gateConditionLine(condition, width - INDENT.length - 2);
      lines.push(`${INDENT}${paint.red('\u2717')} ${line}`);
    }
  }

  const { notPassed, notPassedCount, flakyPassed, flakyPassedCount } = listing;
  const errors = listing.errors ?? [];
  // Worth its own block when a message repeats; single errors read fine next to their case.
  if (errors.some((error) => error.count > 1)) {
    lines.push('', `${INDENT}errors (identical ones counted once):`);
    for (const error of errors.slice(0, MAX_LISTED_CASES)) {
      const line = countedLine({ message: tallyGist(error.message), count: error.count });
      // Wrapped as a case's error line is: cut on one line, the hint after the cause (`nothing
      // accepts connections there: …`) was what a 160-column log lost.
      lines.push(...wrappedReason(printable(line), `${INDENT}${INDENT}`, width));
    }
    if (errors.length > MAX_LISTED_CASES) {
      lines.push(
        `${INDENT}${INDENT}and ${plural(errors.length - MAX_LISTED_CASES, 'other message')}`,
      );
    }
  }
  const ids = distinctShortIds([...notPassed, ...flakyPassed].map((result) => result.id));
  const caseLines = (result: CaseResult): string[] =>
    renderCaseLines(result, ids.get(result.id) ?? result.id, paint, width, `${INDENT}${INDENT}`);
  if (notPassedCount > 0) {
    lines.push('');
    lines.push(
      notPassedCount > notPassed.length
        ? `${INDENT}${formatCount(notPassedCount)} cases did not pass, first ${notPassed.length}:`
        : `${INDENT}cases that did not pass:`,
    );
    for (const result of notPassed) lines.push(...caseLines(result));
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
    for (const result of flakyPassed) lines.push(...caseLines(result));
  }
  return lines;
}

/**
 * A counted message as its cases' lines show it ({@link errorGist}: first line and cause). The
 * tally keeps a message on one line, its line breaks as ` ⏎ ` and their indentation dropped, so
 * the lines are put back first; a line starting `at ` gets back the indentation that marks it
 * as a stack frame.
 */
function tallyGist(message: string): string {
  const lines = message.split(' ⏎ ').map((line) => (/^at\s/.test(line) ? `    ${line}` : line));
  return errorGist(lines.join('\n'));
}

function renderVerdictLine(
  runs: readonly RunResult[],
  interrupted: boolean,
  paint: Painter,
  missingSuites: number,
): string {
  const gone = goneSuitesPrefix(missingSuites);
  if (runs.length === 0) {
    const failed = interrupted || missingSuites > 0;
    return `${verdictWord(failed ? 'fail' : 'pass', paint)}  ${gone}no runs${interrupted ? ' (interrupted)' : ''}`;
  }
  const total = runTotals(runs);
  const verdict = !interrupted && total.failedRuns === 0 && missingSuites === 0 ? 'pass' : 'fail';
  const runText =
    total.failedRuns === 0
      ? `${plural(total.runs, 'run')} passed`
      : `${formatCount(total.failedRuns)} of ${plural(total.runs, 'run')} failed`;
  const parts = [
    verdictWord(verdict, paint),
    interrupted ? 'interrupted' : null,
    `${gone}${runText} · ${plural(total.cases, 'case')}: ${formatCount(total.passed)} passed, ${formatCount(total.failed)} failed, ${formatCount(total.errored)} errored`,
  ];
  return parts.filter((part) => part !== null).join('  ');
}

function verdictWord(verdict: 'pass' | 'fail', paint: Painter): string {
  return verdict === 'pass' ? paint.bold(paint.green('PASS')) : paint.bold(paint.red('FAIL'));
}
