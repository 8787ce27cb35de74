/**
 * The local store of human overrides: `evals-overrides.jsonl` next to evals.yaml, one JSON
 * object a line, appended by `evals override` and meant to be committed (people's labels are
 * worth keeping, unlike `.evalgate/`). Judges read the most recent ones for their evaluator id
 * as examples: `llm-judge` with `overrides: N`, `BaseLLMJudge` with `numOverrides`.
 *
 * The text is pure data here (parse, select, serialize, prompt examples); reading it is the
 * small function at the end, as for the battle baselines.
 */
import { join } from 'node:path';
import { describeValue } from '../../shared/errors.ts';
import { isRecord } from '../../shared/is-record.ts';
import { readRegularFileSync } from '../../shared/regular-file.ts';
import { scrubbedCut } from '../metadata.ts';

/** The store's file name, in the config's folder (or the folder `runTestSuite` runs in). */
export const OVERRIDES_FILE = 'evals-overrides.jsonl';

/** The most of the store read: far beyond any hand-labelled set, short of exhausting memory. */
const MAX_STORE_BYTES = 256 * 2 ** 20;

/** A score as the SDK's overrides carry it: the value and, for a judge's choice, its name. */
export interface OverrideScore {
  value: number;
  name?: string;
}

/**
 * A human's correction of a judge's verdict, as the store keeps it. The SDK classes hand
 * `makePrompt` the Autoblocks SDK's shape of it instead (sdk/overrides.ts).
 */
export interface OverrideEntry {
  originalScore: OverrideScore;
  overrideScore: OverrideScore;
  /** The case's fields, each as text (non-strings as JSON). */
  inputFields: Record<string, string>;
  /** `{ output: <the output as text> }`. */
  outputFields: Record<string, string>;
  comments?: string;
}

/** One line of the store: the override, whose verdict it corrects, and when. */
export interface StoredOverride extends OverrideEntry {
  evaluator: string;
  suite: string;
  caseId: string;
  /** ISO 8601. */
  createdAt: string;
}

/** The `code` of an `OverridesFileError`. */
export const OVERRIDES_INVALID = 'overrides.invalid';

/** A line of the store that is not a valid override; the message starts with `file:line:`. */
export class OverridesFileError extends Error {
  readonly code = OVERRIDES_INVALID;
  constructor(
    readonly file: string,
    readonly line: number,
    /** What is wrong, without the location. */
    readonly problem: string,
  ) {
    super(`${file}:${line}:1: ${problem}`);
    this.name = 'OverridesFileError';
  }
}

function score(value: unknown, key: string): OverrideScore | string {
  if (!isRecord(value))
    return `"${key}" must be an object { value, name? }, found ${describeValue(value)}`;
  const v = value.value;
  if (typeof v !== 'number' || !Number.isFinite(v)) {
    return `"${key}.value" must be a number, found ${describeValue(v)}`;
  }
  if (value.name !== undefined && typeof value.name !== 'string') {
    return `"${key}.name" must be a string, found ${describeValue(value.name)}`;
  }
  return { value: v, ...(typeof value.name === 'string' ? { name: value.name } : {}) };
}

function textFields(value: unknown, key: string): Record<string, string> | string {
  if (!isRecord(value))
    return `"${key}" must be an object of strings, found ${describeValue(value)}`;
  for (const [field, text] of Object.entries(value)) {
    if (typeof text !== 'string') {
      return `"${key}.${field}" must be a string, found ${describeValue(text)}`;
    }
  }
  return value as Record<string, string>;
}

/** One parsed line as an override, or what is wrong with it. */
function readOverride(value: unknown): StoredOverride | string {
  if (!isRecord(value)) return `expected a JSON object, found ${describeValue(value)}`;
  for (const key of ['evaluator', 'suite', 'caseId', 'createdAt'] as const) {
    if (typeof value[key] !== 'string' || value[key] === '') {
      return `"${key}" must be a non-empty string, found ${describeValue(value[key])}`;
    }
  }
  const original = score(value.originalScore, 'originalScore');
  if (typeof original === 'string') return original;
  const override = score(value.overrideScore, 'overrideScore');
  if (typeof override === 'string') return override;
  const inputFields = textFields(value.inputFields, 'inputFields');
  if (typeof inputFields === 'string') return inputFields;
  const outputFields = textFields(value.outputFields, 'outputFields');
  if (typeof outputFields === 'string') return outputFields;
  if (value.comments !== undefined && typeof value.comments !== 'string') {
    return `"comments" must be a string, found ${describeValue(value.comments)}`;
  }
  return {
    evaluator: value.evaluator as string,
    suite: value.suite as string,
    caseId: value.caseId as string,
    createdAt: value.createdAt as string,
    originalScore: original,
    overrideScore: override,
    inputFields,
    outputFields,
    ...(typeof value.comments === 'string' ? { comments: value.comments } : {}),
  };
}

