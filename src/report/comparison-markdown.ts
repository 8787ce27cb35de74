/**
 * The markdown form of a `Comparison`, for the PR comment, the job summary and `evals compare
 * --format md`. Every id, suite, param and path goes through `escapeMarkdownText` or `codeSpan`.
 */
import {
  caseLists,
  caseText,
  comparedLine,
  countsLine,
  evaluatorsOnOneSide,
  footnote,
  listRuns,
  MAX_LISTED_COMPARE_CASES,
  oneSidedRuns,
  orderRows,
  orderRuns,
  rowText,
} from './comparison-wording.ts';
import { describeRun, formatCount } from './labels.ts';
import { codeSpan, describeOriginMarkdown, escapeMarkdownText } from './markdown-text.ts';
import type { ChangeLabel, Comparison, RunComparison } from '../types/comparison.ts';

/** How `renderComparisonMarkdown` sizes its case lists. */
export interface ComparisonMarkdownOptions {
  /**
   * Cases listed per list (newly failing, fixed, …) and run before `… N more`; 10 by default.
   * Lower it to keep a comment with many grid points under GitHub's size limit.
   */
  maxListedCases?: number;
}

const LABEL_ICONS: Record<ChangeLabel, string> = {
  regressed: '🔴',
  improved: '🟢',
  unchanged: '⚪',
  'too few cases': '➖',
};

/**
 * The comparison as GitHub-flavoured markdown, ending with a newline. Case lists are cut at
 * `maxListedCases` per list and run.
 */
export function renderComparisonMarkdown(
  comparison: Comparison,
  options: ComparisonMarkdownOptions = {},
): string {
  const maxListed = options.maxListedCases ?? MAX_LISTED_COMPARE_CASES;
  const blocks: string[] = [];
  const base = `${codeSpan(comparison.base.config)}${describeOriginMarkdown(comparison.base)}`;
  blocks.push(`Compared with ${base}: ${countsLine(comparison, (text) => `**${text}**`)}`);
  for (const run of orderRuns(comparison.runs)) {
    blocks.push(markdownRun(run, comparison.settings.confidence, maxListed));
  }
  for (const [title, runs] of oneSidedRuns(comparison)) {
    blocks.push(
      [`**${title}**`, '', ...listRuns(runs).map((line) => `- ${escapeMarkdownText(line)}`)].join(
        '\n',
      ),
    );
  }
  blocks.push(`_${escapeMarkdownText(footnote(comparison))}_`);
  return `${blocks.join('\n\n')}\n`;
}

function markdownRun(run: RunComparison, confidence: number, maxListed: number): string {
  const blocks: string[] = [`#### ${escapeMarkdownText(describeRun(run))} · ${comparedLine(run)}`];
  const rows = orderRows(run).map((row) => {
    const text = rowText(row, confidence, run.minDetectableEffect);
    const name = row.kind === 'pass rate' ? '**pass rate**' : escapeMarkdownText(text.name);
    const label = text.label === 'regressed' ? '**regressed**' : text.label;
    const tail = [text.note, text.test].filter(Boolean).join(' · ');
    return `- ${LABEL_ICONS[text.label]} ${name}: ${text.change} ${label}${tail ? ` · ${tail}` : ''}`;
  });
  blocks.push(rows.join('\n'));

  for (const list of caseLists(run)) {
    const count = `${list.title[0]?.toUpperCase() ?? ''}${list.title.slice(1)} (${formatCount(list.cases.length)})`;
    const title = `${count}${list.note ? `, ${list.note}` : ''}:`;
    const shown = list.cases.slice(0, maxListed).map((ref) => {
      const { id, source, detail } = caseText(ref);
      const where = [source === null ? null : codeSpan(source), detail].filter(Boolean).join(', ');
      return where ? `${codeSpan(id)} (${where})` : codeSpan(id);
    });
    if (list.cases.length > shown.length) {
      shown.push(`… ${formatCount(list.cases.length - shown.length)} more`);
    }
    blocks.push(`${list.alarm ? `**${title}**` : title} ${shown.join(', ')}`);
  }

  const oneSided = evaluatorsOnOneSide(run).map(
    ([side, ids]) => `Evaluators only in ${side}: ${ids.map((id) => codeSpan(id)).join(', ')}`,
  );
  if (oneSided.length > 0) blocks.push(oneSided.join(' · '));
  return blocks.join('\n\n');
}
