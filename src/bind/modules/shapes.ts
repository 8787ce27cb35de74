import type {
  EngineEvaluator,
  Evaluation,
  EvaluatorArgs,
  PassConditionArgs,
  TestFn,
} from '../../types/index.ts';
import {
  positionalParametersProblem,
  pythonMethodHint,
  pythonSettingProblem,
} from '../../evaluators/call-form.ts';
import { isPlainObject } from '../../shared/is-record.ts';
import { errorText } from './import-failure.ts';
import { refLabel, type ModuleError, type ModuleResult } from './module-error.ts';
import type { ModuleRef } from '../../config/module-spec.ts';

/**
 * Checks that a loaded export has the shape its role needs and adapts it to what the engine
 * runs. Pure: no I/O; the user code run here is an evaluator class's constructor, and the
 * getters (or a Proxy's traps) of what a module exports, whose throw loadShaped reports.
 *
 * Classes are recognised by shape, never by `instanceof BaseTestEvaluator`: the user's module may
 * import its own copy of evalgate (another install, another version), whose class is a different
 * object from ours.
 */

/** The function under test: any function that is not a class. */
export function asTestFn(value: unknown, ref: ModuleRef): ModuleResult<TestFn> {
  if (typeof value === 'function' && !isClass(value)) return { ok: true, value: value as TestFn };
  return wrongShape(ref, 'a function (the function under test)', value);
}

/** A pass condition: `(args) => boolean | Promise<boolean>`, any function that is not a class. */
export function asPassCondition(
  value: unknown,
  ref: ModuleRef,
): ModuleResult<(args: PassConditionArgs) => boolean | Promise<boolean>> {
  if (typeof value === 'function' && !isClass(value)) {
    return { ok: true, value: value as (args: PassConditionArgs) => boolean | Promise<boolean> };
  }
  return wrongShape(ref, 'a function (the pass condition: (args) => boolean)', value);
}

/**
 * An evaluator, from any of the three shapes a module may export:
 * - a class (a class, or a function whose prototype has `evaluateTestCase`): constructed as
 *   `new Cls(options)`; its instance must have `evaluateTestCase`;
 * - a plain function `(args, options) => Evaluation`: wrapped, called with the `with:` options;
 * - an object with an `evaluateTestCase` method: used as it is.
 * When the evaluator declares no `id`, it gets `fallbackId` (the config's evaluator id).
 */
export function asEvaluator(
  value: unknown,
  ref: ModuleRef,
  options: Record<string, unknown>,
  fallbackId: string,
): ModuleResult<EngineEvaluator> {
  if (typeof value === 'function') {
    if (isClass(value) || hasMethod(value.prototype, 'evaluateTestCase')) {
      return construct(
        value as new (options: Record<string, unknown>) => unknown,
        ref,
        options,
        fallbackId,
      );
    }
    const fn = value as (
      args: EvaluatorArgs,
      options: Record<string, unknown>,
    ) => Evaluation | Promise<Evaluation>;
    return { ok: true, value: { id: fallbackId, evaluateTestCase: (args) => fn(args, options) } };
  }
  if (hasMethod(value, 'evaluateTestCase')) {
    return positionalProblem(value, ref) ?? withId(value, ref, fallbackId, 'share');
  }
  return wrongShape(
    ref,
    'an evaluator (a class with an evaluateTestCase method, a function returning an evaluation, or an object with an evaluateTestCase method)',
    value,
  );
}

function construct(
  Cls: new (options: Record<string, unknown>) => unknown,
  ref: ModuleRef,
  options: Record<string, unknown>,
  fallbackId: string,
): ModuleResult<EngineEvaluator> {
  const name = Cls.name || 'the class';
  let instance: unknown;
  try {
    instance = new Cls(options);
  } catch (error) {
    return {
      ok: false,
      error: {
        code: 'module.load-failed',
        message: `${refLabel(ref)}: new ${name}(options) threw: ${errorText(error)}`,
      },
    };
  }
  if (!hasMethod(instance, 'evaluateTestCase')) {
    return {
      ok: false,
      error: {
        code: 'module.wrong-shape',
        message: `${refLabel(ref)} must be an evaluator class; instances of ${name} have no evaluateTestCase method${pythonMethodHint(instance)}`,
      },
    };
  }
  return positionalProblem(instance, ref) ?? withId(instance, ref, fallbackId, 'own');
}

