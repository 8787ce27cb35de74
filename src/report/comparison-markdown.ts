/**
 * The markdown form of a `Comparison`, for the PR comment, the job summary and `evals compare
 * --format md`: the counts, one compact table (grid point × row: base → head, Δ, label), the
 * case lists as tables saying why a case fails now, then each grid point's statistics folded
 * in a `<details>`. Every id, suite, param and path goes through `escapeMarkdownText` or
 * `codeSpan`.
 */
import {
  comparedLine,
  countsLine,
  footnote,
  MAX_LISTED_COMPARE_CASES,
  orderRows,
  rowCells,
  rowText,
  type Row,
} from './comparison-wording.ts';
import {
  evaluatorsOnOneSide,
  renamedNote,
  listRuns,
  oneSidedRuns,
} from './comparison-one-sided.ts';
import { incompleteWarnings } from './comparison-incomplete.ts';
import { lostScoreWarnings } from './comparison-lost-scores.ts';
import { foreignBaselineWarnings } from './comparison-foreign.ts';
import { caseTables, type HeadCaseFinder } from './comparison-case-tables.ts';
import type { CaseLabelFinder } from './comparison-case-lists.ts';
import { orderRuns, shownLabel, type ShownLabel } from './shown-label.ts';
import { pointsSize, scoreSize, shownWords, underpoweredRow, verdictWords } from './row-power.ts';
import { describeRun, formatCount, plural } from './labels.ts';
import { codeSpan, describeOriginMarkdown, escapeMarkdownText, tableRow } from './markdown-text.ts';
import { pointName } from './markdown-overview.ts';
import type { ChangeLabel, Comparison, RunComparison, RunRef } from '../types/comparison.ts';

/** How `renderComparisonMarkdown` sizes its case lists and what it can say about a case. */
export interface ComparisonMarkdownOptions {
  /**
   * Cases listed per list (newly failing, fixed, …) before `… N more`; 10 by default. Lower it
   * to keep a comment with many grid points under GitHub's size limit.
   */
  maxListedCases?: number;
  /**
   * HEAD's result of a case, to say why it fails now and name it; without it the tables give
   * ids and sources only.
   */
  headCase?: HeadCaseFinder;
  /**
   * The label of a listed case `headCase` does not give (a removed case, read from BASE); see
   * `caseLabelFinder`.
   */
  caseLabel?: CaseLabelFinder;
  /** Each grid point's statistics (intervals, p-values) in a `<details>`; true by default. */
  statistics?: boolean;
  /**
   * The runs HEAD's recorded gate fails for an evaluator of BASE they lack (`evals compare`):
   * said under the headline, since they fail the comparison whatever its statistics say.
   */
  missingEvaluators?: readonly { suite: string; params: RunRef['params']; text: string }[];
  /** The suites of BASE that HEAD's config lacks and BASE's gate blocks on: said likewise. */
  goneSuites?: readonly { suite: string; text: string }[];
}

const LABEL_ICONS: Record<ChangeLabel, string> = {
  regressed: '🔴',
  improved: '🟢',
  unchanged: '⚪',
  'too few cases': '➖',
};
const LABEL_WORDS: Record<ChangeLabel, string> = {
  regressed: '**regressed**',
  improved: 'improved',
  unchanged: 'unchanged',
  'too few cases': 'too few',
};
/** The table's order: what blocks, then possible changes, rows without a verdict, the rest. */
const TABLE_ORDER: Record<ShownLabel, number> = {
  regressed: 0,
  'possible regression': 1,
  improved: 2,
  'possible improvement': 3,
  'too few cases': 4,
  unchanged: 5,
};

/** Rows of the compact table before the unchanged ones are folded. */
const TABLE_ROWS = 15;
/** Rows the compact table ever lists; the statistics hold every row. */
const TABLE_MAX_ROWS = 40;

/**
 * The comparison as GitHub-flavoured markdown, ending with a newline. Case lists are cut at
 * `maxListedCases` per list.
 */
