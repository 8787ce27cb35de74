/**
 * The failing cases of a run in the markdown report: a `<details>` list whose entries give each
 * case's id, source, status, why its evaluations failed and its output (or the function's error),
 * every part bounded so one case never crowds out the others.
 */
import type { CaseResult } from '../types/index.ts';
import { oneLine } from '../shared/one-line.ts';
import {
  clipText,
  failureReasons,
  multiLineFields,
  outputText,
  repoPath,
  shortenText,
} from './failure-details.ts';
import { flakyLabel, formatCount, plural } from './labels.ts';
import { caseLabel, distinctShortIds } from './case-text.ts';
import type { RunView } from './markdown-model.ts';
import { codeBlock, codeSpan, escapeMarkdownText } from './markdown-text.ts';

/** Where a note about something left out of the report sends the reader. */
export const SEE_ARTIFACT = '(see the results artifact)';

// Per-case bounds: one case must never crowd out the others, and an entry's size is what the
// budget search trades against the rest of the document.
const OUTPUT_MAX_CHARS = 300;
const OUTPUT_MAX_LINES = 12;
const ERROR_MAX_CHARS = 600;
const ERROR_MAX_LINES = 8;
const REASON_MAX_CHARS = 200;
/** Enough for the note on an integer past 2^53 (~230 characters), whole. */
const WARNING_MAX_CHARS = 240;
const EVALUATIONS_PER_CASE = 5;
const FIELD_MAX_CHARS = 300;
const FIELD_MAX_LINES = 8;

/**
 * The first `shown` failing cases of a run (no more than it keeps in detail) in a `<details>`,
 * with a line counting the rest; only a count when `shown` is 0; '' when none failed.
 */
export function renderFailingCases(
  view: RunView,
  shown: number,
  sourceRoot: string,
  repeats: ShownRepeats,
): string {
  const total = view.failing.length;
  if (total === 0) return '';
  if (shown === 0) return `_${plural(total, 'failing case')} not shown_`;
  const errored = view.failing.filter((result) => result.error !== null).length;
  const summary = `${plural(total, 'failing case')}${errored > 0 ? ` (${formatCount(errored)} errored)` : ''}`;
  const entries: string[] = [];
  for (let i = 0; i < Math.min(shown, view.listable); i++) {
    entries.push(caseEntry(view, i, sourceRoot, repeats));
  }
  const blocks = [`<details><summary>${summary}</summary>`, entries.join('\n')];
  if (shown < total) {
    blocks.push(`… ${plural(total - shown, 'more failing case')} not shown ${SEE_ARTIFACT}`);
  }
  // The blank line before `</details>` ends the list, so the tag is read as HTML, not as text of
  // the last item.
  blocks.push('</details>');
  return blocks.join('\n\n');
}

const idsOfView = new WeakMap<RunView, Map<string, string>>();

/** The listed ids of a run, each shortened only as far as it stays apart from the others. */
function shownIds(view: RunView): Map<string, string> {
  let ids = idsOfView.get(view);
  if (ids === undefined) {
    ids = distinctShortIds(view.failing.slice(0, view.listable).map((result) => result.id));
    idsOfView.set(view, ids);
  }
  return ids;
}

function caseEntry(
  view: RunView,
  index: number,
  sourceRoot: string,
  repeats: ShownRepeats,
): string {
  const result = view.failing[index];
  if (result === undefined) return '';
  const repeat = view.repeats.get(index);
  const whole = repeat === undefined ? undefined : repeats.get(repeat.group);
  const shownAt =
    repeat === undefined || whole === undefined
      ? undefined
      : {
          first: whole.view === view && whole.index === index,
          points: repeat.points,
          firstPoint: whole.view.repeats.get(whole.index)?.point ?? '',
        };
  // Cached per index and per where its repeat is shown whole: only the ones that fit are rendered.
  const key =
    shownAt === undefined ? `${index}` : `${index} ${shownAt.first} ${shownAt.firstPoint}`;
  const cached = view.entries.get(key);
  if (cached !== undefined) return cached;
  const entry = renderCase(result, shownIds(view).get(result.id) ?? result.id, sourceRoot, shownAt);
  view.entries.set(key, entry);
  return entry;
}

/**
 * One failing case as a list item: id, source and status (failed or errored, flaky); one
 * sub-item per failing evaluation with its reason; a multi-line input or expected value in
 * a block of its own (a one-line reason would flatten it); then the output (or the function's
 * error) in a code block, shortened. A failure that repeats on other grid points (same case,
 * output and reasons) is shown whole once, naming them all; the repeats only point back to it.
 */
function renderCase(
  result: CaseResult,
  shownId: string,
  sourceRoot: string,
  repeat: { first: boolean; points: string[]; firstPoint: string } | undefined,
): string {
  const errored = result.error !== null;
  const source = result.source
    ? codeSpan(`${repoPath(sourceRoot, result.source.file)}:${result.source.line}`)
    : 'no source';
  const label = caseLabel(result);
  const head = [
    codeSpan(shownId),
    ...(label !== null ? [escapeMarkdownText(clipText(label, 60))] : []),
    source,
    errored ? '**errored**' : '**failed**',
  ];
  const flaky = flakyLabel(result);
  if (flaky !== null) head.push(flaky);
  if (repeat !== undefined && !repeat.first) {
    head.push(`same output and reasons as on ${repeat.firstPoint}`);
    return `- ${head.join(' · ')}`;
  }
  if (repeat !== undefined) head.push(`on ${repeat.points.join(', ')}`);
  const lines = [`- ${head.join(' · ')}`];

  if (errored) {
    lines.push(
      '',
      codeBlock(shortenText(result.error ?? '', ERROR_MAX_CHARS, ERROR_MAX_LINES), '  '),
    );
    return lines.join('\n');
  }

  const reasons = failureReasons(result, EVALUATIONS_PER_CASE, REASON_MAX_CHARS);
  lines.push(...reasons.map((reason) => `  - ${escapeMarkdownText(reason)}`));
  // Briefly: why a number in the output below is not the one the answer sent.
  for (const warning of result.warnings ?? []) {
    const brief = shortenText(oneLine(warning), WARNING_MAX_CHARS);
    lines.push(`  - warning: ${escapeMarkdownText(brief)}`);
  }
  const fields = multiLineFields(result);
  for (const [name, text] of fields) {
    lines.push(
      '',
      `  ${name}:`,
      '',
      codeBlock(shortenText(text, FIELD_MAX_CHARS, FIELD_MAX_LINES), '  '),
    );
  }
  lines.push(
    '',
    ...(fields.length > 0 ? ['  output:', ''] : []),
    codeBlock(shortenText(outputText(result.output), OUTPUT_MAX_CHARS, OUTPUT_MAX_LINES), '  '),
  );
  return lines.join('\n');
}

/** A failure repeated on several grid points (same case, output or error, and reasons). */
export interface Repeat {
  /** Which repeated failure this is: the same number on every grid point it happens on. */
  group: number;
  /** The grid points it fails on, escaped. */
  points: string[];
  /** This entry's own grid point, escaped. */
  point: string;
}

/**
 * The entry of each repeated failure that a rendering shows whole: the first the document
 * renders, by group. Worked out per rendering, since the size budget decides which entries are
 * rendered at all: a repeat must never point at an entry that was cut.
 */
export type ShownRepeats = ReadonlyMap<number, { view: RunView; index: number }>;
