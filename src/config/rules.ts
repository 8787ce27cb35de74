/**
 * The rules of `evals.yaml` a JSON Schema cannot express: unique ids, known built-ins and their
 * options, templates, sensible thresholds, references between sections. They run on the raw
 * (env-substituted) data even when the schema found problems, so one pass reports everything;
 * each rule therefore checks the shape of what it reads and skips what the schema reports.
 */
import type { BuiltinDefinition } from '../evaluators/types.ts';
import { isModuleSpec, parseModuleSpec } from './module-spec.ts';
import { formatConfigPath, parseDottedPath } from './config-path.ts';
import { closestMatch } from './did-you-mean.ts';
import {
  PASS_CONDITION_EVALUATOR,
  UNSAFE_KEY_REASON,
  UNSAFE_OBJECT_KEY,
} from '../shared/reserved-ids.ts';
import { checkOptionsSchema } from './schema-check.ts';
import { schemaProblems } from './schema-errors.ts';
import { orList } from './schema-messages.ts';
import { impossibleThreshold } from './threshold.ts';
import type { ConfigPath, Loc } from './types.ts';
import { isRecord } from '../shared/is-record.ts';
import { checkTarget } from './target.ts';
import { checkTimeout } from './timeout-rule.ts';
import { checkGrid } from './grid-rule.ts';
import {
  moduleOptionProblems,
  strings,
  suiteParamProblems,
  templateProblems,
} from './template-check.ts';
import { checkJudgeSettings } from './judge-settings-check.ts';
import {
  checkRemovedEvaluators,
  checkRemovedGridValues,
  checkRemovedSuites,
} from './removed-rule.ts';

/** A broken rule, located by config path (and key, for problems with a mapping key). */
export interface RuleProblem {
  code: string;
  path: ConfigPath;
  key?: string;
  message: string;
}

export interface RuleContext {
  builtins: Readonly<Record<string, BuiltinDefinition>>;
  /** Position of a config path, to point from one problem at the other place involved. */
  locate(path: ConfigPath): Loc;
  /** Removes the config's secrets from a value a message quotes (see `SchemaProblemOptions`). */
  scrub?: (text: string) => string;
}

/**
 * The id of an evaluator written without `id:`: a built-in's name, a module's export name
 * (`./tone.ts#Tone` → `Tone`), or for a default export the file's base name (`./tone.ts` → `tone`).
 */
export function defaultEvaluatorId(use: string): string {
  if (!isModuleSpec(use)) return use;
  const ref = parseModuleSpec(use, '/');
  if (ref.exportName !== 'default') return ref.exportName;
  const base = ref.file.split(/[\\/]/).pop() ?? ref.file;
  return base.replace(/\.[^.]+$/, '') || base;
}

/** Every rule broken by `data` (the whole config as parsed). */
export function checkRules(data: unknown, context: RuleContext): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const add = (code: string, path: ConfigPath, message: string, key?: string): void => {
    if (key !== undefined) {
      problems.push({ code, path, key, message });
      return;
    }
    problems.push({ code, path, message });
  };
  if (!isRecord(data)) return problems;

  if (isRecord(data.defaults)) {
    checkTimeout(data.defaults.timeout, ['defaults', 'timeout'], add);
    checkJudge(data.defaults.judge, ['defaults', 'judge'], add);
  }

  const suites = Array.isArray(data.suites) ? (data.suites as unknown[]) : [];
  const suiteIds = new Map<string, number>();
  suites.forEach((suite, index) => {
    if (!isRecord(suite)) return;
    const path: ConfigPath = ['suites', index];
    if (typeof suite.id === 'string') {
      const first = suiteIds.get(suite.id);
      if (first === undefined) suiteIds.set(suite.id, index);
      else {
        const where = describePlace(['suites', first], context);
        add(
          'suite.duplicate-id',
          [...path, 'id'],
          `duplicate suite id ${JSON.stringify(suite.id)} (${where} has the same id)`,
        );
      }
    }
    checkSuite(suite, path, context, add);
  });
  checkRemovedSuites(data.removedSuites, suiteIds, context, add);
  return problems;
}

