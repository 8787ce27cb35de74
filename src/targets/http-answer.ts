/**
 * What an http target makes of a 2xx answer: the JSON value it holds, the value at the target's
 * `output:` path, or its text; or a case error saying why there is no output to score.
 */
import type { TargetOutput } from '../types/index.ts';
import { describeJsonError } from '../shared/json-syntax.ts';
import { textOutput } from '../shared/line-ends.ts';
import { oneLine } from '../shared/one-line.ts';

/** How much of an answer's body an error quotes. */
export const BODY_EXCERPT = 500;

/** The output of a 2xx answer: the path into its JSON, or the whole answer. */
export function answerOutput(
  text: string,
  contentType: string | null,
  path: { keys: readonly string[]; text: string } | undefined,
  scrub: (text: string) => string,
  answeredAs: string,
): TargetOutput {
  // A text answer is scored as a command's stdout is: LF line ends, no trailing line breaks.
  const answerText = textOutput(text);
  let json: unknown;
  let isJson = true;
  let notJson = '';
  try {
    json = JSON.parse(text);
  } catch (error) {
    isJson = false;
    // Where and why, counted in the answer as it came; what it quotes is scrubbed before it is
    // cut short, so a key echoed there does not show as a piece no scrubbing recognises.
    notJson = describeJsonError(text, error, scrub);
  }
  if (path === undefined) {
    // A JSON answer is the value it holds; a text answer (or JSON sent as text/plain) its text.
    const saysJson = contentType !== null && /\bjson\b/i.test(contentType);
    if (isJson && json === null && (saysJson || contentType === null)) {
      return { output: json, error: `${answeredAs} with the JSON body null: no output to score` };
    }
    if (isJson && (saysJson || contentType === null)) return { output: json };
    // Said to be JSON and not (cut short, an error page, nothing at all): its text is no answer
    // to score; an empty one would pass every check that something is not there.
    if (saysJson && text.trim() === '') {
      return {
        output: answerText,
        error: `${answeredAs} with an empty body, though its content-type (${contentType}) says it is JSON`,
      };
    }
    if (saysJson) {
      return {
        output: answerText,
        error: `${answeredAs} with a body that is not JSON, though its content-type (${contentType}) says it is: ${notJson}: ${excerptOf(scrub(text))}`,
      };
    }
    return { output: answerText };
  }
  if (!isJson) {
    const cannot = `so output: ${path.text} cannot be read from it`;
    return {
      output: answerText,
      error:
        text.trim() === ''
          ? `${answeredAs} with an empty body, ${cannot}`
          : `${answeredAs} with a body that is not JSON (${notJson}), ${cannot}: ${excerptOf(scrub(text))}`,
    };
  }
  let current = json;
  const { keys } = path;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const next =
      Array.isArray(current) && /^\d+$/.test(key)
        ? (current as unknown[])[Number(key)]
        : current !== null && typeof current === 'object' && Object.hasOwn(current, key)
          ? (current as Record<string, unknown>)[key]
          : undefined;
    if (next === undefined) {
      const walked = keys
        .slice(0, i + 1)
        .map((step, n) => (/^\d+$/.test(step) && n > 0 ? `[${step}]` : n > 0 ? `.${step}` : step))
        .join('');
      // What is there instead says whether the path or the server is wrong (a typo in a key,
      // an error object in place of the data, a list where one item was expected).
      const parent = i === 0 ? 'the answer' : walked.slice(0, walked.length - stepText(key, i));
      return {
        output: json,
        error: `${answeredAs}, but the answer has no ${walked} (output: ${path.text}; ${parent} is ${shapeOf(current, scrub)}): ${excerptOf(scrub(text))}`,
      };
    }
    current = next;
  }
  // A null where the answer should be (`{ "answer": null, "error": "…" }`) is no answer: scored,
  // it would pass every check that something is not there.
  if (current === null) {
    return {
      output: json,
      error: `the answer's ${path.text} is null (output: ${path.text}), so there is no output to score: ${excerptOf(scrub(text))}`,
    };
  }
  return { output: current };
}

/** The length of step `key` (the `i`-th) as `walked` writes it: `.key`, `[3]`, or `key` first. */
function stepText(key: string, i: number): number {
  return /^\d+$/.test(key) && i > 0 ? key.length + 2 : i > 0 ? key.length + 1 : key.length;
}

/** How many keys a missing path's message names. */
const KEYS_NAMED = 8;
/** Characters of each key named. */
const KEY_CHARS = 40;

/**
 * What a value is, for a path that found no key in it: `an object whose keys are "text", "id"`,
 * `a list of 3 items`, `a string`. Keys are scrubbed before they are cut (an answer may echo a
 * key back as a key).
 */
function shapeOf(value: unknown, scrub: (text: string) => string): string {
  if (Array.isArray(value)) return `a list of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (value === null) return 'null';
  if (typeof value !== 'object') return `a ${typeof value}`;
  const keys = Object.keys(value);
  if (keys.length === 0) return 'an empty object';
  const named = keys.slice(0, KEYS_NAMED).map((key) => {
    const shown = oneLine(scrub(key));
    return JSON.stringify(shown.length > KEY_CHARS ? `${shown.slice(0, KEY_CHARS)}\u2026` : shown);
  });
  const more = keys.length - named.length;
  const list = `${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
  return keys.length === 1
    ? `an object whose only key is ${list}`
    : `an object whose keys are ${list}`;
}

/**
 * An answer whose output is text of only white space (an empty body, `""`, or `{"answer": ""}`
 * at `output: answer`) made a case error: scored, it would pass every check that something is
 * not there, as a command's empty stdout and a model's empty reply would. `allowEmptyOutput:
 * true` on the target keeps it.
 */
export function refuseEmpty(
  answer: TargetOutput,
  answeredAs: string,
  path: { text: string } | undefined,
): TargetOutput {
  const { output } = answer;
  if (answer.error !== undefined || typeof output !== 'string' || output.trim() !== '') {
    return answer;
  }
  // Empty, or only white space: the body, or the JSON string it holds.
  const what =
    path !== undefined ? `an empty ${path.text} (output: ${path.text})` : 'an empty answer';
  return {
    output,
    error: `${answeredAs} with ${what}: no output to score (allowEmptyOutput: true on the target scores it as it is)`,
  };
}

/**
 * At most `BODY_EXCERPT` characters of a body, on one line (a pretty-printed JSON error or an
 * HTML page would otherwise show only its first line in one-line reports), a long one cut in
 * the middle: an error body may start with what failed and end with why (a traceback). An
 * error's body is its first 2 KB (`JudgeError.raw`).
 */
export function excerptOf(text: string): string {
  const line = oneLine(text);
  if (line.length <= BODY_EXCERPT) return line;
  const head = Math.floor(BODY_EXCERPT / 3);
  return `${line.slice(0, head)} … ${line.slice(line.length - (BODY_EXCERPT - head))}`;
}
