/**
 * Why a built-in evaluator gave the score it gave, in numbers and quotes, read from the metadata
 * it records: `length 2,862 > max 200`, `regex matched "Sorry"`, `missing "Paris", "France"`.
 * Read by the shape of the metadata, since an evaluator's id is the user's to choose; anything
 * unknown falls back on `metadata.reason` or the first string value. Plain text.
 */
import type { EvaluationResult } from '../types/index.ts';
import { formatCount, plural } from './labels.ts';
import { ragReaders } from './rag-reason.ts';

type Metadata = Record<string, unknown>;

/** A reading of one built-in's metadata, or undefined when the shape is not its own. */
type Reader = (metadata: Metadata) => string | undefined;

const quote = (value: unknown): string =>
  typeof value === 'string' ? JSON.stringify(value) : compact(value);

function compact(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

const isNumber = (value: unknown): value is number => typeof value === 'number';

/**
 * A duration in whole milliseconds, or with the fewest decimals (up to 3, as recorded) that keep
 * it on its side of `limit`: 2000.4 against 2,000 is `2,000.4`, never `2,000 > max 2,000`.
 */
function shownMs(ms: number, limit: number): string {
  for (const digits of [0, 1, 2, 3]) {
    const shown = Number(ms.toFixed(digits));
    if (shown > limit === ms > limit && (shown === limit) === (ms === limit)) {
      return formatCount(shown);
    }
  }
  return formatCount(ms);
}

const readers: Reader[] = [
  // length: { length, unit, min, max }
  (m) => {
    if (!isNumber(m.length) || typeof m.unit !== 'string') return undefined;
    const size = plural(m.length, m.unit === 'words' ? 'word' : 'character');
    if (isNumber(m.max) && m.length > m.max) return `length ${size} > max ${formatCount(m.max)}`;
    if (isNumber(m.min) && m.length < m.min) return `length ${size} < min ${formatCount(m.min)}`;
    return `length ${size}`;
  },
  // latency: { durationMs, maxMs }
  (m) =>
    isNumber(m.durationMs) && isNumber(m.maxMs)
      ? `took ${shownMs(m.durationMs, m.maxMs)} ms ${m.durationMs > m.maxMs ? '>' : '≤'} max ${formatCount(m.maxMs)} ms`
      : undefined,
  // regex, match: none: { forbiddenMatch: { match, index } }
  (m) => {
    const found = m.forbiddenMatch as { match?: unknown; index?: unknown } | undefined;
    if (found === null || typeof found !== 'object') return undefined;
    return `regex matched ${quote(found.match)}${isNumber(found.index) ? ` at ${formatCount(found.index)}` : ''}`;
  },
  // regex, no match: { pattern, flags, actual }
  (m) =>
    typeof m.pattern === 'string' && typeof m.flags === 'string'
      ? `no match for /${m.pattern}/${m.flags} in ${quote(m.actual)}`
      : undefined,
  // has-all-substrings: { missingSubstrings }
  (m) => (m.missingSubstrings !== undefined ? `missing ${listOf(m.missingSubstrings)}` : undefined),
  // contains: { expectedAnyOf }
  (m) =>
    m.expectedAnyOf !== undefined ? `contains none of ${listOf(m.expectedAnyOf)}` : undefined,
  // levenshtein: { distance, maxDistance?, maxLength }
  (m) => {
    if (!isNumber(m.distance) || m.distance === 0) return undefined;
    const limit = isNumber(m.maxDistance)
      ? ` ${m.distance > m.maxDistance ? '>' : '≤'} max ${formatCount(m.maxDistance)}`
      : '';
    const of = isNumber(m.maxLength) ? ` of ${plural(m.maxLength, 'character')}` : '';
    return `${plural(m.distance, 'edit')}${limit}${of}: expected ${quote(m.expected)}, got ${quote(m.actual)}`;
  },
  // is-equals: { expected, actual, differsAt? }
  (m) =>
    Object.hasOwn(m, 'expected') && Object.hasOwn(m, 'actual')
      ? `expected ${quote(m.expected)}, got ${quote(m.actual)}${typeof m.differsAt === 'string' ? ` (differs at ${m.differsAt})` : ''}`
      : undefined,
  // json-schema: { errors, errorCount }
  (m) =>
    Array.isArray(m.errors) && isNumber(m.errorCount)
      ? `${formatCount(m.errorCount)} schema error${m.errorCount === 1 ? '' : 's'}: ${m.errors.map(String).join('; ')}`
      : undefined,
  // assertions: { failedRequired }
  (m) =>
    Array.isArray(m.failedRequired) && m.failedRequired.length > 0
      ? `required assertions failed: ${listOf(m.failedRequired)}`
      : undefined,
  // is-valid-json, json-schema on bad JSON: { error }
  (m) => (typeof m.error === 'string' ? m.error : undefined),
  ...ragReaders,
];

function listOf(value: unknown): string {
  return Array.isArray(value) ? value.map(quote).join(', ') : quote(value);
}

/**
 * Why an evaluation scored as it did, or null when its metadata says nothing readable (errored
 * evaluations have none: their error says it).
 */
export function reasonOf(evaluation: Pick<EvaluationResult, 'error' | 'metadata'>): string | null {
  if (evaluation.error !== null || evaluation.metadata === null) return null;
  const metadata = evaluation.metadata;
  if (typeof metadata.reason === 'string' && metadata.reason.trim() !== '') return metadata.reason;
  for (const read of readers) {
    const reason = read(metadata);
    if (reason !== undefined) return reason;
  }
  for (const [key, value] of Object.entries(metadata)) {
    if (typeof value === 'string' && value.trim() !== '') return `${key}: ${value}`;
  }
  return null;
}

/**
 * {@link reasonOf}, with the trial it came from in front (`trial 2: expected "Paris", got
 * "Lyon"`) when the case ran several trials: a case's evaluation then explains one failing trial
 * of them, named by `metadata.fromTrial` (see `fromTrial` in docs/artifact.md). The terminal
 * summary, `evals show` and the JUnit message all say it so.
 */
export function reasonWithTrial(
  evaluation: Pick<EvaluationResult, 'error' | 'metadata'>,
  hasTrials: boolean,
): string | null {
  const reason = reasonOf(evaluation);
  const fromTrial = evaluation.metadata?.fromTrial;
  if (reason === null || !hasTrials || typeof fromTrial !== 'number') return reason;
  return `trial ${formatCount(fromTrial)}: ${reason}`;
}