/**
 * The error of an `evaluateTestCase(testCase, output)` method (the Python SDK's form), which
 * would get `undefined` as its output, or of a setting under its Python name (`max_concurrency`,
 * not read; see call-form.ts). A plain function export is not checked: its second parameter is
 * the `with:` options.
 */
function positionalProblem(
  evaluator: { evaluateTestCase: unknown },
  ref: ModuleRef,
): { ok: false; error: ModuleError } | null {
  const problem =
    positionalParametersProblem(evaluator.evaluateTestCase) ?? pythonSettingProblem(evaluator);
  if (problem === null) return null;
  return {
    ok: false,
    error: { code: 'module.wrong-shape', message: `${refLabel(ref)}: ${problem}` },
  };
}

/**
 * Gives an evaluator without an `id` the fallback. An instance we constructed is ours to set;
 * an exported object may be named by several evaluators in the config, so it is not mutated: a
 * view of it carries the id. The view forwards every other read to the object, with its methods
 * bound to the object itself: a method called on an object inheriting from it would get that
 * object as `this`, where a class's private `#fields` cannot be read (a TypeError every case).
 */
function withId(
  evaluator: object & { evaluateTestCase: unknown },
  ref: ModuleRef,
  fallbackId: string,
  ownership: 'own' | 'share',
): ModuleResult<EngineEvaluator> {
  const id = 'id' in evaluator ? evaluator.id : undefined;
  if (typeof id === 'string' && id !== '') return { ok: true, value: evaluator as EngineEvaluator };
  if (id !== undefined && id !== null && id !== '') {
    return {
      ok: false,
      error: {
        code: 'module.wrong-shape',
        message: `${refLabel(ref)}: the evaluator's id must be a string, found ${describeKind(id)}`,
      },
    };
  }
  if (ownership === 'own') {
    (evaluator as unknown as { id: string }).id = fallbackId;
    return { ok: true, value: evaluator as EngineEvaluator };
  }
  const shared = new Proxy(evaluator, {
    get(target, key) {
      if (key === 'id') return fallbackId;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value.bind(target) as unknown) : value;
    },
    has: (target, key) => key === 'id' || Reflect.has(target, key),
  }) as EngineEvaluator;
  return { ok: true, value: shared };
}

function wrongShape(
  ref: ModuleRef,
  expected: string,
  found: unknown,
): { ok: false; error: ModuleError } {
  return {
    ok: false,
    error: {
      code: 'module.wrong-shape',
      message: `${refLabel(ref)} must be ${expected}, found ${describeKind(found)}`,
    },
  };
}

/**
 * What kind of thing a value is, for "found …": `a string`, `a class (Tone)`, `an instance of
 * Client`. Kinds rather than values: an export can be large, and its kind is what was wrong.
 */
export function describeKind(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    case 'bigint':
      return 'a bigint';
    case 'symbol':
      return 'a symbol';
    case 'function':
      return isClass(value) ? `a class (${value.name || 'anonymous'})` : 'a function';
    default: {
      const proto = Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null;
      const name = proto?.constructor?.name;
      return proto === null || proto === Object.prototype || typeof name !== 'string' || name === ''
        ? 'an object'
        : `an instance of ${name}`;
    }
  }
}

/** Native class syntax, which is what TypeScript and esbuild emit for modern Node targets. */
function isClass(fn: unknown): boolean {
  return typeof fn === 'function' && /^class\b/.test(Function.prototype.toString.call(fn));
}

function hasMethod<K extends string>(
  value: unknown,
  key: K,
): value is object & Record<K, (...args: never[]) => unknown> {
  return (
    ((typeof value === 'object' && value !== null) || typeof value === 'function') &&
    typeof (value as Record<string, unknown>)[key] === 'function'
  );
}

/**
 * Whether a module's evaluator is an object it exported (`{ id, threshold, evaluateTestCase }`),
 * or the thin object `withId` makes to give one an id (inheriting from it), rather than an
 * instance of a class.
 */
export function isObjectEvaluator(inner: EngineEvaluator): boolean {
  if (isPlainObject(inner)) return true;
  const own = Object.keys(inner);
  return own.length === 1 && own[0] === 'id' && isPlainObject(Object.getPrototypeOf(inner));
}
