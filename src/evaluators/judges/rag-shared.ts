/**
 * What the RAG evaluators share: where the question, the answer, the retrieved contexts and the
 * reference come from when no option names them, their option schemas, and the approximate
 * text matching behind `context-precision` and `context-recall`.
 *
 * Everything here is pure. A value that is unusable for one case is thrown as an `OptionError`,
 * which the engine records as that case's evaluation error.
 */
import { describeValue } from '../../shared/errors.ts';
import type { EvaluatorArgs } from '../../types/index.ts';
import { LEVENSHTEIN_CELL_BUDGET } from '../../shared/edit-distance.ts';
import { withoutNoise } from '../../shared/float-noise.ts';
import { WHOLE_TEMPLATE_SCHEMA, orTemplate } from '../option-schemas.ts';
import { OptionError, textOf, type OptionValues } from '../options.ts';
import { isRecord } from '../../shared/is-record.ts';

type CaseArgs = Pick<EvaluatorArgs, 'testCase' | 'output'>;

function optionError(message: string): OptionError {
  return new OptionError('evaluator.option', message);
}

export const CONTEXTS_OPTION = {
  description:
    'The retrieved passages: an array of strings, or one string for a single passage. Default: the output\'s "contexts" array when the output is an object that has one, else the case\'s "contexts".',
  anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
} as const;

export const ANSWER_OPTION = {
  description:
    'The generated answer. Default: the output\'s "answer" string when the output is an object that has one, else the whole output (a non-string value as JSON).',
} as const;

export const QUESTION_OPTION = {
  type: 'string',
  description: 'The question that was asked. Default: the case\'s "question", else its "input".',
} as const;

export const REFERENCE_OPTION = {
  type: 'string',
  description:
    'The reference answer, matched sentence by sentence. Default: the case\'s "reference", else its "expected". Not together with expectedContexts.',
} as const;

export const EXPECTED_CONTEXTS_OPTION = orTemplate(
  'Passages or facts the retrieval should find, each matched as a whole; used instead of reference.',
  { type: 'array', items: { type: 'string' } },
);

/** Found means at least this similar; see `approximateFind` for the measure. */
export const DEFAULT_MIN_SIMILARITY = 0.7;

export const MIN_SIMILARITY_OPTION = {
  description: `How close (0–1) a reference item must come to some stretch of a context to count as found: 1 − edit distance / item length. Default: ${DEFAULT_MIN_SIMILARITY}.`,
  anyOf: [
    { type: 'number', minimum: 0, maximum: 1 },
    {
      ...WHOLE_TEMPLATE_SCHEMA,
      patternErrorMessage: 'expected a number from 0 to 1 or a whole-value {{ template }}',
    },
  ],
};

/** A string, or an array of strings, as a list of passages; anything else is refused. */
function passages(value: unknown, where: string): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
  throw optionError(
    `${where} must be a string or an array of strings, found ${describeValue(value)}`,
  );
}

/**
 * The retrieved contexts, in retrieval order. The output is looked at first because a RAG
 * pipeline usually returns what it retrieved next to its answer; a testset column comes second
 * for pipelines evaluated on recorded retrievals.
 */
export function contextsOf(values: OptionValues, { testCase, output }: CaseArgs): string[] {
  if (values.contexts !== undefined) return passages(values.contexts, 'option "contexts"');
  if (isRecord(output) && Array.isArray(output.contexts)) {
    return passages(output.contexts, 'the output\'s "contexts"');
  }
  if (testCase.contexts !== undefined) return passages(testCase.contexts, 'the case\'s "contexts"');
  throw optionError(
    'no contexts: set option "contexts", return { contexts: [...] } from the function, or give the case a "contexts" column',
  );
}

/** The answer under test as text (see ANSWER_OPTION). */
export function answerOf(values: OptionValues, { output }: CaseArgs): string {
  if (Object.hasOwn(values, 'answer')) return textOf(values.answer);
  if (isRecord(output) && typeof output.answer === 'string') return output.answer;
  return textOf(output);
}

