/**
 * `runTestSuite`'s arguments, checked before anything runs: the values its types cannot stop (a
 * suite in JavaScript, an `as any`, a list read from the environment that came out empty). Each
 * problem names the argument, what it must be and what it is, and all of them are collected, so
 * one error says everything that is wrong, as the checks of evals.yaml do. A bad value found
 * only mid-run would fail every case (`pass is not a function`), or pass a gate that checked
 * nothing (a grid list with no values is no run at all).
 */
// The id pattern comes from the config's contract, so a suite id from code is one evals.yaml
// accepts, and the artifact names it the same way.
import { checkThreshold } from '../run/evaluation.ts';
import { impossibleRange } from '../config/threshold.ts';
import { closestMatch } from '../config/did-you-mean.ts';
import { acceptsSdkContext } from '../evaluators/sdk/builtin-backed.ts';
import {
  evaluatorClassName,
  positionalParametersProblem,
  pythonMethodHint,
  pythonSettingProblem,
} from '../evaluators/call-form.ts';
import { caseHashProblems, type TestCases } from './check-case-hash.ts';
import { sdkArgumentHint } from './sdk-arguments.ts';
import { gateProblems, removedStillHereProblems } from './check-gate.ts';
import { gridProblems } from './check-grid.ts';
import { baselinesProblems, judgeProblems } from './check-judge.ts';
import { isPlainObject, isRecord } from '../shared/is-record.ts';
import schema from '../../schemas/evals.schema.json' with { type: 'json' };
import { checkOutputPaths } from '../pipeline/output-paths.ts';
import { UsageError, describeValue, type Issue } from '../shared/errors.ts';
import { MIN_SECRET_LENGTH } from '../shared/secrets.ts';
import {
  PASS_CONDITION_EVALUATOR,
  UNSAFE_KEY_REASON,
  UNSAFE_OBJECT_KEY,
} from '../shared/reserved-ids.ts';

const ID_PATTERN = new RegExp(schema.definitions.id.pattern);

/**
 * Every argument `runTestSuite` reads (`RunTestSuiteArgs`): any other is a slip (`maxConcurrency`,
 * a setting of an evaluator) that would otherwise be ignored without a word.
 */
const KNOWN_ARGUMENTS = [
  'id',
  'testCases',
  'testCaseHash',
  'fn',
  'evaluators',
  'maxTestCaseConcurrency',
  'gridSearchParams',
  'timeoutMs',
  'trials',
  'pass',
  'gate',
  'allowEmpty',
  'output',
  'quiet',
  'setExitCode',
  'signal',
  'judge',
  'baselinesDir',
  'updateBaselines',
  'secrets',
];

/** The arguments as they arrive at run time, whatever their declared types. */
export type UncheckedArguments = Readonly<Record<string, unknown>>;

/**
 * Collects problems, each as `NAME must be EXPECTED, got FOUND`; `scrub` removes the run's
 * secrets from FOUND before it is cut short (a cut would keep a secret's first characters).
 */
class Problems {
  readonly issues: Issue[] = [];

  constructor(readonly scrub: (text: string) => string) {}

  add(path: string, expected: string, found: unknown): void {
    this.addMessage(path, `${path} must be ${expected}, got ${describeValue(found, this.scrub)}`);
  }

  addMessage(path: string, message: string): void {
    this.issues.push({ code: 'sdk.argument', file: '', line: 0, col: 0, path, message });
  }
}

/**
 * Every problem with `args`, `[]` when there is none. `cwd` resolves `output`, which is refused
 * when it cannot be written (a folder, a path under a file), as `evals run -o` is. `scrub`
 * removes the run's secrets from a value a problem quotes, before it is cut.
 */
