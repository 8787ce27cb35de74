/**
 * The text form of a `Comparison`, for a terminal (`evals compare`, and `evals run --baseline`):
 * the two sides, the counts, then per run a table of rows and the case lists, colored when asked.
 */
import { painter, type Painter } from './ansi.ts';
import {
  caseLists,
  caseText,
  comparedLine,
  countsLine,
  footnote,
  MAX_LISTED_COMPARE_CASES,
  orderRows,
  rowText,
} from './comparison-wording.ts';
import {
  evaluatorsOnOneSide,
  renamedNote,
  listRuns,
  oneSidedRuns,
} from './comparison-one-sided.ts';
import { incompleteWarnings } from './comparison-incomplete.ts';
import { lostScoreWarnings } from './comparison-lost-scores.ts';
import { orderRuns, shownLabel, type ShownLabel } from './shown-label.ts';
import { shownWords } from './row-power.ts';
import { showInvisible } from './failure-details.ts';
import { describeRun, formatCount, shortSha, startDate } from './labels.ts';
import { printable, renderTable, textWidth } from '../shared/text-table.ts';
import { fitBeside } from './case-text.ts';
import { wrapWords } from '../shared/wrap-words.ts';
import {
  listedCaseName,
  listHeading,
  type CaseLabelFinder,
  type CaseList,
} from './comparison-case-lists.ts';
import { ALARM_LEAD } from './alarm-reasons.ts';
import { cutReason } from './reason-cut.ts';
import type { ArtifactInfo, Comparison, RunComparison, RunRef } from '../types/comparison.ts';

/** Why HEAD's case `id` of `run` does not pass (`shortWhy`); null when it passes or is unknown. */
export type CaseWhyFinder = (run: RunRef, id: string) => string | null;

/** How `renderComparisonText` lays out its text. */
export interface ComparisonTextOptions {
  /** Emit ANSI colors (red regressed, green improved). The caller decides from the stream and NO_COLOR. */
  color: boolean;
  /** Names each listed case with its label too (`evals compare` reads both sides for it). */
  caseLabel?: CaseLabelFinder;
  /** The terminal's width, when known: a run's name (its grid values) is cut to fit it. */
  width?: number | undefined;
  /**
   * Why a listed case does not pass in HEAD, as the summary says it (`shortWhy`), by run and
   * id; null when it passes or is unknown. Said beside the case.
   */
  whyOf?: CaseWhyFinder | undefined;
}

/** The comparison for a terminal, ending with a newline. */
export function renderComparisonText(
  comparison: Comparison,
  options: ComparisonTextOptions,
): string {
  const paint = painter(options.color);
  const blocks: string[] = [];
  blocks.push(
    [
      `${paint.bold('BASE')} ${oneLine(describeArtifact(comparison.base))}`,
      `${paint.bold('HEAD')} ${oneLine(describeArtifact(comparison.head))}`,
      ...[...incompleteWarnings(comparison), ...lostScoreWarnings(comparison)].flatMap(
        ({ title, detail }) => {
          const head = `warning: ${title}`;
          const [first = '', ...rest] = wrapWords(detail, options.width, textWidth(head) + 1);
          return [`${paint.bold(paint.yellow(head))} ${first}`, ...rest.map((line) => `  ${line}`)];
        },
      ),
      ...wrapWords(
        countsLine(comparison, (text) => paint.bold(paint.red(text))),
        options.width,
      ),
    ].join('\n'),
  );
  for (const run of orderRuns(comparison.runs)) {
    blocks.push(textRun(run, comparison.settings.confidence, paint, options));
  }
  for (const [title, runs] of oneSidedRuns(comparison)) {
    const listed = listRuns(runs).map((line) => `  ${fitBeside(line, 2, options.width)}`);
    blocks.push([title, ...listed].join('\n'));
  }
  // Fixed prose is broken between words, never cut: all of it is worth reading.
  blocks.push(
    wrapWords(footnote(comparison), options.width)
      .map((line) => paint.dim(line))
      .join('\n'),
  );
  return `${blocks.join('\n\n')}\n`;
}

/** `evals.yaml · 3f9a1c2 (main) · 2024-05-01` */
function describeArtifact(info: ArtifactInfo): string {
  const parts = [info.config];
  const sha = info.git?.sha ? shortSha(info.git.sha) : null;
  const ref = info.git?.ref ?? null;
  if (sha !== null || ref !== null) {
    parts.push(
      [sha, ref === null ? null : sha === null ? ref : `(${ref})`].filter(Boolean).join(' '),
    );
  }
  const date = startDate(info.startedAt);
  if (date) parts.push(date);
  return parts.join(' · ');
}

