/**
 * An evaluator's `evaluateTestCase` takes one object, `{ testCase, output, … }`. The Autoblocks
 * Python SDK's form, `evaluate_test_case(test_case, output)`, ported as it is, would get that
 * object as its test case and `undefined` as its output, and score every case wrong without an
 * error: such a method is refused where the evaluator is given (`runTestSuite`, evals.yaml).
 */

/** The form to write, quoted by the message. */
export const EVALUATE_TEST_CASE_FORM = 'evaluateTestCase({ testCase, output })';

/**
 * Why `method` cannot be an evaluator's `evaluateTestCase`, or null when it can: it declares two
 * parameters or more (its `length`; a parameter with a default value or a rest parameter is not
 * counted, so `({ output }, scale = 1)` is taken).
 */
export function positionalParametersProblem(method: unknown): string | null {
  if (typeof method !== 'function' || method.length < 2) return null;
  return `evaluateTestCase declares ${method.length} parameters, like evaluateTestCase(testCase, output) of the Python SDK, but it is called with one object: write ${EVALUATE_TEST_CASE_FORM} (as it is, its output would be undefined)`;
}

/**
 * The name of `value` when it is an evaluator class rather than an instance of one: passed as
 * `evaluators: [HasAllSubstrings]` for `new HasAllSubstrings()`, it would be called "a function".
 */
export function evaluatorClassName(value: unknown): string | undefined {
  if (typeof value !== 'function' || value.name === '') return undefined;
  const prototype: unknown = (value as { prototype?: unknown }).prototype;
  const method: unknown =
    typeof prototype === 'object' && prototype !== null
      ? (prototype as { evaluateTestCase?: unknown }).evaluateTestCase
      : undefined;
  return typeof method === 'function' ? value.name : undefined;
}

/**
 * The mappers of the SDK's out-of-box classes that take both the test case and the output, each
 * with the one object it is called with. Ported from the Python SDK as written
 * (`evaluate_assertions(test_case, output)`), one gets that object as its test case and
 * `undefined` as its output: a rubric that reads `testCase.assertions` then finds none and
 * skips every case, and a suite passes that checked nothing.
 */
const MAPPER_FORMS: Readonly<Record<string, string>> = {
  evaluateAssertions: '{ testCase, output }',
  makePrompt: '{ testCase, output, recentOverrides }',
  userInputMapper: '{ testCase, output }',
  retrievedContextsMapper: '{ testCase, output }',
};

/**
 * Why a mapper of `instance` (an SDK class named `className`) cannot be called as the class
 * calls it, or null: one of `MAPPER_FORMS` the class reads (`members`) that declares two
 * parameters or more. A method of another name is the class's own helper, whatever it takes.
 */
export function positionalMapperProblem(
  instance: object,
  className: string,
  members: SdkMembers,
): string | null {
  for (const [name, form] of Object.entries(MAPPER_FORMS)) {
    if (members[name] === undefined) continue;
    const method: unknown = (instance as Record<string, unknown>)[name];
    if (typeof method !== 'function' || method.length < 2) continue;
    return `${className}.${name} declares ${method.length} parameters, like the Python SDK, but it is called with one object: write ${name}(${form}) (as it is, its output would be undefined)`;
  }
  return null;
}

/**
 * The members of `SDK_MEMBER_FORMS` one out-of-box class reads, each `true` when the class
 * calls it on every case (a TypeScript `abstract` member) and `false` when it is optional
 * (`retrievedContextsMapper?` of `BaseRagasResponseRelevancy`). Only these are checked on an
 * instance of that class: a `test_case_mapper` or a `makePrompt(a, b)` on a class that reads no
 * such member is a helper of the user's own, not a mistake.
 */
export type SdkMembers = Readonly<Record<string, boolean>>;

/**
 * The members of the SDK's out-of-box classes that the user writes, each with the one object a
 * method is called with (null for a field). The Python SDK names them in snake case
 * (`test_case_mapper`, `score_choices`); ported as written into JavaScript, or TypeScript run by
 * a loader that does not type-check, such a member is never called, and every case's evaluation
 * would be the error `this.testCaseMapper is not a function`, naming neither.
 */
const SDK_MEMBER_FORMS: Readonly<Record<string, string | null>> = {
  testCaseMapper: '{ testCase }',
  outputMapper: '{ output }',
  expectedOutputMapper: '{ testCase }',
  baselineMapper: '{ testCase }',
  responseMapper: '{ output }',
  referenceMapper: '{ testCase }',
  referenceContextsMapper: '{ testCase }',
  ...MAPPER_FORMS,
  scoreChoices: null,
};

/** How a member of the SDK's classes is written, `outputMapper({ output })`, or its bare name. */
export function memberForm(name: string): string {
  const form = SDK_MEMBER_FORMS[name];
  return form === undefined || form === null ? name : `${name}(${form})`;
}