export function argumentIssues(
  args: UncheckedArguments,
  cwd: string,
  scrub: (text: string) => string = (text) => text,
): Issue[] {
  const problems = new Problems(scrub);
  if (typeof args.id !== 'string' || !ID_PATTERN.test(args.id)) {
    problems.add(
      'id',
      'a suite id of letters, digits, _, . and - that starts with a letter or digit (as in evals.yaml)',
      args.id,
    );
  }
  checkUnknown(args, problems);
  const cases = checkTestCases(args.testCases, problems) ? args.testCases : null;
  for (const message of caseHashProblems(args.testCaseHash, cases as TestCases | null, scrub)) {
    problems.addMessage('testCaseHash', message);
  }
  if (typeof args.fn !== 'function') problems.add('fn', 'the function under test', args.fn);
  checkEvaluators(args.evaluators, typeof args.pass === 'function', problems);
  checkConcurrency('maxTestCaseConcurrency', args.maxTestCaseConcurrency, problems);
  for (const { path, message } of gridProblems(args.gridSearchParams, scrub)) {
    problems.addMessage(path, message);
  }
  checkTimeout('timeoutMs', args.timeoutMs, problems);
  const { trials } = args;
  if (trials !== undefined && !(Number.isInteger(trials) && (trials as number) >= 1)) {
    problems.add('trials', 'a whole number of at least 1', trials);
  }
  const { pass } = args;
  if (pass !== undefined && pass !== 'all' && pass !== 'any' && typeof pass !== 'function') {
    problems.add('pass', '"all", "any" or a function returning whether a case passed', pass);
  }
  for (const { path, message } of [
    ...gateProblems(args.gate, evaluatorIds(args.evaluators), scrub),
    ...removedStillHereProblems(args.gate, evaluatorIds(args.evaluators), args.gridSearchParams),
    ...judgeProblems(args.judge, scrub),
    ...baselinesProblems(args.baselinesDir, args.updateBaselines, scrub),
  ]) {
    problems.addMessage(path, message);
  }
  checkOutput(args.output, cwd, problems);
  checkSecrets(args.secrets, problems);
  checkSignal(args.signal, problems);
  return problems.issues;
}

function checkUnknown(args: UncheckedArguments, problems: Problems): void {
  for (const name of Object.keys(args)) {
    if (KNOWN_ARGUMENTS.includes(name)) continue;
    problems.addMessage(name, `unknown argument ${name}${knownHint(name)}`);
  }
}

/** Which argument an unknown one was likely meant to be, else the list of them all. */
function knownHint(name: string): string {
  const said = sdkArgumentHint(name);
  if (said !== undefined) return `: ${said}`;
  const nearest =
    closestMatch(name, KNOWN_ARGUMENTS) ??
    // `maxConcurrency` is too far from `maxTestCaseConcurrency` for a typo: a shared word of five
    // letters or more (`Concurrency`) still says which argument was meant.
    KNOWN_ARGUMENTS.find((known) => sharedWord(name, known));
  const evaluatorSetting =
    name === 'maxConcurrency' || name === 'threshold'
      ? ` (${name} is a setting of an evaluator, in evaluators)`
      : '';
  return nearest !== undefined
    ? `: did you mean ${nearest}?${evaluatorSetting}`
    : ` (the arguments are ${KNOWN_ARGUMENTS.join(', ')})${evaluatorSetting}`;
}

/** Whether two camelCase names share a word of five letters or more (`Concurrency`). */
function sharedWord(a: string, b: string): boolean {
  const words = (name: string): string[] =>
    name.split(/(?=[A-Z])/).map((word) => word.toLowerCase());
  const theirs = new Set(words(b));
  return words(a).some((word) => word.length >= 5 && theirs.has(word));
}

/** Whether `testCases` is an array of objects (else its problem is added). */
function checkTestCases(testCases: unknown, problems: Problems): boolean {
  if (!Array.isArray(testCases)) {
    problems.add('testCases', 'an array of test cases (objects)', testCases);
    return false;
  }
  // One message for the first bad case and a count of the others, not 10,000 lines for 10,000.
  const bad = testCases.flatMap((testCase: unknown, i) => (isRecord(testCase) ? [] : [i]));
  const first = bad[0];
  if (first === undefined) return true;
  const others =
    bad.length > 1 ? ` (and ${bad.length - 1} more test cases that are not objects)` : '';
  problems.addMessage(
    `testCases[${first}]`,
    `testCases[${first}] must be an object (one test case), got ${describeValue(testCases[first], problems.scrub)}${others}`,
  );
  return false;
}