type Add = (code: string, path: ConfigPath, message: string, key?: string) => void;

interface EvaluatorFacts {
  id: string;
  builtin: BuiltinDefinition | undefined;
  hasThreshold: boolean;
  /** It has `agreement:` (human labels to be checked against). */
  hasAgreement?: boolean;
}

function checkSuite(
  suite: Record<string, unknown>,
  path: ConfigPath,
  context: RuleContext,
  add: Add,
): void {
  checkTimeout(suite.timeout, [...path, 'timeout'], add);

  if (
    typeof suite.function === 'string' &&
    suite.function !== '' &&
    !isModuleSpec(suite.function)
  ) {
    add(
      'suite.function',
      [...path, 'function'],
      `expected a module spec such as ./app/answer.ts#answer, found ${JSON.stringify(suite.function)}`,
    );
  }
  if (
    typeof suite.pass === 'string' &&
    suite.pass !== '' &&
    !['all', 'any'].includes(suite.pass) &&
    !isModuleSpec(suite.pass)
  ) {
    add(
      'suite.pass',
      [...path, 'pass'],
      `expected all, any or a module spec such as ./pass.ts#passes, found ${JSON.stringify(suite.pass)}`,
    );
  }

  checkTarget(suite, path, add);
  if (isRecord(suite.target))
    checkTimeout(suite.target.timeout, [...path, 'target', 'timeout'], add);
  // A `{{ params.x }}` naming no key of the suite's own grid would fail every case.
  for (const [valuePath, message] of suiteParamProblems(suite, path)) {
    add('template.unknown-param', valuePath, message);
  }
  // `defaults.isolation` is only a default: suites without a function ignore it.
  if (suite.isolation !== undefined && suite.function === undefined) {
    add(
      'suite.isolation',
      [...path, 'isolation'],
      'isolation applies to function targets (function:), and this suite has none: a model, HTTP or command target, or recorded outputs, runs no user code in the evalgate process',
    );
  }

  const testset = suite.testset;
  if (
    isRecord(testset) &&
    testset.cases !== undefined &&
    testset.ref !== undefined &&
    testset.path === undefined
  ) {
    add(
      'testset.ref',
      [...path, 'testset', 'ref'],
      'ref reads a testset file as of a git revision: it needs path:, not inline cases:',
    );
  }

  checkGrid(suite.grid, [...path, 'grid'], add);

  const evaluators = Array.isArray(suite.evaluators) ? (suite.evaluators as unknown[]) : [];
  const facts: EvaluatorFacts[] = [];
  const ids = new Map<string, number>();
  evaluators.forEach((evaluator, index) => {
    if (!isRecord(evaluator)) return;
    const evPath: ConfigPath = [...path, 'evaluators', index];
    const fact = checkEvaluator(evaluator, evPath, context, add);
    if (!fact) return;
    facts.push({ ...fact, hasAgreement: isRecord(evaluator.agreement) });
    if (fact.id === PASS_CONDITION_EVALUATOR) {
      // The engine records a failing pass-condition function under this id.
      add(
        'evaluator.reserved-id',
        [...evPath, typeof evaluator.id === 'string' ? 'id' : 'use'],
        `evaluator id "${PASS_CONDITION_EVALUATOR}" is reserved for the pass condition's own errors: choose another id:`,
      );
    }
    if (fact.id === UNSAFE_OBJECT_KEY) {
      // An id: of this name fails the id pattern; one taken from use: (a module's name) does not.
      const fromUse = typeof evaluator.id !== 'string';
      add(
        'evaluator.reserved-id',
        [...evPath, fromUse ? 'use' : 'id'],
        `evaluator id "${fact.id}"${fromUse ? ' (taken from use:)' : ''} ${UNSAFE_KEY_REASON}: give it another id:`,
      );
    }
    const first = ids.get(fact.id);
    if (first === undefined) {
      ids.set(fact.id, index);
      return;
    }
    const where = describePlace([...path, 'evaluators', first], context);
    if (typeof evaluator.id === 'string') {
      add(
        'evaluator.duplicate-id',
        [...evPath, 'id'],
        `duplicate evaluator id ${JSON.stringify(fact.id)} (${where} has the same id)`,
      );
    } else {
      add(
        'evaluator.duplicate-id',
        [...evPath, 'use'],
        `evaluator id ${JSON.stringify(fact.id)} (taken from use:) is already used by ${where}: give one of them an id:`,
      );
    }
  });

  if (isRecord(suite.gate)) {
    const gatePath: ConfigPath = [...path, 'gate'];
    checkGate(suite.gate, gatePath, facts, add);
    // Where each evaluator's id is written: its id:, else the use: it is taken from.
    const written = new Map(
      [...ids].map(([id, index]) => {
        const evaluator = evaluators[index];
        const key = isRecord(evaluator) && typeof evaluator.id === 'string' ? 'id' : 'use';
        return [id, [...path, 'evaluators', index, key]];
      }),
    );
    const removedPath: ConfigPath = [...gatePath, 'removedEvaluators'];
    checkRemovedEvaluators(suite.gate.removedEvaluators, removedPath, written, context, add);
    const valuesPath: ConfigPath = [...gatePath, 'removedGridValues'];
    const { removedGridValues } = suite.gate;
    checkRemovedGridValues(
      removedGridValues,
      valuesPath,
      suite.grid,
      [...path, 'grid'],
      context,
      add,
    );
  }
}