function textRun(
  run: RunComparison,
  confidence: number,
  paint: Painter,
  options: ComparisonTextOptions,
): string {
  const { width } = options;
  // Long grid values give way, cut in their middle; how many cases were compared stays whole.
  const compared = comparedLine(run);
  // describeRun's name is printable already; printing it again would double its backslashes.
  const name = fitBeside(describeRun(run), textWidth(compared) + 2, width);
  const lines = [`${paint.bold(name)}  ${paint.dim(compared)}`];
  const rows = orderRows(run).map((row) => ({
    text: rowText(row, confidence, run.minDetectableEffect),
    shown: shownLabel(row.change),
    words: shownWords(row.change),
  }));
  // Too wide a row gives up what says least: the end of its note, then of its change (the CI
  // and the case counts), then of its name; never the test's p, the label or `a → b`.
  // Two columns more than what stays whole: a cut after it still shows it, then ` …`.
  const widest = (texts: string[]): number => 2 + Math.max(0, ...texts.map(textWidth));
  const columns = [
    { shrink: true, minWidth: 12 },
    { shrink: true, minWidth: widest(rows.map(({ text }) => text.change.split(' (')[0] ?? '')) },
    {},
    { shrink: true, minWidth: widest(rows.map(({ words }) => words)) },
  ];
  lines.push(
    ...renderTable(
      rows.map(({ text, shown, words }) => {
        const label = paintLabel(shown, words, paint);
        return [
          oneLine(text.name),
          text.change,
          text.test,
          text.note ? `${label} ${paint.dim(text.note)}` : label,
        ];
      }),
      { indent: '  ', columns, ...(width === undefined ? {} : { maxWidth: width }) },
    ),
  );

  for (const list of caseLists(run)) {
    lines.push(...listLines(run, list, paint, options));
  }

  const oneSided = evaluatorsOnOneSide(run).map(
    ([side, ids]) => `evaluators only in ${side}: ${ids.join(', ')}`,
  );
  if (oneSided.length > 0) {
    const text = oneLine(oneSided.join(' · ') + renamedNote(run));
    lines.push(...wrapWords(text, width, 2).map((line) => `  ${line}`));
  }
  return lines.join('\n');
}

/**
 * One case list: its heading (`newly failing (3)`), for an alarm why it is one, a line each
 * under the heading, then its first cases, each with why it does not pass in HEAD beside it
 * (the summary's words, `shortWhy`, cut to the line), and how many more.
 */
function listLines(
  run: RunComparison,
  list: CaseList,
  paint: Painter,
  options: ComparisonTextOptions,
): string[] {
  const { width } = options;
  const title = listHeading(list.title, formatCount(list.cases.length), list.aside);
  const note = list.note ? paint.dim(`: ${list.note}`) : '';
  const lines = [`  ${list.alarm ? paint.red(title) : title}${note}`];
  const reasons = list.reasons ?? [];
  if (reasons.length > 0) {
    lines.push(`    ${ALARM_LEAD}`);
    for (const reason of reasons) {
      const [first = '', ...rest] = wrapWords(oneLine(reason), width, 8);
      lines.push(`      - ${first}`, ...rest.map((line) => `        ${line}`));
    }
  }
  // HEAD holds no result for a case it removed or did not run.
  const inHead =
    list.title !== 'removed' &&
    list.title !== 'not run in HEAD' &&
    list.title !== 'not selected in HEAD';
  const shown = list.cases.slice(0, MAX_LISTED_COMPARE_CASES).map((ref) => {
    return {
      ...caseText(ref),
      name: listedCaseName(ref, options.caseLabel?.(run, ref.id) ?? ref.label ?? null),
      why: inHead ? (options.whyOf?.(run, ref.id) ?? null) : null,
    };
  });
  // No source column when no case has one (cases given in code).
  const withSource = shown.some((entry) => entry.source !== null);
  const table = renderTable(
    shown.map((entry) => [
      oneLine(entry.name),
      ...(withSource ? [paint.dim(oneLine(entry.source ?? ''))] : []),
      ...(entry.detail === null ? [] : [entry.detail]),
    ]),
    { indent: '    ' },
  );
  // Reasons start in one column, past the widest case line.
  const widest = Math.max(0, ...table.map(textWidth));
  shown.forEach((entry, index) => {
    const bare = table[index] ?? '';
    if (entry.why === null) {
      lines.push(bare);
      return;
    }
    const line = `${bare}${' '.repeat(widest - textWidth(bare))}`;
    const why = oneLine(entry.why);
    // Beside the case when enough of it fits there, else on a line of its own under it.
    const room = width === undefined ? Infinity : width - textWidth(line) - 2;
    if (room >= Math.min(MIN_WHY_BESIDE, textWidth(why))) {
      lines.push(`${line}  ${room === Infinity ? why : cutReason(why, room)}`);
    } else {
      const under = '      ';
      const cut = width === undefined ? why : cutReason(why, Math.max(1, width - under.length));
      lines.push(bare, `${under}${cut}`);
    }
  });
  if (list.cases.length > shown.length) {
    lines.push(`    … ${formatCount(list.cases.length - shown.length)} more`);
  }
  return lines;
}

/** Fewest columns a case's reason takes beside it; with less room it goes on the next line. */
const MIN_WHY_BESIDE = 30;

/** `words` (what the row is called, `shownWords`) in the colour of its shown `label`. */
function paintLabel(label: ShownLabel, words: string, paint: Painter): string {
  switch (label) {
    case 'regressed':
      return paint.bold(paint.red(words));
    case 'improved':
      return paint.green(words);
    case 'too few cases':
    case 'possible regression':
    case 'possible improvement':
      return paint.yellow(words);
    case 'unchanged':
      return words;
  }
}

/**
 * One line of user text for a terminal, as `printable` shows it: a line break as `\u000a`, not
 * a space, so two values that differ by one never read alike; controls written out.
 */
function oneLine(text: string): string {
  return showInvisible(printable(text));
}