export function renderComparisonMarkdown(
  comparison: Comparison,
  options: ComparisonMarkdownOptions = {},
): string {
  const blocks = [
    comparisonHeadline(comparison),
    ...(options.missingEvaluators ?? []).map(
      (run) =>
        `❌ **HEAD ${escapeMarkdownText(describeRun(run))} fails its gate (regressions: block):** ${escapeMarkdownText(run.text)}`,
    ),
    ...(options.goneSuites ?? []).map(
      ({ suite, text }) =>
        `❌ **Suite ${escapeMarkdownText(suite)} of BASE is gone from HEAD (its gate in BASE: regressions: block):** ${escapeMarkdownText(text)}`,
    ),
    comparisonTable(comparison),
    ...comparisonDetails(comparison, options),
  ];
  return `${blocks.filter((block) => block !== '').join('\n\n')}\n`;
}

/**
 * `Compared with `evals.yaml` at `3f9a1c2` on `main`: **2 regressions** · 1 improvement · …`,
 * and a paragraph per side that is incomplete (`⚠️ **BASE is incomplete** …`).
 */
export function comparisonHeadline(comparison: Comparison): string {
  const base = `${codeSpan(comparison.base.config)}${describeOriginMarkdown(comparison.base)}`;
  return [
    `Compared with ${base}: ${countsLine(comparison, (text) => `**${text}**`)}`,
    ...[
      ...foreignBaselineWarnings(comparison),
      ...incompleteWarnings(comparison),
      ...lostScoreWarnings(comparison),
    ].map(({ title, detail }) => `⚠️ **${title}** ${escapeMarkdownText(detail)}`),
  ].join('\n\n');
}

/**
 * One table for the whole comparison: a row per grid point × (pass rate, evaluator, agreement),
 * base → head, Δ and the label, regressions first. When it is long, the unchanged rows that
 * moved least are folded (counted under it); the statistics below hold every row.
 */
export function comparisonTable(comparison: Comparison): string {
  const rows: { run: RunComparison; row: Row }[] = [];
  for (const run of comparison.runs) {
    for (const row of orderRows(run)) rows.push({ run, row });
  }
  if (rows.length === 0) return '';
  // Regressions first, those the gate counts before the others; then the largest moves first.
  const moved = (entry: { row: Row }): number => Math.abs(entry.row.change.delta ?? 0);
  const order = (entry: { row: Row }): number => TABLE_ORDER[shownLabel(entry.row.change)];
  rows.sort((a, b) => order(a) - order(b) || moved(b) - moved(a));
  // A long table keeps every row with a verdict, and the unchanged rows that moved most until it
  // has TABLE_ROWS: a large drop the test cannot call yet (too few cases) is still worth a look.
  const unchangedRow = ({ row }: { row: Row }): boolean => shownLabel(row.change) === 'unchanged';
  const labelled = rows.filter((entry) => !unchangedRow(entry));
  const unchanged = rows.filter(unchangedRow);
  const room = Math.max(0, TABLE_ROWS - labelled.length);
  const kept =
    rows.length <= TABLE_ROWS
      ? rows
      : [...labelled, ...unchanged.filter((entry) => moved(entry) > 0).slice(0, room)];
  const shown = kept.slice(0, TABLE_MAX_ROWS);
  const folded = rows.length - kept.length;
  // Rows that moved but could not have seen the suite's change are folded too: not "unchanged".
  const weakFolded = rows.some(
    (entry) => !kept.includes(entry) && underpoweredRow(entry.row.change),
  );
  const foldedWhat = weakFolded ? 'unchanged or not significant row' : 'unchanged row';
  const lines: string[] = [];
  if (shown.length > 0) {
    lines.push(
      tableRow(['grid point', 'row', 'base → head', 'Δ', 'change']),
      tableRow([':--', ':--', '--:', '--:', ':--']),
      ...shown.map(({ run, row }) => {
        const cells = rowCells(row);
        const name =
          row.kind === 'pass rate' ? `**${cells.name}**` : escapeMarkdownText(cells.name);
        return tableRow([
          pointName(run, comparison.runs),
          name,
          `${cells.base} → ${cells.head}`,
          cells.delta,
          changeCell(row, comparison.family.rows),
        ]);
      }),
    );
  }
  const notes = [
    folded > 0 ? `⚪ ${plural(folded, foldedWhat)} folded` : '',
    kept.length > shown.length
      ? `${plural(kept.length - shown.length, 'more row')} not listed`
      : '',
  ].filter(Boolean);
  if (notes.length > 0) {
    if (lines.length > 0) lines.push('');
    lines.push(`_${notes.join('; ')} (every row is in the statistics)._`);
  }
  return lines.join('\n');
}

