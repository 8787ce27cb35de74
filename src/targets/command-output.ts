/**
 * What a `command` target with `output: json` makes of the program's stdout: the one JSON value
 * it printed, or a case error saying why there is none to score.
 */
import { describeJsonError } from '../shared/json-syntax.ts';
import type { TargetOutput } from '../types/index.ts';
import type { CommandTargetConfig } from '../config/types.ts';
import { textOutput } from '../shared/line-ends.ts';

/** Lines of stderr a failure shows. */
export const STDERR_LINES = 20;

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

/** How one process ended. */
export interface Ran {
  stdout: string;
  /** Why stdout is not UTF-8 (`stdout` then has U+FFFD in place of the bad bytes). */
  notUtf8?: string;
  stderrTail: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Why evalgate ended it or could not start it, when it did. */
  failure?: string;
}

/** The case's output or error from how its process ended. */
export function outcome(
  ran: Ran,
  config: Pick<CommandTargetConfig, 'output'> & { allowEmptyOutput?: boolean },
  scrub: (text: string) => string,
): TargetOutput {
  const format = config.output;
  // CRLF read as LF, as the testset's cells are, then without its trailing line breaks.
  const text = textOutput(ran.stdout);
  const stderr = lastLines(ran.stderrTail, STDERR_LINES);
  const withStderr = (message: string): string =>
    stderr === '' ? message : `${message}; stderr:\n${stderr}`;
  if (ran.failure !== undefined) return { output: text, error: withStderr(ran.failure) };
  if (ran.signal !== null) return { output: text, error: withStderr(killedBy(ran.signal)) };
  if (ran.code !== 0)
    return { output: text, error: withStderr(`the command exited with code ${ran.code}`) };
  if (ran.notUtf8 !== undefined) return { output: text, error: ran.notUtf8 };
  if (format === 'json') return jsonStdout(text, scrub);
  // Nothing printed is no answer: scored as "" it would pass every check that something is not
  // there. Its exit code and stderr say what happened instead (a tool that logs and exits 0).
  if (text.trim() === '' && config.allowEmptyOutput !== true) {
    const what = text === '' ? 'printed nothing' : 'printed only white space';
    const message = `stdout is empty (output: text): the command exited with code 0 and ${what} to score (allowEmptyOutput: true on the target scores it as it is)`;
    return {
      output: text,
      error: stderr === '' ? message : `${message}; stderr:\n${scrub(stderr)}`,
    };
  }
  return { output: text };
}

/**
 * Why a command ended by a signal it did not get from evalgate (a time-out says so itself): what
 * usually sends it, since `killed by SIGKILL` alone does not say whether to look at memory, a
 * crash or another process.
 */
const SIGNAL_CAUSES: Partial<Record<NodeJS.Signals, string>> = {
  SIGKILL: "often the system's out-of-memory killer, or a kill -9",
  SIGSEGV: 'it crashed (a segmentation fault)',
  SIGBUS: 'it crashed (a bus error)',
  SIGABRT: 'it aborted itself (a failed assertion or an uncaught native error)',
  SIGILL: 'it crashed (an illegal instruction)',
  SIGFPE: 'it crashed (an arithmetic error)',
  SIGTERM: 'another process asked it to stop',
  SIGINT: 'an interrupt (Ctrl-C) reached it',
  SIGPIPE: 'it wrote to a pipe nobody reads',
};

/** `the command was killed by SIGKILL before it exited (often …)`. */
function killedBy(signal: NodeJS.Signals): string {
  const cause = SIGNAL_CAUSES[signal];
  return `the command was killed by ${signal} before it exited${cause === undefined ? '' : ` (${cause})`}`;
}

/** The last `count` non-empty-ended lines of `text`. */
export function lastLines(text: string, count: number): string {
  const lines = text.replace(/\s+$/, '').split(/\r?\n/);
  return lines.slice(-count).join('\n');
}