function checkEvaluator(
  evaluator: Record<string, unknown>,
  path: ConfigPath,
  context: RuleContext,
  add: Add,
): EvaluatorFacts | undefined {
  checkTimeout(evaluator.timeout, [...path, 'timeout'], add);
  checkJudge(evaluator.judge, [...path, 'judge'], add);
  const threshold = evaluator.threshold;
  if (isRecord(threshold)) checkThreshold(threshold, [...path, 'threshold'], add);

  const use = evaluator.use;
  if (typeof use !== 'string' || use === '') return undefined;
  const id = typeof evaluator.id === 'string' ? evaluator.id : defaultEvaluatorId(use);
  const options = evaluator.with;
  const withPath: ConfigPath = [...path, 'with'];
  const hasThreshold = isRecord(threshold);

  const judgePath: ConfigPath = [...path, 'judge'];
  if (isModuleSpec(use)) {
    // judge: on a module is checked when it is loaded (bind): it applies to the SDK's judge
    // classes (BaseLLMJudge, BaseAccuracy, …), which only the loaded export can tell.
    // Templates are resolved per case for built-ins only; a module gets its options once.
    for (const [code, valuePath, message] of moduleOptionProblems(options, withPath)) {
      add(code, valuePath, message);
    }
    return { id, builtin: undefined, hasThreshold };
  }

  const builtin = Object.hasOwn(context.builtins, use) ? context.builtins[use] : undefined;
  if (!builtin) {
    const names = Object.keys(context.builtins);
    const near = closestMatch(use, names);
    const message = near
      ? `unknown evaluator ${JSON.stringify(use)} (did you mean ${JSON.stringify(near)}?)`
      : `unknown evaluator ${JSON.stringify(use)}: expected a built-in (${names.join(', ')}) or a module spec such as ./evaluators/tone.ts#Tone`;
    add('evaluator.unknown', [...path, 'use'], message);
    return { id, builtin: undefined, hasThreshold };
  }

  if (evaluator.judge !== undefined && builtin.calls === undefined) {
    add(
      'evaluator.judge-unused',
      judgePath,
      `${use} does not call a model, so judge: has no effect; remove it`,
    );
  }
  let templatesOk = true;
  for (const [valuePath, text] of strings(options, withPath)) {
    for (const message of templateProblems(text)) {
      templatesOk = false;
      add('template.invalid', valuePath, message);
    }
  }
  if (options === undefined || isRecord(options)) {
    const given = options ?? {};
    const optionProblems = schemaProblems(checkOptionsSchema(builtin.optionsSchema, given), given, {
      templatesAllowed: true,
      ...(context.scrub !== undefined ? { scrub: context.scrub } : {}),
    });
    for (const problem of optionProblems) {
      const code = problem.code.replace(/^schema\./, 'options.');
      add(code, [...withPath, ...problem.path], problem.message, problem.key);
    }
    // validate() assumes options that fit the schema and well-formed templates.
    if (optionProblems.length === 0 && templatesOk && builtin.validate) {
      for (const problem of builtin.validate(given)) {
        add('options.invalid', [...withPath, ...parseDottedPath(problem.path)], problem.message);
      }
    }
  }
  return { id, builtin, hasThreshold: hasThreshold || builtin.defaultThreshold !== undefined };
}