/**
 * The table's verdict on a row (see `shownLabel`); a row that could not have seen the suite's
 * `gate.minDetectableEffect` says so instead of `unchanged` (`verdictWords`).
 */
function changeCell(row: Row, familyRows: number): string {
  const shown = shownLabel(row.change);
  if (isPossible(shown)) {
    return `${POSSIBLE_ICON} ${shown} (not significant over ${plural(familyRows, 'row')})`;
  }
  if (underpoweredRow(row.change)) {
    const size = row.kind === 'pass rate' ? pointsSize : scoreSize;
    return `${LABEL_ICONS[shown]} ${verdictWords(row.change, size)}`;
  }
  return `${LABEL_ICONS[shown]} ${LABEL_WORDS[shown]}`;
}

/** A change only the row's own test calls: yellow, neither the red nor the green of a verdict. */
const POSSIBLE_ICON = '🟡';

function isPossible(shown: ShownLabel): shown is 'possible regression' | 'possible improvement' {
  return shown === 'possible regression' || shown === 'possible improvement';
}

/**
 * What follows the table: the case lists as tables (newly failing open where the statistics call
 * a regression, the others folded, newly failing within the noise first), the
 * runs on one side only, each grid point's statistics in a `<details>`, and the footnote.
 */
export function comparisonDetails(
  comparison: Comparison,
  options: ComparisonMarkdownOptions = {},
): string[] {
  const maxListed = options.maxListedCases ?? MAX_LISTED_COMPARE_CASES;
  const blocks: string[] = [];
  const tables = caseTables(comparison, maxListed, options.headCase, options.caseLabel);
  const others = tables.filter((table) => !table.alarm);
  blocks.push(...tables.filter((table) => table.alarm).map((table) => table.text));
  if (others.length > 0) {
    const summary = others.map((table) => `${formatCount(table.count)} ${table.name}`);
    blocks.push(
      [
        `<details><summary>Other case changes: ${summary.join(' · ')}</summary>`,
        ...others.map((table) => table.text),
        '</details>',
      ].join('\n\n'),
    );
  }
  for (const [title, runs] of oneSidedRuns(comparison)) {
    blocks.push(
      [`**${title}**`, '', ...listRuns(runs).map((line) => `- ${escapeMarkdownText(line)}`)].join(
        '\n',
      ),
    );
  }
  if (options.statistics !== false && comparison.runs.length > 0) {
    blocks.push(
      [
        `<details><summary>Statistics per grid point</summary>`,
        ...orderRuns(comparison.runs).map((run) =>
          markdownRun(run, comparison.settings.confidence),
        ),
        '</details>',
      ].join('\n\n'),
    );
  }
  blocks.push(`_${escapeMarkdownText(footnote(comparison))}_`);
  return blocks;
}

/** One grid point's rows with their intervals and tests, as a heading and a list. */
function markdownRun(run: RunComparison, confidence: number): string {
  const blocks: string[] = [`#### ${escapeMarkdownText(describeRun(run))} · ${comparedLine(run)}`];
  const rows = orderRows(run).map((row) => {
    const text = rowText(row, confidence, run.minDetectableEffect);
    const name = row.kind === 'pass rate' ? '**pass rate**' : escapeMarkdownText(text.name);
    const shown = shownLabel(row.change);
    const icon = isPossible(shown) ? POSSIBLE_ICON : LABEL_ICONS[shown];
    const label = shown === 'regressed' ? '**regressed**' : shownWords(row.change);
    const tail = [text.note, text.test].filter(Boolean).join(' · ');
    return `- ${icon} ${name}: ${text.change} ${label}${tail ? ` · ${tail}` : ''}`;
  });
  blocks.push(rows.join('\n'));
  const oneSided = evaluatorsOnOneSide(run).map(
    ([side, ids]) => `Evaluators only in ${side}: ${ids.map((id) => codeSpan(id)).join(', ')}`,
  );
  if (oneSided.length > 0) blocks.push(oneSided.join(' · ') + renamedNote(run));
  return blocks.join('\n\n');
}
