/**
 * The case lists of a comparison as markdown tables, one per kind of change over every grid
 * point (newly failing, fixed, …, not run on an incomplete side): the case, where, its source
 * line and what it does now. Every id and path goes through `escapeMarkdownText` or `codeSpan`.
 */
import { CASE_LIST_TITLES, caseLists, caseText, type CaseList } from './comparison-wording.ts';
import { orderRuns } from './shown-label.ts';
import {
  countedCases,
  listedCaseKey,
  listHeading,
  type CaseLabelFinder,
} from './comparison-case-lists.ts';
import { ALARM_LEAD, alarmLines } from './alarm-reasons.ts';
import { calmFlipsName, flipsAside } from './newly-failing.ts';
import { caseLabel } from './case-text.ts';
import { shortWhy } from './html-model-why.ts';
import { formatCount } from './labels.ts';
import { codeSpan, escapeMarkdownText, tableRow } from './markdown-text.ts';
import { pointName } from './markdown-overview.ts';
import type { Comparison, RunComparison, RunRef } from '../types/comparison.ts';
import type { CaseResult } from '../types/index.ts';
import { truncateToWidth } from '../shared/text-table.ts';

/** Columns of a listed case's label. */
const LABEL_MAX_WIDTH = 50;

/** HEAD's result of a case, to say why it fails now and name it. */
export type HeadCaseFinder = (run: RunRef, id: string) => CaseResult | undefined;

/** One kind of change as a titled table. */
export interface CaseTable {
  title: CaseList['title'];
  count: number;
  text: string;
  /**
   * Bad news, listed open: newly failing cases on grid points whose statistics call a
   * regression (`newlyFailingAlarm`). Those of the other grid points are a table of their own.
   */
  alarm: boolean;
  /** What a folded list is called in a summary: `newly failing within the noise`, or its title. */
  name: string;
}

/** A listed case: one row per case, naming every grid point it is listed on. */
interface CaseRow {
  ref: CaseList['cases'][number];
  runs: RunComparison[];
  /** What it does now, per grid point, in the order of `runs`. */
  nows: string[];
  label: string | null;
}

/** Distinct "now" texts a row spells out before counting the rest. */
const MAX_NOW_TEXTS = 3;

/**
 * One table per kind of change over every grid point, in `CASE_LIST_TITLES` order: the case (id,
 * name), where it fails, its source line and what it does now (why it fails, or its trials).
 * A case on several grid points is one row, so the count in the heading, the rows and `… N more`
 * all count cases; the heading adds how many (case, grid point) pairs that is when it differs.
 * Newly failing cases are two tables: those of grid points whose statistics call a regression
 * (bold: `alarm`, why said under the heading, a line each, `alarmLines`), then those of the
 * others, whose heading says over all of them what the pass rate can tell (`flipsAside`).
 */
export function caseTables(
  comparison: Comparison,
  maxListed: number,
  headCase: HeadCaseFinder | undefined,
  labelOf: CaseLabelFinder = () => null,
): CaseTable[] {
  const byGroup = new Map<string, Group>();
  for (const run of orderRuns(comparison.runs)) {
    for (const list of caseLists(run)) {
      // Newly failing cases that are news and those within the noise are two tables.
      const group = JSON.stringify([list.title, list.alarm === true]);
      let entry = byGroup.get(group);
      if (entry === undefined) {
        entry = { list, rows: new Map(), runs: [], pairs: 0 };
        byGroup.set(group, entry);
      }
      entry.runs.push(run);
      entry.pairs += list.cases.length;
      for (const ref of list.cases) {
        const head =
          list.title === 'removed' ||
          list.title === 'not run in HEAD' ||
          list.title === 'not selected in HEAD'
            ? undefined
            : headCase?.(run, ref.id);
        const now = nowText(list.title, ref, head);
        // The suite too: two suites may give unrelated cases one id (inline cases have no line).
        const key = listedCaseKey(run, ref);
        const row = entry.rows.get(key);
        if (row !== undefined) {
          row.runs.push(run);
          row.nows.push(now);
        } else {
          // HEAD names a case it has; a removed one (or one HEAD lacks) is named by BASE.
          const label =
            (head === undefined ? null : caseLabel(head)) ??
            labelOf(run, ref.id) ??
            ref.label ??
            null;
          entry.rows.set(key, { ref, runs: [run], nows: [now], label });
        }
      }
    }
  }
  const withPoints = comparison.runs.length > 1;
  // The news first: newly failing cases that are an alarm, then those within the noise.
  const groups = CASE_LIST_TITLES.flatMap((title) =>
    [true, false].flatMap((alarm) => byGroup.get(JSON.stringify([title, alarm])) ?? []),
  );
  return groups.map(({ list, rows: byCase, runs, pairs: onPoints }): CaseTable => {
    const { title } = list;
    const alarm = list.alarm === true;
    const rows = [...byCase.values()];
    const count = rows.length;
    const counted = countedCases(count, onPoints);
    // Over every grid point of the table, as the text form says it of one.
    const aside = title !== 'newly failing' || alarm ? undefined : flipsAside(runs);
    const heading = listHeading(
      `${title[0]?.toUpperCase() ?? ''}${title.slice(1)}`,
      counted,
      aside,
    );
    const titleLine = `${heading}${list.note ? `, ${list.note}` : ''}:`;
    const blocks = [alarm ? `**${titleLine}**` : titleLine];
    // Why an alarm is one, under its heading: after the count they made it a paragraph.
    const reasons = alarm ? alarmLines(runs) : [];
    if (reasons.length > 0) {
      const lead = `${ALARM_LEAD[0]?.toUpperCase() ?? ''}${ALARM_LEAD.slice(1)}`;
      blocks.push([lead, ...reasons.map((reason) => `- ${escapeMarkdownText(reason)}`)].join('\n'));
    }
    const shown = rows.slice(0, maxListed);
    if (shown.length > 0) {
      const nowHeader =
        title === 'newly failing'
          ? 'why it fails now'
          : title === 'flaky in HEAD'
            ? 'trials'
            : 'now';
      blocks.push(
        [
          tableRow(['case', ...(withPoints ? ['grid point'] : []), 'source', nowHeader]),
          tableRow([':--', ...(withPoints ? [':--'] : []), ':--', ':--']),
          ...shown.map((row) => caseRow(row, withPoints, comparison.runs)),
        ].join('\n'),
      );
    }
    if (count > shown.length) blocks.push(`… ${formatCount(count - shown.length)} more`);
    const name = title === 'newly failing' && !alarm ? calmFlipsName(runs) : title;
    return { title, count, text: blocks.join('\n\n'), alarm, name };
  });
}