/** The question (see QUESTION_OPTION); `undefined` when there is none and it is optional. */
export function questionOf(
  values: OptionValues,
  { testCase }: CaseArgs,
  required: boolean,
): string | undefined {
  const given = values.question;
  if (given !== undefined) {
    if (typeof given !== 'string') {
      throw optionError(`option "question" must be a string, found ${describeValue(given)}`);
    }
    return given;
  }
  for (const key of ['question', 'input']) {
    if (typeof testCase[key] === 'string') return testCase[key];
  }
  if (!required) return undefined;
  throw optionError(
    'no question: set option "question" (e.g. "{{case.prompt}}") or give the case a "question" or "input" string',
  );
}

/** What context matching looks for: reference sentences, or expected passages as given. */
export interface ReferenceItems {
  source: 'reference' | 'expectedContexts';
  items: string[];
}

/**
 * The reference items of `context-precision` and `context-recall`. A reference answer is
 * split into sentences because a single context rarely holds all of it, while each of its
 * statements should appear somewhere; expected contexts are already units and stay whole.
 * Blank items are dropped; nothing left is an error, since a blank reference (often an empty
 * CSV cell) would otherwise score as if retrieval had failed.
 */
export function referenceItemsOf(values: OptionValues, { testCase }: CaseArgs): ReferenceItems {
  let result: ReferenceItems;
  if (values.expectedContexts !== undefined) {
    const expected = values.expectedContexts;
    if (!Array.isArray(expected) || !expected.every((item) => typeof item === 'string')) {
      throw optionError(
        `option "expectedContexts" must be an array of strings, found ${describeValue(expected)}`,
      );
    }
    result = { source: 'expectedContexts', items: expected.filter((item) => item.trim() !== '') };
  } else {
    const reference = referenceText(values, testCase);
    result = { source: 'reference', items: splitSentences(reference) };
  }
  if (result.items.length === 0) {
    throw optionError(`option "${result.source}" has no text to look for in the contexts`);
  }
  return result;
}

/** The reference answer (see REFERENCE_OPTION), as written. */
export function referenceText(values: OptionValues, testCase: Record<string, unknown>): string {
  const given = values.reference;
  if (given !== undefined) {
    if (typeof given !== 'string') {
      throw optionError(`option "reference" must be a string, found ${describeValue(given)}`);
    }
    return given;
  }
  for (const key of ['reference', 'expected']) {
    if (typeof testCase[key] === 'string') return testCase[key];
  }
  throw optionError(
    'no reference: set option "reference" or "expectedContexts", or give the case a "reference" or "expected" string',
  );
}

/**
 * The option `minSimilarity` in [0, 1]. A numeric string is accepted because a template over a
 * CSV cell always yields a string.
 */
export function minSimilarityOf(values: OptionValues): number {
  const value = values.minSimilarity;
  if (value === undefined) return DEFAULT_MIN_SIMILARITY;
  const number =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value)
        : Number.NaN;
  if (!(number >= 0 && number <= 1)) {
    throw optionError(
      `option "minSimilarity" must be a number from 0 to 1, found ${describeValue(value)}`,
    );
  }
  return number;
}

/**
 * The options of `context-precision` and `context-recall`, which match the same way. A new
 * object per call: the precompiled validators (scripts/gen-validators.ts) are keyed by schema
 * identity, and two built-ins sharing one object would get one validator emitted twice.
 */
export function matchingOptionsSchema(): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      contexts: CONTEXTS_OPTION,
      reference: REFERENCE_OPTION,
      expectedContexts: EXPECTED_CONTEXTS_OPTION,
      minSimilarity: MIN_SIMILARITY_OPTION,
    },
    additionalProperties: false,
  };
}

/** Load-time checks of the matching options; templated values are checked per case. */
export function validateMatchingOptions(
  options: Record<string, unknown>,
): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  if (options.reference !== undefined && options.expectedContexts !== undefined) {
    problems.push({
      path: 'expectedContexts',
      message: 'give either reference or expectedContexts, not both',
    });
  }
  return problems;
}

/**
 * Created on first use: building a segmenter loads ICU data (~15 ms and a few MB), which every
 * `evals run` would otherwise pay at start-up whether or not a RAG evaluator is configured.
 */
let segmenter: Intl.Segmenter | undefined;