/** The evaluators' ids, for the gate's rules; `null` when they are not all what they must be. */
function evaluatorIds(evaluators: unknown): string[] | null {
  if (evaluators === undefined) return [];
  if (!Array.isArray(evaluators)) return null;
  const ids = (evaluators as unknown[]).map((e) => (isRecord(e) ? e.id : undefined));
  return ids.every((id): id is string => typeof id === 'string' && id !== '') ? ids : null;
}

/** `passFunction`: `pass` is a function, whose errors are recorded under the evaluator id `pass`. */
function checkEvaluators(evaluators: unknown, passFunction: boolean, problems: Problems): void {
  if (evaluators === undefined) return;
  if (!Array.isArray(evaluators)) {
    problems.add('evaluators', 'an array of evaluators', evaluators);
    return;
  }
  const seen = new Set<string>();
  for (const [i, evaluator] of (evaluators as unknown[]).entries()) {
    const at = `evaluators[${i}]`;
    if (!isRecord(evaluator)) {
      const expected = 'an evaluator (an object with an id and an evaluateTestCase method)';
      // The class itself (`HasAllSubstrings` for `new HasAllSubstrings()`) says "a function".
      const name = evaluatorClassName(evaluator);
      if (name === undefined) problems.add(at, expected, evaluator);
      else
        problems.addMessage(
          at,
          `${at} must be ${expected}, got the class ${name}: pass an instance, new ${name}()`,
        );
      continue;
    }
    // Class instances hold their settings as fields and their method on the prototype. Only
    // what the SDK documents is a setting of a class (see evaluatorWithGridPoint): its other
    // fields are its own state and not checked here, but for a setting's Python name.
    const { id, maxConcurrency } = evaluator;
    if (typeof id !== 'string' || id === '') problems.addMessage(at, `${at} has no id`);
    else if (seen.has(id)) problems.addMessage(at, `${at}: duplicate evaluator id "${id}"`);
    else if (passFunction && id === PASS_CONDITION_EVALUATOR) {
      // Its evaluations and the pass function's errors would be one evaluator in the summary.
      problems.addMessage(
        at,
        `${at}: evaluator id "${id}" is kept for the errors of the pass function: choose another id`,
      );
    } else if (id === UNSAFE_OBJECT_KEY) {
      problems.addMessage(
        at,
        `${at}: evaluator id "${id}" ${UNSAFE_KEY_REASON}: choose another id`,
      );
    } else seen.add(id);
    const named = typeof id === 'string' && id !== '' ? ` (${id})` : '';
    if (typeof evaluator.evaluateTestCase !== 'function') {
      problems.addMessage(at, `${at} has no evaluateTestCase method${pythonMethodHint(evaluator)}`);
    } else {
      const positional = positionalParametersProblem(evaluator.evaluateTestCase);
      if (positional !== null) problems.addMessage(at, `${at}${named}: ${positional}`);
    }
    const python = pythonSettingProblem(evaluator);
    if (python !== null) problems.addMessage(at, `${at}${named}: ${python}`);
    checkConcurrency(`${at}.maxConcurrency`, maxConcurrency, problems);
    // A threshold is a setting of a plain object, and of the SDK's out-of-box classes (their
    // field replaces the default): both are known before the run, so checked here, once.
    if (isPlainObject(evaluator) || acceptsSdkContext(evaluator)) {
      checkEvaluatorThreshold(at, id, evaluator.threshold, problems);
    }
    if (isPlainObject(evaluator)) checkTimeout(`${at}.timeoutMs`, evaluator.timeoutMs, problems);
  }
}

/**
 * An evaluator's `threshold`, when it has one: what an evaluation would report as its error,
 * found before the run and named by the evaluator (`evaluators[0].threshold.gte is undefined:
 * … (evaluator "exact")`).
 */