/** `testCaseMapper` → `test_case_mapper`: the Python SDK's spelling of a member's name. */
function pythonName(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/**
 * Why an SDK class (`instance`, named `className`) holds one of the members it reads
 * (`members`) under the Python SDK's name and not under the one read here, or null. A class
 * with both names is taken: the TypeScript one is read, and the other may be the class's own
 * helper.
 */
export function pythonMemberProblem(
  instance: object,
  className: string,
  members: SdkMembers,
): string | null {
  const values = instance as Record<string, unknown>;
  for (const name of Object.keys(members)) {
    const python = pythonName(name);
    if (values[python] === undefined || values[name] !== undefined) continue;
    return SDK_MEMBER_FORMS[name] === null
      ? `${className}.${python} is the Python SDK's name, which is not read here: write ${name}`
      : `${className}.${python} is the Python SDK's name, which is not called here: write ${memberForm(name)}`;
  }
  return null;
}

/**
 * Why an SDK class (`instance`, named `className`) cannot be called on a case for want of a
 * method it calls on every case (`members`), or null. TypeScript refuses such a class at its
 * `abstract` member, but JavaScript (or TypeScript run without a type check) lets it through,
 * and every case's evaluation would be `this.testCaseMapper is not a function`, naming neither
 * the class nor what to write. A field (`scoreChoices`) is left to its class's own check, which
 * says what it must hold.
 */
export function missingMemberProblem(
  instance: object,
  className: string,
  members: SdkMembers,
): string | null {
  const values = instance as Record<string, unknown>;
  for (const [name, required] of Object.entries(members)) {
    if (SDK_MEMBER_FORMS[name] === null) continue;
    const value = values[name];
    if (value === undefined && !required) continue;
    if (value === undefined) {
      return `${className} has no ${name} method, which every case calls: write ${memberForm(name)}`;
    }
    if (typeof value !== 'function') {
      // Its kind, not its value: a field of the user's class may hold anything, a key included.
      const kind =
        value === null
          ? 'null'
          : Array.isArray(value)
            ? 'an array'
            : typeof value === 'object'
              ? 'an object'
              : `a ${typeof value}`;
      return `${className}.${name} is ${kind}, not a method: write ${memberForm(name)}`;
    }
  }
  return null;
}

/**
 * The Python SDK's names of the settings an evaluator class has (`max_concurrency = 2` in seed
 * 003's `IsProfessionalTone`), with the name read here. Kept in a class ported as written, such
 * a field is only the class's own state: the limit or the examples it asked for would be dropped
 * without a word.
 */
const PYTHON_SETTINGS: Readonly<Record<string, string>> = {
  max_concurrency: 'maxConcurrency',
  num_overrides: 'numOverrides',
};

/**
 * Why `evaluator` holds a setting under its Python SDK name and not under the one read here,
 * or null.
 */
export function pythonSettingProblem(evaluator: object): string | null {
  for (const [python, name] of Object.entries(PYTHON_SETTINGS)) {
    const fields = evaluator as Record<string, unknown>;
    const value = fields[python];
    if (value === undefined || fields[name] !== undefined) continue;
    if (python === 'num_overrides' && refusesOverrideExamples(evaluator)) {
      return `${python} is the Python SDK's name of the setting, which is not read here, and this judge class takes no override examples in evalgate (it refuses numOverrides above 0): leave ${python} out, or extend BaseLLMJudge and show recentOverrides in makePrompt`;
    }
    // The value is quoted when it is a number or text: `write maxConcurrency = 2`.
    const shown =
      typeof value === 'number' || typeof value === 'string' ? ` = ${JSON.stringify(value)}` : '';
    return `${python} is the Python SDK's name of the setting, which is not read here: write ${name}${shown}`;
  }
  return null;
}

/**
 * Whether `evaluator` is an SDK judge class that shows its judge no override examples (every one
 * but `BaseLLMJudge`: `BaseAccuracy`, `BaseNSFW`, `BaseToxicity`, …), which refuses
 * `numOverrides` above 0, so `write numOverrides = 3` would send the user to another refusal.
 * Asked through the class's own hook rather than `instanceof`, so that a class of another copy
 * of evalgate (a module's own install) answers too.
 */
function refusesOverrideExamples(evaluator: object): boolean {
  const shows: unknown = (evaluator as { sdkShowsOverrides?: unknown }).sdkShowsOverrides;
  return typeof shows === 'function' && shows.call(evaluator) === false;
}

/**
 * What to add to "has no evaluateTestCase method" when the evaluator has the Python SDK's
 * `evaluate_test_case` instead: the name to write, and the one object it is called with.
 */
export function pythonMethodHint(evaluator: unknown): string {
  const method: unknown =
    typeof evaluator === 'object' && evaluator !== null
      ? (evaluator as { evaluate_test_case?: unknown }).evaluate_test_case
      : undefined;
  return typeof method === 'function'
    ? ` (evaluate_test_case is the Python SDK's name: write ${EVALUATE_TEST_CASE_FORM})`
    : '';
}