/** The rows of one table, the runs they come from and the (case, grid point) pairs listed. */
interface Group {
  list: CaseList;
  rows: Map<string, CaseRow>;
  runs: RunComparison[];
  pairs: number;
}

function caseRow(row: CaseRow, withPoints: boolean, runs: readonly RunRef[]): string {
  const { id, source } = caseText(row.ref);
  // Cut by columns between graphemes, as the text form cuts it: an accent stays on its letter.
  const name =
    row.label === null ? '' : ` ${escapeMarkdownText(truncateToWidth(row.label, LABEL_MAX_WIDTH))}`;
  const points = row.runs.map((run) => pointName(run, runs)).join(', ');
  return tableRow([
    `${cellCode(id)}${name}`,
    ...(withPoints ? [points] : []),
    source === null ? '—' : cellCode(source),
    nowCell(row, runs),
  ]);
}

/**
 * What a listed case does now: one text when every grid point says the same, else each text
 * after the grid points it holds on (`model=a: exact 0 … · model=b: passes`), at most
 * `MAX_NOW_TEXTS` of them and the rest counted.
 */
function nowCell(row: CaseRow, runs: readonly RunRef[]): string {
  const byText = new Map<string, string[]>();
  row.nows.forEach((now, index) => {
    const run = row.runs[index];
    const point = run === undefined ? '' : pointName(run, runs);
    byText.set(now, [...(byText.get(now) ?? []), point]);
  });
  const texts = [...byText.entries()];
  const [only] = texts;
  if (texts.length === 1 && only !== undefined) {
    return only[0] === '' ? '—' : escapeMarkdownText(only[0]);
  }
  const parts = texts
    .slice(0, MAX_NOW_TEXTS)
    .map(([now, points]) => `${points.join(', ')}: ${escapeMarkdownText(now === '' ? '—' : now)}`);
  if (texts.length > MAX_NOW_TEXTS)
    parts.push(`+${formatCount(texts.length - MAX_NOW_TEXTS)} more`);
  return parts.join(' · ');
}

/**
 * User text as inline code inside a table cell: GitHub splits cells at every `|` not escaped,
 * even inside code, so text holding one (or a backslash that could unescape it) is written as
 * escaped prose instead.
 */
function cellCode(text: string): string {
  return /[|\\]/.test(text) ? escapeMarkdownText(text) : codeSpan(text);
}

/**
 * What a listed case does now: why it fails (as the terminal summary and the HTML report's case
 * table say it, `shortWhy`), `passes`, its trials, or '' when unknown.
 */
function nowText(
  title: CaseList['title'],
  ref: CaseList['cases'][number],
  head: CaseResult | undefined,
): string {
  const { detail } = caseText(ref);
  if (detail !== null) return detail;
  if (title === 'fixed') return 'passes';
  if (head === undefined) return '';
  if (head.passed) return 'passes';
  return shortWhy(head) ?? '';
}