function checkEvaluatorThreshold(
  at: string,
  id: unknown,
  threshold: unknown,
  problems: Problems,
): void {
  if (threshold == null) return;
  const checked = checkThreshold(threshold);
  const problem = checked.ok ? impossibleRange(checked.threshold) : checked.problem;
  if (problem === null) return;
  const where = problem.startsWith('threshold')
    ? `${at}.${problem}`
    : `${at}.threshold: ${problem}`;
  const named = typeof id === 'string' && id !== '' ? ` (evaluator ${JSON.stringify(id)})` : '';
  problems.addMessage(`${at}.threshold`, `${where}${named}`);
}

/** A limit of calls in flight: a whole number of at least 1, or Infinity for none. */
function checkConcurrency(path: string, value: unknown, problems: Problems): void {
  if (value === undefined || value === Infinity) return;
  if (!(Number.isInteger(value) && (value as number) >= 1)) {
    problems.add(path, 'a whole number of at least 1 (or Infinity: no limit)', value);
  }
}

/** A time limit: as in evals.yaml, above zero; leave it out for none. */
function checkTimeout(path: string, value: unknown, problems: Problems): void {
  if (value === undefined) return;
  if (!(typeof value === 'number' && Number.isFinite(value) && value > 0)) {
    problems.add(path, 'a number of milliseconds above 0 (leave it out for no limit)', value);
  }
}

function checkOutput(output: unknown, cwd: string, problems: Problems): void {
  if (output === undefined) return;
  if (typeof output !== 'string' || output === '') {
    problems.add('output', 'the path of the JSON results file', output);
    return;
  }
  try {
    checkOutputPaths([{ flag: 'output', path: output }], cwd, 'so nothing was run');
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    problems.addMessage('output', error.message);
  }
}

/**
 * `signal`: an AbortSignal, or any object that behaves as one. Anything else failed inside the
 * run's process watch, after it had taken over the process's exit.
 */
function checkSignal(signal: unknown, problems: Problems): void {
  if (signal === undefined) return;
  if (
    isRecord(signal) &&
    typeof signal.aborted === 'boolean' &&
    typeof signal.addEventListener === 'function' &&
    typeof signal.removeEventListener === 'function'
  ) {
    return;
  }
  const found =
    signal instanceof AbortController
      ? 'an AbortController: pass controller.signal'
      : describeValue(signal, problems.scrub);
  problems.addMessage(
    'signal',
    `signal must be an AbortSignal (an AbortController's .signal), got ${found}`,
  );
}

/**
 * `secrets`: values to scrub from everything the run prints and writes. Each problem names the
 * value's place and kind but never quotes it: the message is printed, and the value is a
 * secret. One too short to scrub is refused rather than kept in the output without a word
 * (the scrubber ignores values under MIN_SECRET_LENGTH, which would erase ordinary words).
 */
function checkSecrets(secrets: unknown, problems: Problems): void {
  if (secrets === undefined) return;
  if (!Array.isArray(secrets)) {
    problems.addMessage(
      'secrets',
      `secrets must be an array of the secret values (strings) to scrub, got ${kindOf(secrets)}`,
    );
    return;
  }
  for (const [i, value] of (secrets as unknown[]).entries()) {
    const at = `secrets[${i}]`;
    if (typeof value !== 'string') {
      const unset =
        value === undefined
          ? ' (an environment variable that is not set? leave it out of the list then)'
          : '';
      problems.addMessage(
        at,
        `${at} must be a string (a secret value), got ${kindOf(value)}${unset}`,
      );
    } else if (value.length < MIN_SECRET_LENGTH) {
      problems.addMessage(
        at,
        `${at} must be a secret of at least ${MIN_SECRET_LENGTH} characters, got a string of ${value.length}: shorter values are not scrubbed, since removing them would cut ordinary words out of the output`,
      );
    }
  }
}

/** What a value is, without its content (for `secrets`, whose values must not be printed). */
function kindOf(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `a string of ${value.length} characters`;
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
