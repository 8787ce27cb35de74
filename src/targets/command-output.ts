/**
 * What a `command` target with `output: json` makes of the program's stdout: the one JSON value
 * it printed, or a case error saying why there is none to score.
 */
import { describeJsonError } from '../shared/json-syntax.ts';
import type { TargetOutput } from '../types/index.ts';

/**
 * The JSON value `text` (stdout without its trailing line breaks) holds. Nothing printed, or
 * JSON's `null`, is no answer: scored, it would pass every check that something is not there
 * (`not: true` on a regex, a maximum length). `scrub` cleans what a syntax error quotes.
 */
export function jsonStdout(text: string, scrub: (text: string) => string): TargetOutput {
  if (text.trim() === '') {
    const nothing = 'the program printed nothing, where one JSON value was expected';
    return { output: text, error: `stdout is empty (output: json): ${nothing}` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // Where and why, as for a testset: a log line before the JSON, or a second value after it.
    return {
      output: text,
      error: `stdout is not JSON (output: json): ${describeJsonError(text, error, scrub)}`,
    };
  }
  if (value === null) {
    return { output: null, error: 'stdout is the JSON null (output: json): no output to score' };
  }
  return { output: value };
}