function checkGate(
  gate: Record<string, unknown>,
  path: ConfigPath,
  facts: EvaluatorFacts[],
  add: Add,
): void {
  if (!isRecord(gate.evaluators)) return;
  const byId = new Map(facts.map((fact) => [fact.id, fact]));
  for (const [id, bounds] of Object.entries(gate.evaluators)) {
    const entryPath: ConfigPath = [...path, 'evaluators', id];
    const fact = byId.get(id);
    if (!fact) {
      // `pass` names no evaluator: it is refused as an id, reserved for the pass condition.
      const ids = new Set(facts.map((f) => f.id));
      const known = [...ids].filter((name) => name !== PASS_CONDITION_EVALUATOR);
      const near = closestMatch(id, known);
      const hint = near
        ? `did you mean ${JSON.stringify(near)}?`
        : known.length > 0
          ? `the suite's evaluators are ${orList(known)}`
          : 'the suite has no evaluators';
      add(
        'gate.unknown-evaluator',
        [...path, 'evaluators'],
        `no evaluator ${JSON.stringify(id)} in this suite (${hint})`,
        id,
      );
    }
    if (!isRecord(bounds)) continue;
    for (const key of ['mean', 'passRate'] as const) {
      const threshold = bounds[key];
      if (isRecord(threshold)) checkThreshold(threshold, [...entryPath, key], add);
    }
    if (isRecord(bounds.agreement) && fact && fact.hasAgreement !== true) {
      add(
        'gate.agreement-without-labels',
        [...entryPath, 'agreement'],
        `evaluator ${JSON.stringify(id)} has no agreement: { column: ... } naming the testset column of human labels, so there is no agreement to gate on`,
      );
    }
    if (isRecord(bounds.passRate) && fact?.builtin && !fact.hasThreshold) {
      add(
        'gate.pass-rate-without-threshold',
        [...entryPath, 'passRate'],
        `evaluator ${JSON.stringify(id)} has no threshold, so its evaluations never pass or fail: give it a threshold: or gate on mean`,
      );
    }
  }
}

function checkThreshold(threshold: Record<string, unknown>, path: ConfigPath, add: Add): void {
  const message = impossibleThreshold(threshold);
  if (message) add('threshold.impossible', path, message);
}

/** The rules of a `judge:` block (of `defaults` or an evaluator, built-in or module). */
function checkJudge(judge: unknown, path: ConfigPath, add: Add): void {
  checkJudgeSettings(judge, path, add);
  if (isRecord(judge)) checkTimeout(judge.timeout, [...path, 'timeout'], add);
}

function describePlace(path: ConfigPath, context: RuleContext): string {
  return `${formatConfigPath(path)} at line ${context.locate(path).line}`;
}