/**
 * The overrides of a store's text, in file order. Blank lines are skipped; any other line that
 * is not an override throws an `OverridesFileError` naming `file` and the line.
 */
export function parseOverrides(text: string, file: string): StoredOverride[] {
  const overrides: StoredOverride[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new OverridesFileError(
        file,
        index + 1,
        'expected a JSON object, found text that is not JSON',
      );
    }
    const read = readOverride(value);
    if (typeof read === 'string') throw new OverridesFileError(file, index + 1, read);
    overrides.push(read);
  });
  return overrides;
}

/** One store line (with its line break) for `override`. */
export function serializeOverride(override: StoredOverride): string {
  return `${JSON.stringify(override)}\n`;
}

/**
 * The `count` most recent overrides of `evaluator`, newest first, as the SDK passes them to
 * `makePrompt`. A case overridden again counts once, with its latest label: the store is
 * append-only, so a correction of a correction is a new line.
 */
export function recentOverrides(
  stored: readonly StoredOverride[],
  evaluator: string,
  count: number,
): OverrideEntry[] {
  const picked: OverrideEntry[] = [];
  const seen = new Set<string>();
  for (let i = stored.length - 1; i >= 0 && picked.length < count; i--) {
    const entry = stored[i];
    if (entry === undefined || entry.evaluator !== evaluator) continue;
    const key = JSON.stringify([entry.suite, entry.caseId]);
    if (seen.has(key)) continue;
    seen.add(key);
    const { evaluator: _e, suite: _s, caseId: _c, createdAt: _t, ...override } = entry;
    picked.push(override);
  }
  return picked;
}

/** An example's output is cut here: the examples should not crowd out the case judged. */
const EXAMPLE_OUTPUT_LIMIT = 2000;

function scoreText(score: OverrideScore): string {
  return score.name !== undefined ? `${score.name} (${score.value})` : String(score.value);
}

/**
 * The overrides as examples for a judge prompt, fenced like the rest of the prompt's data;
 * `''` for none. `names` turns a score back into the judge's choice name when it has one.
 * `scrub` (the run's) goes over an example's output before it is cut: cut first, a secret's
 * first characters would reach the judge, and its cache, unrecognised.
 */
export function overrideExamples(
  overrides: readonly OverrideEntry[],
  names: Readonly<Record<string, number>> = {},
  scrub?: (text: string) => string,
): string {
  if (overrides.length === 0) return '';
  const cut = scrubbedCut(scrub);
  const nameOf = (s: OverrideScore): OverrideScore => {
    const name = s.name ?? Object.entries(names).find(([, value]) => value === s.value)?.[0];
    return name !== undefined ? { ...s, name } : s;
  };
  const blocks = overrides.map((o, i) =>
    [
      `<example ${i + 1}>`,
      `Input: ${JSON.stringify(o.inputFields)}`,
      `Output: ${cut(Object.values(o.outputFields).join('\n'), EXAMPLE_OUTPUT_LIMIT)}`,
      `Judged: ${scoreText(nameOf(o.originalScore))}; a human corrected it to: ${scoreText(nameOf(o.overrideScore))}`,
      ...(o.comments !== undefined ? [`Why: ${o.comments}`] : []),
      `</example ${i + 1}>`,
    ].join('\n'),
  );
  return [
    'Earlier verdicts that a human corrected; judge alike cases the way the human did:',
    ...blocks,
  ].join('\n');
}

/** The store in `dir`, parsed; none when the file does not exist. */
export function readOverrides(dir: string): StoredOverride[] {
  const path = join(dir, OVERRIDES_FILE);
  let text: string;
  try {
    text = readRegularFileSync(path, MAX_STORE_BYTES).toString('utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return [];
    // A FIFO or a device in its place would block or never end: refused where it is.
    if (code === 'ENOTREG' || code === 'EISDIR' || code === 'EFBIG') {
      throw new OverridesFileError(path, 1, (error as Error).message);
    }
    throw error;
  }
  return parseOverrides(text, path);
}
