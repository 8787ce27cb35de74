/**
 * User mistakes are data (`Issue`), collected and reported together; bugs are exceptions.
 * `cli.ts` is the one place that turns these into exit codes and messages.
 */
import { inspect } from 'node:util';
import type { Usage } from '../types/index.ts';

/** One problem with the user's input, located precisely enough to jump to. */
export interface Issue {
  /** Stable machine-readable kind, e.g. `schema.type`, `env.missing`, `module.export-missing`. */
  code: string;
  /** The file the problem is in, as the user wrote it (relative to cwd where possible). */
  file: string;
  /** 1-based; 0 when the problem has no position (e.g. a file that does not exist). */
  line: number;
  /** 1-based; 0 when unknown. */
  col: number;
  /** Config path such as `suites[0].evaluators[1].threshold.gte`; '' when not applicable. */
  path: string;
  /** What was expected and what was found, e.g. `expected number, found "high"`. */
  message: string;
}

/** A value, or the one problem that stopped it, placed in the config (a module that does not load). */
export type Located<T> = { ok: true; value: T } | { ok: false; issue: Issue };

/**
 * A value, or every problem that stopped it: a step that checks several things (a file at each
 * grid point) reports them all in one run, not one a run.
 */
export type Checked<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };

/** `evals.yaml:3:7  suites[0].id: expected string, found 12` */
export function formatIssue(issue: Issue): string {
  const what = issue.path ? `${issue.path}: ${issue.message}` : issue.message;
  if (issue.line > 0) return `${issue.file}:${issue.line}:${issue.col || 1}  ${what}`;
  return issue.file !== '' && !namesFile(what, issue.file) ? `${issue.file}  ${what}` : what;
}

/**
 * Whether `message` names `file` as its subject (`base.json: no such results file`, `--resume
 * base.json is not …`, `partial.json was written by …`): then a problem with the whole file is
 * not printed after the file a second time. A file name that is merely a word of the message (a
 * file `a` in "not a valid") does not count.
 */
function namesFile(message: string, file: string): boolean {
  const at = (from: number): number => message.indexOf(file, from);
  for (let i = at(0); i !== -1; i = at(i + 1)) {
    const before = i === 0 || message[i - 1] === ' ';
    const after = message.slice(i + file.length);
    if (before && [':', ' is ', ' was '].some((next) => after.startsWith(next))) return true;
  }
  return false;
}

/**
 * Thrown by an evaluator to fail one evaluation while keeping what explains it: the engine
 * records `message` as the evaluation's error, and keeps `metadata` (a judge's raw answer) and
 * `usage` (the model calls already paid for). Any other throw records the message alone.
 */
export class EvaluationError extends Error {
  readonly metadata: Record<string, unknown> | undefined;
  readonly usage: Usage | undefined;
  constructor(
    message: string,
    details: { metadata?: Record<string, unknown>; usage?: Usage } = {},
  ) {
    super(message);
    this.name = 'EvaluationError';
    this.metadata = details.metadata;
    this.usage = details.usage;
  }
}

/** The user's input is wrong: nothing ran. Exit code 2, no stack trace. */
export class UsageError extends Error {
  // Private, with getters: Node prints an uncaught error's own enumerable fields after its stack,
  // and a `runTestSuite` caller who does not catch one must see the message, not this data.
  readonly #issues: Issue[];

  constructor(issues: Issue[], message = issues.map(formatIssue).join('\n')) {
    super(message);
    this.name = 'UsageError';
    this.#issues = issues;
    // Node's printer of an uncaught error shows the source line where the error was made, an
    // evalgate line that means nothing to the user. Taking the stack here makes that line this
    // one, and the marker on it (Node's own) tells Node not to print it.
    Error.captureStackTrace(this); /* node-do-not-add-exception-line */
  }

  /** Every problem found, each placed where it is. */
  get issues(): Issue[] {
    return this.#issues;
  }

  /** The CLI's exit code for a usage mistake: nothing ran. */
  get exitCode(): 2 {
    return 2;
  }

  /**
   * `console.error(error)` prints the message alone: a usage mistake is the user's to fix, and
   * its stack is evalgate's. (Node's printer of an uncaught error does not call this.)
   */
  [inspect.custom](): string {
    return `${this.name}: ${this.message}`;
  }
}

/** Shorthand for a usage problem with no file position (a bad flag, a missing argument). */
export function usageError(code: string, message: string, file = ''): UsageError {
  return new UsageError([{ code, file, line: 0, col: 0, path: '', message }], message);
}

