/**
 * What a case's detail diffs: what the case expected, set against what an evaluation actually
 * compared with it. `is-equals` and `levenshtein` record both sides of a comparison that did not
 * match (`metadata.expected`, `metadata.actual`); when the actual side is a field of the output
 * (`actual: "{{output.answer}}"`), diffing the whole output against the expected text would show
 * every other field as a difference, so the diff is against that field, and says so.
 */
import { characterCount } from '../shared/cut-text.ts';
import type { CaseResult } from '../types/index.ts';

/** The two sides of a case's diff. */
export interface ComparedView {
  /** What the case expected, as shown under "Expected". */
  expected: string;
  /** What the diff sets against it; null for the whole output (the case's own, not copied). */
  actual: string | null;
  /**
   * What `actual` is, in words: `output.answer (what exact compared)`, `the output (what exact
   * compared)`, `the value exact compared, as it recorded it`, or `the whole output`.
   */
  what: string;
}

/** Data fields that hold what the output should be, in the order they are preferred. */
const EXPECTED_FIELDS = ['expected', 'expected_output', 'expectedOutput', 'reference', 'answer'];

/** `… (1,234 more characters)`: how the evaluators' metadata ends a value it cut. */
const CUT_NOTE = /\u2026 \((\d[\d,]*) more characters?\)$/;

/** Values of an output looked at when finding the field an evaluator compared. */
const MAX_VISITED = 2000;
const MAX_DEPTH = 6;

/**
 * The diff of `result`: an evaluation's `expected` with the `actual` it recorded (the whole
 * value, from the output or the data, when the recorded one was cut), else a data field named
 * for the expected value against the whole output. Null when nothing says what was expected.
 */
export function comparedOf(
  result: CaseResult,
  show: (value: unknown) => string,
): ComparedView | null {
  const recorded =
    result.evaluations.find(
      (e) => e.metadata?.expected !== undefined && e.metadata.actual !== undefined,
    ) ?? result.evaluations.find((e) => e.metadata?.expected !== undefined);
  if (recorded !== undefined && recorded.metadata) {
    const expected = whole(recorded.metadata.expected, result.data);
    if (recorded.metadata.actual === undefined) {
      return { expected: show(expected.value), actual: null, what: 'the whole output' };
    }
    const actual = whole(recorded.metadata.actual, result.output);
    const id = recorded.evaluator;
    const what =
      actual.path === null
        ? `the value ${id} compared, as it recorded it${isCut(recorded.metadata.actual) ? ' (cut)' : ''}`
        : actual.path === ''
          ? `the output (what ${id} compared)`
          : actual.others.length === 0
            ? `output${actual.path} (what ${id} compared)`
            : `${fieldNames([actual.path, ...actual.others])} (the same value; what ${id} compared)`;
    return { expected: show(expected.value), actual: show(actual.value), what };
  }
  const data = result.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return null;
  const fields = data as Record<string, unknown>;
  const key = EXPECTED_FIELDS.find(
    (field) => fields[field] !== undefined && fields[field] !== null,
  );
  if (key === undefined) return null;
  return { expected: show(fields[key]), actual: null, what: 'the whole output' };
}

/**
 * The value `recorded` stands for: the value inside `within` (an output, a case's data) whose
 * text it is, whole even when the record was cut, with its path (`.answer`, `[2].name`, '' for
 * `within` itself); else the record itself, with no path.
 */
function whole(
  recorded: unknown,
  within: unknown,
): { value: unknown; path: string | null; others: string[] } {
  const text = textOf(recorded);
  const cut = typeof recorded === 'string' ? CUT_NOTE.exec(recorded) : null;
  const prefix = cut === null ? null : text.slice(0, cut.index);
  const left = cut === null ? -1 : Number(cut[1]?.replace(/,/g, ''));
  const matches = (value: unknown): boolean => {
    const candidate = textOf(value);
    if (candidate === text) return true;
    if (prefix === null || !candidate.startsWith(prefix)) return false;
    // The note counts characters; artifacts written before it did counted UTF-16 units.
    const rest = candidate.length - prefix.length;
    return (
      rest === left || (rest > left && characterCount(candidate.slice(prefix.length)) === left)
    );
  };
  let visited = 0;
  // Breadth first, so the shallowest match wins (the output itself before a field equal to it).
  const queue: { value: unknown; path: string; depth: number }[] = [
    { value: within, path: '', depth: 0 },
  ];
  for (let at = 0; at < queue.length && visited < MAX_VISITED; at++) {
    const { value, path, depth } = queue[at] as (typeof queue)[number];
    visited++;
    if (matches(value)) {
      // Fields as shallow that hold the same text: which one the evaluator read, the record
      // cannot tell (`{{output.a}}` or `{{output.b}}`), so the heading names them all.
      const others = queue
        .slice(at + 1)
        .filter((entry) => entry.depth === depth && matches(entry.value))
        .map((entry) => entry.path);
      return { value, path, others };
    }
    if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) continue;
    const entries = Array.isArray(value)
      ? value.map((item, i): [string, unknown] => [`[${i}]`, item])
      : Object.entries(value as Record<string, unknown>).map(([key, item]): [string, unknown] => [
          memberPath(key),
          item,
        ]);
    for (const [step, item] of entries)
      queue.push({ value: item, path: path + step, depth: depth + 1 });
  }
  return { value: recorded, path: null, others: [] };
}

/** `output.a or output.b`, `output.a, output.b, output.c or 2 more`: fields holding one value. */
function fieldNames(paths: readonly string[]): string {
  const all = paths.map((path) => `output${path}`);
  const listed = all.length > 4 ? [...all.slice(0, 3), `${all.length - 3} more`] : all;
  return `${listed.slice(0, -1).join(', ')} or ${listed[listed.length - 1]}`;
}

/** The text an evaluator compares: a string as it is, anything else as its JSON. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

function isCut(recorded: unknown): boolean {
  return typeof recorded === 'string' && CUT_NOTE.test(recorded);
}

/** `.name` for identifier-like keys, `["odd key"]` for the rest. */
function memberPath(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}
