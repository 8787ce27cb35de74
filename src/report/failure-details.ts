/**
 * What the GitHub reports (PR comment, check-run annotations) say about a case that did not
 * pass, before any escaping: where its row lives in the repository, why each evaluation failed
 * and a bounded view of the output. Plain text in, plain text out.
 */
import { posix } from 'node:path';

import { characterCount, cutText } from '../shared/cut-text.ts';
import { graphemesOf } from '../shared/text-table.ts';
import type { CaseResult, EvaluationResult } from '../types/index.ts';
import { reasonOf } from './evaluation-reason.ts';
import {
  describeCaseFailure,
  describeFailedEvaluation,
  errorGist,
  formatCount,
  plural,
} from './labels.ts';

/**
 * The repository path of a file named relative to the config: `evals` + `testsets/qa.csv` →
 * `evals/testsets/qa.csv`. POSIX separators whatever the platform the run happened on, because
 * GitHub matches annotation paths and blob links against the tree, which only knows `/`.
 * `sourceRoot` is the config's folder relative to the repository root, `''` at the root.
 */
export function repoPath(sourceRoot: string, file: string): string {
  const joined = posix.normalize(posix.join(toPosix(sourceRoot), toPosix(file)));
  return joined.startsWith('./') ? joined.slice(2) : joined;
}

function toPosix(path: string): string {
  return path.replace(/\\/g, '/');
}

/** The evaluations that count against a case: thresholded ones that failed, errored ones. */
export function failedEvaluations(result: CaseResult): EvaluationResult[] {
  return result.evaluations.filter((evaluation) => evaluation.passed === false);
}

/**
 * The evaluator's own explanation: `metadata.reason` when it is a string, else what a built-in's
 * metadata says in numbers (`length 2,862 characters > max 200`), else the first string metadata
 * value as `key: value`, else null. Errored evaluations have none; their error says it all.
 */
export function evaluationReason(evaluation: EvaluationResult): string | null {
  return reasonOf(evaluation);
}

/**
 * Why a case fails, one line per reason: the function's error (`errorGist`), else each failing
 * evaluation (at most `maxEvaluations`, then `… N more`) as `exact 0 (needs ≥ 1) — expected
 * "Paris", got "Lyon"`, its evaluator's own reason cut to `reasonMaxChars`; else the pass
 * condition. `[]` for a passed case. The one wording of a failure that the PR comment's case
 * entries and its comparison tables share.
 */
export function failureReasons(
  result: CaseResult,
  maxEvaluations: number,
  reasonMaxChars: number,
): string[] {
  if (result.passed) return [];
  if (result.error !== null) return [`error: ${errorGist(result.error)}`];
  const failed = failedEvaluations(result);
  if (failed.length === 0) return describeCaseFailure(result);
  const reasons = failed.slice(0, maxEvaluations).map((evaluation) => {
    const reason = evaluationReason(evaluation);
    const text = describeFailedEvaluation(evaluation);
    return reason === null ? text : `${text} — ${shortenText(reason, reasonMaxChars)}`;
  });
  if (failed.length > maxEvaluations) {
    reasons.push(`… ${formatCount(failed.length - maxEvaluations)} more`);
  }
  return reasons;
}

/** Data fields holding what a case asks, in the order they are preferred. */
const INPUT_FIELDS = ['input', 'question', 'prompt', 'query', 'user_input'];
/** Data fields holding what a case expects, in the order they are preferred. */
const EXPECTED_FIELDS = [
  'expected',
  'expected_output',
  'expectedOutput',
  'reference',
  'ground_truth',
];

/**
 * The input and the expected value of a case when they span several lines, which a one-line
 * reason or label would flatten: `[['input', …], ['expected', …]]`, each only when multi-line.
 * The expected value is the failing evaluation's `metadata.expected` (what it compared against,
 * templates resolved), else the case's own field.
 */
export function multiLineFields(result: CaseResult): [string, string][] {
  const data =
    result.data !== null && typeof result.data === 'object' && !Array.isArray(result.data)
      ? (result.data as Record<string, unknown>)
      : {};
  const firstText = (values: unknown[]): string | undefined =>
    values.find((value): value is string => typeof value === 'string' && value !== '');
  const input = firstText(INPUT_FIELDS.map((key) => data[key]));
  const expected = firstText([
    ...failedEvaluations(result).map((evaluation) => evaluation.metadata?.expected),
    ...EXPECTED_FIELDS.map((key) => data[key]),
  ]);
  const fields: [string, string][] = [];
  if (input !== undefined && /\r?\n/.test(input.trim())) fields.push(['input', input]);
  if (expected !== undefined && /\r?\n/.test(expected.trim())) fields.push(['expected', expected]);
  return fields;
}

/**
 * The function's output as text: strings as they are (so a model's answer reads naturally),
 * anything else as compact JSON. Never throws, whatever the output holds.
 */
export function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  try {
    const json = JSON.stringify(output, (_key, item: unknown) =>
      typeof item === 'bigint' ? item.toString() : item,
    );
    return json ?? String(output);
  } catch {
    return String(output);
  }
}

/**
 * Cuts text to `maxChars` code points and `maxLines` lines, saying how much was left out
 * (`… (1,234 more characters)`). Counting code points keeps surrogate pairs whole, so the cut
 * never leaves half an emoji that GitHub would reject as invalid UTF-8.
 */
export function shortenText(text: string, maxChars: number, maxLines = Infinity): string {
  let start = cutText(text, maxChars).start;
  // The line break that ends line `maxLines`, if the kept start has one; bounded by maxLines.
  let end = -1;
  for (let line = 0; line < maxLines; line++) {
    end = start.indexOf('\n', end + 1);
    if (end < 0) break;
  }
  if (end >= 0) start = start.slice(0, end);
  if (start.length === text.length) return text;
  return `${start} … (${plural(characterCount(text.slice(start.length)), 'more character')})`;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text that encodes as valid UTF-8: a lone surrogate (half an emoji from a cut made elsewhere)
 * becomes U+FFFD, as GitHub would otherwise reject the request or mangle the body.
 */
function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

/**
 * Characters that act instead of showing: C0/C1 controls other than tab, newline and carriage
 * return (callers decide about line breaks), and the bidirectional overrides that can make text
 * read differently from what it is (CVE-2021-42574).
 */
const INVISIBLE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Well-formed text with every invisible acting character written out as `\u202e`, so a reviewer
 * sees that something is there, a terminal escape does nothing and a NUL never reaches an API.
 */
export function showInvisible(text: string): string {
  return wellFormed(text).replace(
    INVISIBLE,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Cuts text to `maxChars` code points (GitHub counts its limits in characters), ending with `…`
 * when anything was cut. For titles. The cut falls between graphemes, so an accent, a skin tone
 * or a flag's second half is never left without, or cut from, its character.
 */
export function clipText(text: string, maxChars: number): string {
  if (Array.from(text).length <= maxChars) return text;
  let kept = '';
  let count = 0;
  for (const { segment } of graphemesOf(text)) {
    const size = Array.from(segment).length;
    if (count + size > maxChars - 1) break;
    kept += segment;
    count += size;
  }
  return `${kept}…`;
}
