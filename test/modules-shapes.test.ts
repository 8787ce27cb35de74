import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createModuleLoader, type ModuleError } from '../src/bind/modules/loader.ts';
import type { ModuleResult } from '../src/bind/modules/module-error.ts';
import {
  asEvaluator,
  asPassCondition,
  asTestFn,
  describeKind,
} from '../src/bind/modules/shapes.ts';
import { parseModuleSpec, type ModuleRef } from '../src/config/module-spec.ts';
import type { EngineEvaluator, Evaluation, EvaluatorArgs } from '../src/types/index.ts';

const fixtures = fileURLToPath(new URL('./fixtures/modules/', import.meta.url));
const loader = createModuleLoader();

/** A real export from the fixtures, with its reference. */
async function exported(spec: string): Promise<{ value: unknown; ref: ModuleRef }> {
  const ref = parseModuleSpec(spec, fixtures);
  const result = await loader.loadExport(ref);
  if (!result.ok) assert.fail(`${spec}: ${result.error.message}`);
  return { value: result.value, ref };
}

function ok<T>(result: ModuleResult<T>): T {
  if (!result.ok) assert.fail(`expected ok, got ${result.error.code}: ${result.error.message}`);
  return result.value;
}

function err<T>(result: ModuleResult<T>): ModuleError {
  if (result.ok) assert.fail('expected an error');
  return result.error;
}

function args(output: unknown): EvaluatorArgs {
  return { testCase: {}, output, params: {}, durationMs: 1, signal: new AbortController().signal };
}

async function evaluator(
  spec: string,
  options: Record<string, unknown> = {},
  fallbackId = 'from-config',
): Promise<EngineEvaluator> {
  const { value, ref } = await exported(spec);
  return ok(asEvaluator(value, ref, options, fallbackId));
}