/**
 * The sentences of `text`, trimmed, blanks dropped. ICU's sentence rules keep decimals and
 * common abbreviations ("e.g.") inside their sentence; line breaks always end one, since
 * references are often written as lists.
 */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    segmenter ??= new Intl.Segmenter('en', { granularity: 'sentence' });
    for (const { segment } of segmenter.segment(line)) {
      const sentence = segment.trim();
      if (sentence !== '') sentences.push(sentence);
    }
  }
  return sentences;
}

/** Case and runs of white space do not count as differences when matching. */
function matchForm(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

function codePoints(text: string): number[] {
  return Array.from(text, (char) => char.codePointAt(0) ?? 0);
}

/** How well `item` occurs in some context; `exact: false` when the cell budget cut it short. */
export interface FindResult {
  similarity: number;
  exact: boolean;
}

/**
 * How closely `needle` occurs somewhere inside `haystack`: 1 − d / (needle length), where d is
 * the fewest insertions, deletions and substitutions turning the needle into some substring of
 * the haystack (case and white space ignored). A plain Levenshtein similarity against the
 * whole context would count every character of the context around the match as a difference,
 * so a context quoting the reference word for word would still score low; here the text
 * around the match is free. 1 for an exact occurrence; an empty needle occurs everywhere.
 *
 * Past `budget` dynamic-programming cells only an exact occurrence is recognised (similarity 1
 * or 0, `exact: false`), which keeps a huge context from stalling the run.
 */
export function approximateFind(
  needle: string,
  haystack: string,
  budget = LEVENSHTEIN_CELL_BUDGET,
): FindResult {
  const wanted = matchForm(needle);
  const searched = matchForm(haystack);
  if (searched.includes(wanted)) return { similarity: 1, exact: true };
  const a = codePoints(wanted);
  const b = codePoints(searched);
  const m = a.length;
  if (m * b.length > budget) return { similarity: 0, exact: false };
  // One column of the table per haystack position, updated in place: column[i] is the cheapest
  // way to match the first i needle characters ending here. Row 0 is 0 in every column, so a
  // match may start anywhere; the first column is i (nothing of the haystack used yet).
  const column = Uint32Array.from({ length: m + 1 }, (_, i) => i);
  let best = m;
  for (const char of b) {
    let diagonal = 0;
    let above = 0;
    for (let i = 1; i <= m; i++) {
      const left = column[i] ?? 0;
      let cost = diagonal + (a[i - 1] === char ? 0 : 1);
      if (left + 1 < cost) cost = left + 1;
      if (above + 1 < cost) cost = above + 1;
      column[i] = cost;
      diagonal = left;
      above = cost;
    }
    if (above < best) best = above;
  }
  // Rounded as every derived value is: 1 − 4/5 computes as 0.19999999999999996, which would
  // miss a `minSimilarity: 0.2` it equals (shared/float-noise.ts).
  return { similarity: withoutNoise(1 - best / m), exact: true };
}

/** Scores for metadata: three decimals are plenty to read, and keep the artifact small. */
export function rounded(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** The contexts as numbered passages for a judge prompt, fenced so passage text reads as data. */
export function formatContexts(contexts: readonly string[]): string {
  if (contexts.length === 0) return '(no passages were retrieved)';
  return contexts.map((text, index) => `<passage ${index + 1}>\n${text}\n</passage>`).join('\n');
}

/**
 * Most dynamic-programming cells spent on one evaluation's matches, all pairs together: many
 * items against many long contexts must not add up to seconds per case, so the whole
 * evaluation gets what one `levenshtein` comparison may spend.
 */
export const MATCH_CELL_BUDGET = LEVENSHTEIN_CELL_BUDGET;

/**
 * `approximateFind` of every item in every context: `result[i][k]` for item i in context k.
 * `exact` is false when some pair ran past the shared budget (it then counted exact
 * occurrences only).
 */
export function matchItems(
  items: readonly string[],
  contexts: readonly string[],
  budget = MATCH_CELL_BUDGET,
): { similarities: number[][]; exact: boolean } {
  let remaining = budget;
  let exact = true;
  const similarities = items.map((item) =>
    contexts.map((context) => {
      const cells = item.length * context.length;
      const found = approximateFind(item, context, remaining);
      if (found.exact) {
        remaining = Math.max(0, remaining - cells);
      } else {
        exact = false;
      }
      return found.similarity;
    }),
  );
  return { similarities, exact };
}
