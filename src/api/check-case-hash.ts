/**
 * `runTestSuite`'s `testCaseHash`, checked with the other arguments and in the SDK's words (the
 * engine's own identity checks speak of evals.yaml's rows and `hash:`): required, as in the
 * Autoblocks SDK; a non-empty list of fields every test case has, or a function returning each
 * test case's identity as a non-empty string.
 */
import { closestMatch } from '../config/did-you-mean.ts';
import { describeValue, type Issue } from '../shared/errors.ts';

/** The test cases, once known to be an array of objects. */
export type TestCases = readonly Record<string, unknown>[];

const EXPECTED =
  "the fields that identify a test case (testCaseHash: ['input']) or a function returning its identity as a string";

/**
 * Every problem with `hash`, `[]` when there is none. The identities are worked out only when
 * `testCases` is what it must be (else `null`). `scrub` removes the run's secrets from a value a
 * problem quotes, before it is cut.
 */
export function caseHashProblems(
  hash: unknown,
  testCases: TestCases | null,
  scrub: (text: string) => string,
): string[] {
  if (hash === undefined) {
    // Without it every case would be known by its content, and the crash came from deep inside.
    return [`testCaseHash is missing: give ${EXPECTED}`];
  }
  if (typeof hash === 'function') {
    return testCases === null
      ? []
      : functionProblems(hash as (testCase: unknown) => unknown, testCases, scrub);
  }
  if (!Array.isArray(hash) || !hash.every((field) => typeof field === 'string')) {
    return [`testCaseHash must be ${EXPECTED}, got ${describeValue(hash, scrub)}`];
  }
  if (hash.length === 0) {
    return [
      "testCaseHash must list at least one field, or be a function returning a test case's identity as a string, got an array []",
    ];
  }
  return testCases === null ? [] : fieldProblems(hash, testCases);
}

/** Each listed field missing from a test case, once per field, with the first such case. */
function fieldProblems(fields: readonly string[], testCases: TestCases): string[] {
  return [...new Set(fields)].flatMap((field) => {
    const missing = testCases.flatMap((testCase, i) =>
      Object.hasOwn(testCase, field) && testCase[field] !== undefined ? [] : [i + 1],
    );
    const first = missing[0];
    if (first === undefined) return [];
    const near = closestMatch(field, Object.keys(testCases[first - 1] ?? {}));
    const hint = near !== undefined ? `: did you mean ${JSON.stringify(near)}?` : '';
    return [
      `testCaseHash field ${JSON.stringify(field)} is missing from test case ${first}${others(missing)}${hint} (every test case needs every field testCaseHash lists)`,
    ];
  });
}

/**
 * The first test case whose identity the function cannot give, with a count of the others. A
 * number is refused too: the ids of 1 and "1" would be one. A Promise is left to the run's own
 * check, which names it as such.
 */
function functionProblems(
  hash: (testCase: unknown) => unknown,
  testCases: TestCases,
  scrub: (text: string) => string,
): string[] {
  const bad: { at: number; problem: Problem }[] = [];
  for (const [i, testCase] of testCases.entries()) {
    const problem = identityProblem(hash, testCase, scrub);
    if (problem !== null) bad.push({ at: i + 1, problem });
  }
  const first = bad[0];
  if (first === undefined) return [];
  const { at, problem } = first;
  const where = `test case ${at}${others(bad)}`;
  return [
    problem.threw !== undefined
      ? `testCaseHash threw for ${where}: ${problem.threw}`
      : `testCaseHash returned ${problem.returned} for ${where}: it must return the test case's identity as a non-empty string`,
  ];
}

type Problem = { threw: string; returned?: never } | { returned: string; threw?: never };

function identityProblem(
  hash: (testCase: unknown) => unknown,
  testCase: unknown,
  scrub: (text: string) => string,
): Problem | null {
  let id: unknown;
  try {
    id = hash(testCase);
  } catch (error) {
    return { threw: error instanceof Error ? error.message : String(error) };
  }
  if (typeof id === 'string' && id !== '') return null;
  if (isThenable(id)) {
    // Its rejection is the hash's business, not an unhandled one of the process.
    id.then(undefined, () => undefined);
    return null;
  }
  return { returned: typeof id === 'number' ? `the number ${id}` : describeValue(id, scrub) };
}

/** ` (and 2 more test cases)` after the first of `all`, or nothing. */
function others(all: readonly unknown[]): string {
  return all.length > 1 ? ` (and ${all.length - 1} more test cases)` : '';
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * `hash` for prepareCases, refusing a Promise: an async hash (a JavaScript slip) would read as
 * "returned an object {}". The cases whose hash was a Promise are collected in `promised` and
 * get a placeholder id each, unique, so that they report nothing else.
 */
export function syncHash<TCase>(
  hash: (testCase: TCase) => string,
  promised: unknown[],
): (data: Record<string, unknown>) => string {
  return (data) => {
    const id: unknown = hash(data as TCase);
    if (!isThenable(id)) return id as string;
    // Its rejection is the hash's business, not an unhandled one of the process.
    id.then(undefined, () => undefined);
    promised.push(data);
    return `\u0000promised ${promised.length}`;
  };
}

/** The issue of the test cases whose `testCaseHash` returned a Promise (see `syncHash`). */
export function promisedHashIssue(
  testCases: readonly unknown[],
  promised: readonly unknown[],
): Issue {
  const first = testCases.indexOf(promised[0]) + 1;
  return {
    code: 'sdk.argument',
    file: '',
    line: 0,
    col: 0,
    path: 'testCaseHash',
    message: `testCaseHash returned a Promise for test case ${first}${others(promised)}: the hash must be synchronous, returning the case's identity as a string (an async function cannot be one)`,
  };
}