void describe('asEvaluator', () => {
  // Loads the module once up front, so timings below measure only the adapters.
  before(async () => {
    await exported('./esm-scope/evaluators.ts#Tone');
  });

  void it('constructs a class with the with: options and keeps its own id and limits', async () => {
    const tone = await evaluator('./esm-scope/evaluators.ts#Tone', { strict: true });
    assert.equal(tone.id, 'tone');
    assert.equal(tone.maxConcurrency, 2);
    assert.deepEqual(await tone.evaluateTestCase(args('calm')), {
      score: 1,
      metadata: { strict: true },
    });
    assert.equal((await tone.evaluateTestCase(args('loud!'))).score, 0);
  });

  void it('recognises a class from another copy of the base class (no instanceof)', async () => {
    // Tone extends the fixture's own LocalBase, not evalgate's BaseTestEvaluator.
    const { value, ref } = await exported('./esm-scope/evaluators.ts#Tone');
    assert.equal(typeof value, 'function');
    assert.ok(asEvaluator(value, ref, {}, 'x').ok);
  });

  void it('gives a class without an id the fallback id', async () => {
    const noId = await evaluator('./esm-scope/evaluators.ts#NoId', {}, 'no-id-from-config');
    assert.equal(noId.id, 'no-id-from-config');
    assert.deepEqual(await noId.evaluateTestCase(args('x')), { score: 1 });
  });

  void it('constructs a class whose evaluateTestCase is an instance field', async () => {
    const field = await evaluator('./esm-scope/evaluators.ts#FieldMethod');
    assert.equal(field.id, 'field-method');
    assert.deepEqual(await field.evaluateTestCase(args('x')), { score: 0.5 });
  });

  void it('reports a constructor that throws, with its message', async () => {
    const { value, ref } = await exported('./esm-scope/evaluators.ts#ThrowsInConstructor');
    assert.deepEqual(err(asEvaluator(value, ref, { strict: 'yes' }, 'x')), {
      code: 'module.load-failed',
      message:
        './esm-scope/evaluators.ts#ThrowsInConstructor: new ThrowsInConstructor(options) threw: TypeError: strict must be a boolean',
    });
    assert.ok(asEvaluator(value, ref, { strict: true }, 'x').ok);
  });

  void it('rejects a class whose instances cannot evaluate', async () => {
    const { value, ref } = await exported('./esm-scope/evaluators.ts#NotAnEvaluator');
    assert.deepEqual(err(asEvaluator(value, ref, {}, 'x')), {
      code: 'module.wrong-shape',
      message:
        './esm-scope/evaluators.ts#NotAnEvaluator must be an evaluator class; instances of NotAnEvaluator have no evaluateTestCase method',
    });
  });

  void it('adapts an arrow function, passing the with: options as the second argument', async () => {
    const short = await evaluator('./esm-scope/evaluators.ts#short', { max: 3 }, 'short');
    assert.equal(short.id, 'short');
    assert.equal((await short.evaluateTestCase(args('abc'))).score, 1);
    assert.equal((await short.evaluateTestCase(args('abcd'))).score, 0);
  });

  void it('adapts an async function (which has no prototype) and a plain function', async () => {
    const slow = await evaluator('./esm-scope/evaluators.ts#slowExact', {}, 'slow');
    assert.equal(slow.id, 'slow');
    assert.deepEqual(await slow.evaluateTestCase(args('yes')), { score: 1 });
    const plain = await evaluator('./esm-scope/evaluators.ts#plainFunction', {}, 'plain');
    assert.deepEqual(await plain.evaluateTestCase(args('')), { score: 0 });
  });

  void it('uses an object with evaluateTestCase as is, without changing the exported object', async () => {
    const { value, ref } = await exported('./esm-scope/evaluators.ts#objectEvaluator');
    const first = ok(asEvaluator(value, ref, {}, 'first'));
    const second = ok(asEvaluator(value, ref, {}, 'second'));
    assert.equal(first.id, 'first');
    assert.equal(second.id, 'second');
    assert.equal((value as { id?: unknown }).id, undefined, 'the export keeps having no id');
    const evaluation: Evaluation = await first.evaluateTestCase(args('x'));
    assert.equal(evaluation.score, 1);
  });

  void it('an exported class instance without an id keeps its private fields readable', async () => {
    class Private {
      readonly #expected = 'x';
      maxConcurrency = 2;
      evaluateTestCase({ output }: EvaluatorArgs): Evaluation {
        return { score: output === this.#expected ? 1 : 0 };
      }
    }
    const instance = new Private();
    const ref = parseModuleSpec('./evaluators/private.ts#instance', fixtures);
    const first = ok(asEvaluator(instance, ref, {}, 'first'));
    const second = ok(asEvaluator(instance, ref, {}, 'second'));
    assert.equal(first.id, 'first');
    assert.equal(second.id, 'second');
    assert.equal('id' in instance, false, 'the export keeps having no id');
    assert.equal(first.maxConcurrency, 2);
    assert.equal((await first.evaluateTestCase(args('x'))).score, 1);
    assert.equal((await second.evaluateTestCase(args('y'))).score, 0);
  });

  void it('keeps an id the object declares', () => {
    const declared = { id: 'declared', evaluateTestCase: () => ({ score: 1 }) };
    const ref = parseModuleSpec('./evaluators/declared.ts#declared', fixtures);
    assert.equal(ok(asEvaluator(declared, ref, {}, 'fallback')), declared);
  });

  void it('rejects an id that is not a string', async () => {
    const { value, ref } = await exported('./esm-scope/evaluators.ts#badId');
    assert.deepEqual(err(asEvaluator(value, ref, {}, 'x')), {
      code: 'module.wrong-shape',
      message:
        "./esm-scope/evaluators.ts#badId: the evaluator's id must be a string, found a number",
    });
  });

  void it('rejects anything else, saying what was expected and found', async () => {
    const { value, ref } = await exported('./esm-scope/evaluators.ts#notAFunction');
    const error = err(asEvaluator(value, ref, {}, 'x'));
    assert.equal(error.code, 'module.wrong-shape');
    assert.equal(
      error.message,
      './esm-scope/evaluators.ts#notAFunction must be an evaluator (a class with an evaluateTestCase method, a function returning an evaluation, or an object with an evaluateTestCase method), found a string',
    );
  });
});

void describe('asTestFn', () => {
  void it('accepts a function export', async () => {
    const { value, ref } = await exported('./esm-scope/answer.ts#answer');
    const fn = ok(asTestFn(value, ref));
    const output = await fn({
      testCase: { n: 1 },
      params: {},
      signal: new AbortController().signal,
    });
    assert.equal(output, 'answer=2');
  });

  void it('rejects a string, saying what the function is for', async () => {
    const { value, ref } = await exported('./esm-scope/evaluators.ts#notAFunction');
    assert.deepEqual(err(asTestFn(value, ref)), {
      code: 'module.wrong-shape',
      message:
        './esm-scope/evaluators.ts#notAFunction must be a function (the function under test), found a string',
    });
  });

  void it('rejects a class, which cannot be called', async () => {
    const { value, ref } = await exported('./esm-scope/evaluators.ts#Tone');
    assert.equal(
      err(asTestFn(value, ref)).message,
      './esm-scope/evaluators.ts#Tone must be a function (the function under test), found a class (Tone)',
    );
  });

  void it('notes the default export when the spec has no #', async () => {
    const { value, ref } = await exported('./cjs-scope/plain.js');
    assert.equal(
      err(asTestFn(value, ref)).message,
      './cjs-scope/plain.js (default export) must be a function (the function under test), found an object',
    );
  });
});

void describe('asPassCondition', () => {
  void it('accepts a default-exported function and an async one', async () => {
    const { value, ref } = await exported('./esm-scope/pass.ts');
    const pass = ok(asPassCondition(value, ref));
    const evaluations = [{ passed: true }, { passed: false }, { passed: null }].map((e) => ({
      evaluator: 'e',
      score: 1,
      threshold: null,
      metadata: null,
      error: null,
      durationMs: 0,
      ...e,
    }));
    assert.equal(await pass({ testCase: {}, output: null, params: {}, evaluations }), false);
    const asyncOne = await exported('./esm-scope/pass.ts#asyncPass');
    assert.ok(asPassCondition(asyncOne.value, asyncOne.ref).ok);
  });

  void it('rejects a class and an array', async () => {
    const cls = await exported('./esm-scope/pass.ts#PassClass');
    assert.equal(
      err(asPassCondition(cls.value, cls.ref)).message,
      './esm-scope/pass.ts#PassClass must be a function (the pass condition: (args) => boolean), found a class (PassClass)',
    );
    const array = await exported('./esm-scope/evaluators.ts#anArray');
    assert.equal(err(asPassCondition(array.value, array.ref)).code, 'module.wrong-shape');
  });
});

void describe('describeKind', () => {
  void it('names kinds, not values', () => {
    class Client {}
    const cases: [unknown, string][] = [
      [undefined, 'undefined'],
      [null, 'null'],
      ['x', 'a string'],
      [1, 'a number'],
      [true, 'a boolean'],
      [1n, 'a bigint'],
      [Symbol('s'), 'a symbol'],
      [[1], 'an array'],
      [{ a: 1 }, 'an object'],
      [Object.create(null), 'an object'],
      [new Client(), 'an instance of Client'],
      [() => 1, 'a function'],
      [Client, 'a class (Client)'],
    ];
    for (const [value, expected] of cases) assert.equal(describeKind(value), expected);
  });
});