/**
 * Describes a value for "found …" in messages: quoted strings, JSON for the rest, shortened.
 * `scrub` removes secrets the caller knows of before the text is cut, so a cut never leaves
 * the first characters of one (too few for a later scrub to recognise).
 */
export function describeValue(value: unknown, scrub: (text: string) => string = same): string {
  let text: string;
  if (value === undefined) text = 'nothing';
  else if (typeof value === 'string') text = JSON.stringify(value);
  else if (value instanceof Uint8Array) text = binaryData(value);
  else if (Array.isArray(value)) text = `an array ${safeJson(value, scrub)}`;
  else if (value !== null && typeof value === 'object') text = objectText(value, scrub);
  else if (typeof value === 'bigint') text = `${value}n`;
  // JSON has no Infinity or NaN (a YAML 8e71234567 is Infinity): JSON.stringify would say null.
  else if (typeof value === 'number') text = String(value);
  else if (typeof value === 'symbol' || typeof value === 'function') text = `a ${typeof value}`;
  else text = JSON.stringify(value);
  text = scrub(text);
  // `…`, as every cut in a message: the scrubber then knows a secret cut short there.
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

function same(text: string): string {
  return text;
}

/**
 * An object as a message names it: a plain one by its JSON; one of a class by the class, since
 * its JSON says nothing of what it is (a Promise, a Set, a Map and a generator all read `{}`:
 * `testCases: loadCases()` without `await` would be "an object {}").
 */
function objectText(value: object, scrub: (text: string) => string): string {
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) return `an object ${safeJson(value, scrub)}`;
  const count = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
  if (value instanceof Map) return `a Map of ${count(value.size, 'entry', 'entries')}`;
  if (value instanceof Set) return `a Set of ${count(value.size, 'value', 'values')}`;
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? 'an invalid Date' : `a Date ${value.toISOString()}`;
  }
  // A Promise, a Generator and the like name themselves; a class of the user's by its name.
  const tag: unknown = (value as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag];
  const named: unknown = typeof tag === 'string' ? tag : value.constructor?.name;
  if (typeof named !== 'string' || named === '' || named === 'Object') {
    return `an object ${safeJson(value, scrub)}`;
  }
  const article = /^[AEIOU]/i.test(named) ? 'an' : 'a';
  const fields = typeof tag === 'string' ? '{}' : safeJson(value, scrub);
  return fields === '{}' ? `${article} ${named}` : `${article} ${named} ${fields}`;
}

/**
 * JSON of `value`, cut short once it is longer than a message shows: an object of 20,000 keys,
 * described once per problem it has, must not be written out in full each time. Only as many
 * entries are visited as fit in `room` characters. A string is scrubbed (`scrub`) before it is
 * cut: cut first, a secret at the cut would keep its first characters, which the scrub of the
 * whole text cannot recognise, and which the secrets replaced before it bring into view.
 */
function safeJson(value: unknown, scrub: (text: string) => string, room = 100): string {
  try {
    // Bytes (a YAML `!!binary` value) would be written out as an object of numbered keys.
    if (value instanceof Uint8Array) return binaryData(value);
    if (Array.isArray(value)) {
      return bounded('[', ']', value, room, (item, left) => safeJson(item, scrub, left));
    }
    if (value !== null && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      return bounded('{', '}', Object.keys(record), room, (key, left) => {
        const name = JSON.stringify(key);
        return `${name}:${safeJson(record[key], scrub, left - name.length - 1)}`;
      });
    }
    if (typeof value === 'string') {
      const clean = scrub(value);
      return clean.length > room
        ? `${JSON.stringify(clean.slice(0, room))}...`
        : JSON.stringify(clean);
    }
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Bytes as a message names them, never their content: `binary data (5 bytes)`. */
function binaryData(bytes: Uint8Array): string {
  return `binary data (${bytes.length} byte${bytes.length === 1 ? '' : 's'})`;
}

/** `open` items `close`, stopping (with `...`) once the text outgrows `room`. */
function bounded<T>(
  open: string,
  close: string,
  items: Iterable<T>,
  room: number,
  show: (item: T, room: number) => string,
): string {
  let text = open;
  for (const item of items) {
    if (text.length > room) return `${text}...`;
    text += (text.length > 1 ? ',' : '') + show(item, room - text.length);
  }
  return text + close;
}
