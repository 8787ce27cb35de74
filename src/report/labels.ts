/**
 * Short text forms of results shared by the reports (terminal summary, JUnit, markdown, compare):
 * grid params and run names, thresholds, scores, case ids and commits, and why a case did not
 * pass. Plain text, no color.
 */
import { shownGridValue } from '../shared/grid-value-text.ts';
import { printable } from '../shared/text-table.ts';
import { describeThreshold } from '../run/threshold.ts';
import { formatCount } from '../shared/format-count.ts';
import { formatCost, formatMean, formatPercent, formatSeconds } from '../shared/format-numbers.ts';
import { isHashId } from './testset-text.ts';
import type { CaseResult, EvaluationResult, Params, Threshold, Usage } from '../types/index.ts';

/** A hash case id (sha256 hex) shows this many characters; 12 tell hashes apart in a listing. */
export const SHORT_ID_LENGTH = 12;

/** `1,234`: the one count formatter, shared with the layers below the reports. */
export { formatCount };

/** `91.7%` and `$0.0123`: leaf helpers, so that the HTML report's page script uses them too. */
export { formatCost, formatMean, formatPercent };

/** `1 row`, `2,000 rows`. */
export function plural(count: number, noun: string): string {
  return `${formatCount(count)} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * A case id as a label: a hash id cut to `SHORT_ID_LENGTH` characters ending with `…`, so nobody
 * takes the prefix for the whole id; a dedup id the user wrote stays whole, since ids such as
 * `question-0001` and `question-0002` only differ at the end.
 */
export function shortId(id: string): string {
  if (!isHashId(id)) return id;
  return id.length > SHORT_ID_LENGTH ? `${id.slice(0, SHORT_ID_LENGTH - 1)}\u2026` : id;
}

/** A case id as a line of text names it: `shortId`, made printable (a user's id may hold controls). */
export function shownCaseId(id: string): string {
  return printable(shortId(id));
}

/**
 * `2 suites of the baseline gone · `, what a headline starts with when suites gone from the
 * config failed the run (no run of theirs counts them); '' when none did.
 */
export function goneSuitesPrefix(count: number): string {
  return count > 0 ? `${plural(count, 'suite')} of the baseline gone \u00b7 ` : '';
}

/** A commit as people quote it: its first 7 hex digits, as `git log --oneline` shows them. */
export function shortSha(sha: string): string {
  return sha.slice(0, 7);
}

/** The `YYYY-MM-DD` an ISO timestamp starts with (`startedAt`), or `undefined` when it has none. */
export function startDate(timestamp: string): string | undefined {
  return /^\d{4}-\d{2}-\d{2}/.exec(timestamp)?.[0];
}

/**
 * A score with up to 3 decimals (`0.667`, `1`). When rounding would make a failing score print
 * as one of its threshold's bounds (0.79996 against `≥ 0.8`), the full value is shown instead.
 */
export function formatScore(score: number, threshold?: Threshold | null): string {
  const rounded = round3(score);
  if (rounded !== score && threshold) {
    const bounds = boundsOf(threshold);
    if (bounds.includes(rounded) || bounds.some((b) => round3(b) === rounded)) return String(score);
  }
  return String(rounded);
}

/**
 * A threshold next to the score it judged: a bound with more than 3 decimals (one an evaluator
 * computed, such as levenshtein's `1 - 1/3`) rounded as the score is, unless the two would then
 * read alike (`0.6666` against `≥ 0.6666666666666667`): then it is whole, as is the score.
 */
export function describeThresholdFor(threshold: Threshold, score: number): string {
  if (boundsOf(threshold).some((b) => round3(b) === round3(score))) {
    return describeThreshold(threshold);
  }
  const shown: Threshold = {};
  for (const key of ['gt', 'gte', 'lt', 'lte'] as const) {
    const bound = threshold[key];
    if (typeof bound === 'number') shown[key] = round3(bound);
  }
  return describeThreshold(shown);
}

function round3(value: number): number {
  return Number(value.toFixed(3));
}

function boundsOf(threshold: Threshold): number[] {
  return [threshold.gt, threshold.gte, threshold.lt, threshold.lte].filter(
    (b): b is number => typeof b === 'number',
  );
}

/**
 * `model=large temperature=0` (separator `' '`) or `model=large, temperature=0` (`', '`); an
 * empty string as `style=""` (see shownGridValue).
 */
export function formatParams(params: Params, separator: string): string {
  return Object.entries(params)
    .map(([key, value]) => `${key}=${shownGridValue(value)}`)
    .join(separator);
}

/**
 * A run as its heading names it: `capitals · model=large temperature=0`, or the suite alone for a
 * run without grid params. Printable (see `printable`): a line break in a grid value shows as
 * `\u000a`, so the runs `a\nb` and `a b` never read alike, and no value acts on a terminal.
 */
export function describeRun(run: { suite: string; params: Params }): string {
  const params = formatParams(run.params, ' ');
  return printable(params ? `${run.suite} · ${params}` : run.suite);
}

/** The first line of a message, for one-line listings. */
export function firstLine(text: string): string {
  const end = text.search(/\r?\n/);
  return end === -1 ? text : `${text.slice(0, end)} …`;
}

/**
 * Lines after an error's message that say nothing about it: blank lines, stack frames, a
 * caret under a source line, Node's version banner, the count of frames it left out.
 */
const NOISE_LINE = /^\s*$|^\s+at\s|^\s*\^+\s*$|^Node\.js v\d|^\s*\.\.\. \d+ lines? matching/;

/** The line that closes a block of properties Node prints after an error's stack (`}`). */
const BLOCK_END = /^\s*[}\]],?\s*$/;
const BLOCK_START = /[{[]\s*$/;

/**
 * An error on one line for listings, with its cause: the first line (what failed), then the
 * last meaningful line when there are more (why: the end of a command's stderr is the
 * exception, `ModuleNotFoundError: No module named 'openai'`, not the traceback before it nor
 * the stack frames and properties after a Node error). Lines left out show as ` … `. Callers
 * that lack room cut the result in the middle, which keeps both ends.
 */
export function errorGist(text: string): string {
  const lines = text.trim().split(/\r?\n/);
  const first = lines[0]!.trimEnd();
  const last = lastMeaningfulLine(lines);
  if (last === 0) return lines.length === 1 ? first : `${first} …`;
  const line = lines[last]!.trim().replace(/\s*[{[]$/, '');
  return `${first}${last === 1 ? ' ' : ' … '}${line}`;
}

/**
 * The index of the last line that says something: noise is skipped, and so is a block of
 * properties Node prints after an error (`    at … {` … `  code: 'ENOENT'` … `}`, nested
 * `[cause]` blocks included), from its closing line back to the line that opened it.
 */
function lastMeaningfulLine(lines: readonly string[]): number {
  let at = lines.length - 1;
  while (at > 0) {
    const line = lines[at]!;
    if (BLOCK_END.test(line)) {
      const closing = at;
      let depth = 0;
      for (; at > 0; at--) {
        if (BLOCK_END.test(lines[at]!)) depth++;
        else if (BLOCK_START.test(lines[at]!) && --depth === 0) break;
      }
      // A block the first line opens is the message's own (a JSON body): its last line says it.
      if (at === 0) return lastInside(lines, closing);
      // The opening line without its brace: a stack frame (noise), or the error itself.
      if (!NOISE_LINE.test(lines[at]!.replace(/\s*[{[]\s*$/, ''))) return at;
      at--;
      continue;
    }
    if (!NOISE_LINE.test(line)) return at;
    at--;
  }
  return 0;
}

/** The last line before `closing` that is neither noise nor a closing brace, else 0. */
function lastInside(lines: readonly string[], closing: number): number {
  for (let at = closing - 1; at > 0; at--) {
    if (!NOISE_LINE.test(lines[at]!) && !BLOCK_END.test(lines[at]!)) return at;
  }
  return 0;
}

/** Why one evaluation did not pass: `exact 0 (needs ≥ 1)` or `tone: error: timed out`. */
export function describeFailedEvaluation(evaluation: EvaluationResult): string {
  if (evaluation.error !== null)
    return `${evaluation.evaluator}: error: ${errorGist(evaluation.error)}`;
  if (evaluation.score === null) return `${evaluation.evaluator}: no score`;
  const score = formatScore(evaluation.score, evaluation.threshold);
  if (evaluation.threshold === null) return `${evaluation.evaluator} ${score}`;
  const needs = describeThresholdFor(evaluation.threshold, evaluation.score);
  return `${evaluation.evaluator} ${score} (needs ${needs})`;
}

/**
 * `flaky 2/3` (trials passed / trials run) for a case marked flaky, else `null`: the short form
 * the terminal summary, JUnit and the markdown report share.
 */
export function flakyLabel(result: CaseResult): string | null {
  if (result.flaky !== true || result.trials === undefined) return null;
  const passed = result.trials.filter((trial) => trial.passed).length;
  return `flaky ${formatCount(passed)}/${formatCount(result.trials.length)}`;
}

/**
 * Why a case did not pass, one entry per reason: the function's error, else each evaluation that
 * failed, else (a custom or `any` pass condition said no) a generic reason. `[]` for a passed case.
 */
export function describeCaseFailure(result: CaseResult): string[] {
  if (result.passed) return [];
  if (result.error !== null) return [`error: ${errorGist(result.error)}`];
  const failed = result.evaluations.filter((evaluation) => evaluation.passed === false);
  if (failed.length === 0) return ['did not meet the pass condition'];
  return failed.map(describeFailedEvaluation);
}

/**
 * One line on model calls: `model calls: 50, all from the cache`, or `model calls: 12 (4 from
 * the cache) · tokens: 2,100 prompt + 350 completion · cost: $0.0012 · time in calls: 3.2 s`.
 * Cache hits are named, because a run served from the cache must say so, and they take no
 * part in tokens, cost or time (see `Usage`).
 */
export function describeUsage(usage: Usage): string {
  const total = usage.calls + usage.cacheHits;
  if (usage.calls === 0) {
    return `model calls: ${formatCount(total)}, ${total === 1 ? 'from' : 'all from'} the cache`;
  }
  const parts = [
    `model calls: ${formatCount(total)}${usage.cacheHits > 0 ? ` (${formatCount(usage.cacheHits)} from the cache)` : ''}`,
    // A 429 or 5xx retried is why a call was slow, or what it took before it failed: said, as
    // the artifact records it, when some call was.
    ...(usage.retries !== undefined && usage.retries > 0
      ? [`retries: ${formatCount(usage.retries)}`]
      : []),
    // Calls that reached a server and counted no token at all: it reported none (a call sends
    // at least one prompt token), which `0 prompt + 0 completion` would read as free.
    usage.promptTokens === 0 && usage.completionTokens === 0
      ? 'tokens: none reported'
      : `tokens: ${formatCount(usage.promptTokens)} prompt + ${formatCount(usage.completionTokens)} completion`,
    `cost: ${usage.cost === null ? 'unknown (no price for a model used, or tokens not reported)' : formatCost(usage.cost)}`,
    `time in calls: ${formatSeconds(usage.latencyMs)}`,
  ];
  return parts.join(' · ');
}
