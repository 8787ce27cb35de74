/**
 * Binding: what a suite's config names, made into what the engine calls. User modules are
 * loaded (the function under test, custom evaluators, a pass condition), built-in evaluators
 * and judge clients created, and the target built by its kind's registry entry. The plan's runs
 * and the bound suites then make the engine's suites (suite-specs.ts).
 *
 * With a loader that imports nothing (`importsModules: false`, `evals run --dry-run`), binding
 * is a check: every module's file must be there, but none is imported, and a function target
 * is not built (a worker thread would import it); what stands in for them cannot be called.
 */
import { basename, dirname, join } from 'node:path';
import { suiteIssueAt } from '../config/config-path.ts';
import { parseModuleSpec } from '../config/module-spec.ts';
import type { ConfigPath, EvaluatorConfig, LoadedConfig, SuiteConfig } from '../config/types.ts';
import { builtinEvaluators, type BuiltinEvaluatorName } from '../evaluators/registry.ts';
import { OVERRIDES_INVALID, type OverridesFileError } from '../evaluators/judges/overrides.ts';
import { acceptsSdkContext, sdkClassUse } from '../evaluators/sdk/builtin-backed.ts';
import type { Breaker } from '../judge/breaker.ts';
import type { Checked, Issue, Located } from '../shared/errors.ts';
import { createScrubber } from '../shared/secrets.ts';
import { targetKinds, type TargetKinds } from '../targets/registry.ts';
import type { AgreementSpec, EngineEvaluator, PassCondition, Target } from '../types/index.ts';
import { FUNCTION_WORKER_ENTRY } from './function-worker-entry.ts';
import { negated } from './negated.ts';
import type { ModelAccess } from './models.ts';
import type { ModuleLoader } from './modules/loader.ts';
import { loadShaped, moduleThere, notImported, unreadable } from './module-binding.ts';
import { asEvaluator, asPassCondition, asTestFn, isObjectEvaluator } from './modules/shapes.ts';
import { SDK_EVALUATOR_CONCURRENCY } from '../evaluators/base.ts';
import { isPlainObject } from '../shared/is-record.ts';

export interface BindOptions {
  loader: ModuleLoader;
  /** Model access for judge built-ins; absent: they report that they cannot call a model. */
  models?: ModelAccess;
  /** The run's secrets, for targets to scrub from what they report; default none. */
  secrets?: readonly string[];
  /** Gives up on servers that fail systematically (HTTP targets); default none. */
  breaker?: Breaker;
  /** The environment command targets inherit (the CLI's); default none. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The target kinds a config may name (default: the built-in ones, `targetKinds`). */
  targets?: TargetKinds;
  /** Prints a warning of the run (targets: an output's integer past 2^53); default silent. */
  warn?: (message: string) => void;
  /**
   * Bound only to check the config (`evals validate`, `evals run --dry-run`): see
   * `TargetContext.checkOnly`.
   */
  checkOnly?: boolean;
  /**
   * The run's interrupt: worker threads still loading the function when it comes are stopped,
   * and the run, which starts no case then, ends as interrupted.
   */
  signal?: AbortSignal;
}

/** What the engine calls for one suite. */
export interface BoundSuite {
  target: Target;
  evaluators: EngineEvaluator[];
  pass: PassCondition;
}

export type Bound =
  | {
      ok: true;
      suites: ReadonlyMap<string, BoundSuite>;
      /** What binding noticed and the run goes on with, to print (see {@link ownIdIgnored}). */
      warnings: Issue[];
    }
  | { ok: false; issues: Issue[] };

/** Binds every suite of `suites`; every problem of every one, or the bound suites by id. */
export async function bindSuites(
  config: LoadedConfig,
  suites: readonly SuiteConfig[],
  options: BindOptions,
): Promise<Bound> {
  const bound = await Promise.all(suites.map((suite) => bindSuite(config, suite, options)));
  const issues = bound.flatMap((b) => (b.ok ? [] : b.issues));
  if (issues.length > 0) return { ok: false, issues };
  return {
    ok: true,
    suites: new Map(bound.flatMap((b, i) => (b.ok ? [[suites[i]!.id, b.suite] as const] : []))),
    warnings: bound.flatMap((b) => (b.ok ? b.warnings : [])),
  };
}

async function bindSuite(
  config: LoadedConfig,
  suite: SuiteConfig,
  options: BindOptions,
): Promise<{ ok: true; suite: BoundSuite; warnings: Issue[] } | { ok: false; issues: Issue[] }> {
  const at = suiteIssueAt(config, suite);
  const [target, evaluators, pass] = await Promise.all([
    bindTarget(config, suite, options),
    Promise.all(suite.evaluators.map((e) => loadEvaluator(config, suite, e, options, at))),
    loadPass(config, suite, options.loader, at),
  ]);
  const issues: Issue[] = [];
  if (!target.ok) issues.push(...('issues' in target ? target.issues : [target.issue]));
  for (const e of evaluators) if (!e.ok) issues.push(e.issue);
  if (!pass.ok) issues.push(pass.issue);
  if (!target.ok || !pass.ok || issues.length > 0) return { ok: false, issues };
  return {
    ok: true,
    suite: {
      target: target.value,
      evaluators: evaluators.flatMap((e) => (e.ok ? [e.value.evaluator] : [])),
      pass: pass.value,
    },
    warnings: evaluators.flatMap((e) => (e.ok ? e.value.warnings : [])),
  };
}

/** The suite's target, built by its kind's entry in the registry. */
function bindTarget(
  config: LoadedConfig,
  suite: SuiteConfig,
  options: BindOptions,
): Promise<Located<Target> | Checked<Target>> {
  const kinds: TargetKinds = options.targets ?? targetKinds;
  const kind = kinds[suite.target.kind];
  if (kind === undefined) throw new Error(`no target kind "${suite.target.kind}" is registered`);
  const at = suiteIssueAt(config, suite);
  const { loader } = options;
  if (!loader.importsModules && suite.target.kind === 'function') {
    const description = `function ${suite.target.module}`;
    const stand: Target = { description, call: notImported };
    return moduleThere(loader, config, suite.target.module, at('function'), stand);
  }
  return kind.create(suite.target, {
    config,
    suite,
    issueAt: at,
    ...(options.models !== undefined ? { models: options.models } : {}),
    env: options.env ?? {},
    secrets: options.secrets ?? [],
    ...(options.breaker !== undefined ? { breaker: options.breaker } : {}),
    ...(options.warn !== undefined ? { warn: options.warn } : {}),
    loadFunction: (module, where) =>
      loader.importsModules
        ? loadShaped(loader, config, module, at(...where), asTestFn)
        : moduleThere(loader, config, module, at(...where), notImported),
    functionWorkerEntry: FUNCTION_WORKER_ENTRY,
    tsxSearchFrom: loader.tsxSearchFrom,
    ...(options.checkOnly === true ? { checkOnly: true } : {}),
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
  });
}

async function loadEvaluator(
  config: LoadedConfig,
  suite: SuiteConfig,
  ev: EvaluatorConfig,
  options: BindOptions,
  at: (...path: ConfigPath) => Issue,
): Promise<Located<{ evaluator: EngineEvaluator; warnings: Issue[] }>> {
  const where = at('evaluators', ev.index, 'use');
  let inner: EngineEvaluator;
  let exported: object | undefined;
  // How the engine calls `inner`: an SDK class in this entry's context (set below).
  let within = <T>(call: () => T): T => call();
  let callee: EngineEvaluator | undefined;
  // What an SDK class accepts for now but will refuse (a battle without criteria).
  const sdkWarnings: Issue[] = [];
  if (ev.kind === 'builtin') {
    // A built-in carries its default threshold itself (see defineBuiltin). Creating one can
    // fail on settings only known now (a judge without a model, a corrupt baselines file).
    try {
      inner = builtinEvaluators[ev.use as BuiltinEvaluatorName].create(ev.with, {
        id: ev.id,
        ...options.models?.contextFor(suite, ev),
        ...(options.secrets?.length ? { scrub: createScrubber(options.secrets).text } : {}),
      });
    } catch (error) {
      return { ok: false, issue: createIssue(error, config, where) };
    }
    const urlProblem = builtinEvaluators[ev.use as BuiltinEvaluatorName].calls
      ? options.models?.envBaseUrlProblem(ev)
      : undefined;
    if (urlProblem) return { ok: false, issue: { ...where, ...urlProblem } };
  } else if (!options.loader.importsModules) {
    const stand: EngineEvaluator = { id: ev.id, evaluateTestCase: notImported };
    const there = await moduleThere(options.loader, config, ev.use, where, stand);
    if (!there.ok) return there;
    inner = there.value;
  } else {
    const shaped = await loadShaped(options.loader, config, ev.use, where, (value, ref) => {
      // An exported object is the one every entry using it shares; a class is made anew for each.
      if (typeof value === 'object' && value !== null) exported = value;
      return asEvaluator(value, ref, ev.with, ev.id);
    });
    if (!shaped.ok) return shaped;
    inner = shaped.value;
    let sdkInner: ReturnType<typeof sdkEvaluator>;
    try {
      sdkInner = sdkEvaluator(inner);
    } catch (error) {
      return {
        ok: false,
        issue: { ...where, ...unreadable(parseModuleSpec(ev.use, config.dir), error) },
      };
    }
    // The SDK's judge classes get the judge settings the built-ins get (their own fields win).
    if (sdkInner !== undefined) {
      // An exported instance without an `id` comes as a view inheriting from it (shapes.ts),
      // whose calls could not read the class's private state: they go to the instance itself,
      // which takes the entry's id from its context.
      if (exported !== undefined) callee = exported as EngineEvaluator;
      const sdk = sdkClassUse((callee ?? sdkInner) as typeof sdkInner);
      const context = {
        ...options.models?.contextFor(suite, ev),
        evaluatorId: ev.id,
        ...(options.secrets?.length ? { scrub: createScrubber(options.secrets).text } : {}),
      };
      // The entry's own, not the instance's: an exported instance several entries name judges
      // each one's cases with that entry's settings and suite (BuiltinBackedEvaluator.sdkInContext).
      // A class from a copy of evalgate without it takes it the older way.
      const inContext = sdk.inContext;
      if (inContext !== undefined) within = (call) => inContext(context, call);
      else sdk.useContext(context);
      try {
        within(() => sdk.preload?.());
        const warnings = sdk.warnings;
        for (const message of warnings !== undefined ? within(warnings) : []) {
          sdkWarnings.push({
            ...where,
            code: 'evaluator.deprecated',
            message: `${ev.use} ${message}`,
          });
        }
      } catch (error) {
        return { ok: false, issue: createIssue(error, config, where) };
      }
    } else if (ev.judge !== undefined) {
      return {
        ok: false,
        issue: {
          ...at('evaluators', ev.index, 'judge'),
          code: 'evaluator.judge-unused',
          message: `${ev.use} is not one of the SDK's judge classes (BaseLLMJudge, BaseAccuracy, …), so judge: has no effect; a custom evaluator can call models through createJudgeClient from "evalgate"`,
        },
      };
    }
  }
  let declared: ReturnType<typeof declaredBy>;
  try {
    declared = declaredBy(ev, inner);
  } catch (error) {
    return {
      ok: false,
      issue: { ...where, ...unreadable(parseModuleSpec(ev.use, config.dir), error) },
    };
  }
  const threshold = ev.threshold ?? declared.threshold;
  // A class instance (the export, not a view giving it an id) that sets none has the SDK's 10, as
  // under `runTestSuite`; a plain object, or a function (wrapped in one), has none of its own.
  const isClass = ev.kind === 'module' && !isPlainObject(exported ?? inner);
  const classDefault = isClass ? SDK_EVALUATOR_CONCURRENCY : undefined;
  const maxConcurrency = ev.concurrency ?? declared.maxConcurrency ?? classDefault;
  // A module's own `maxConcurrency` is its object's: an exported instance several suites use is
  // held to it across them all (evaluator-limits.ts). The config's `concurrency:` is this entry's.
  const limitOwner = ev.concurrency === undefined ? (exported ?? inner) : undefined;
  const timeoutMs = ev.timeoutMs ?? declared.timeoutMs;
  const evaluator: EngineEvaluator = {
    id: ev.id,
    ...(threshold ? { threshold } : {}),
    ...(maxConcurrency !== undefined ? { maxConcurrency } : {}),
    ...(maxConcurrency !== undefined && limitOwner !== undefined ? { limitOwner } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(ev.when !== undefined ? { when: ev.when } : {}),
    ...(ev.agreement !== undefined ? { agreement: agreementSpec(ev, ev.agreement.column) } : {}),
    scorer: scorerOf(ev),
    evaluateTestCase: ev.not
      ? (args) => negated(within(() => (callee ?? inner).evaluateTestCase(args)))
      : (args) => within(() => (callee ?? inner).evaluateTestCase(args)),
  };
  const warning = ownIdIgnored(ev, declared.id, at);
  return {
    ok: true,
    value: { evaluator, warnings: [...(warning ? [warning] : []), ...sdkWarnings] },
  };
}

/**
 * What computes an evaluator's score, for a comparison to tell one id given another scorer: the
 * built-in, or a module's export by name (`module export Concise`), so a module moved to another
 * file is still the same scorer; `not ` first when its score is inverted.
 */
function scorerOf(ev: EvaluatorConfig): string {
  const name =
    ev.kind === 'builtin' ? ev.use : `module export ${parseModuleSpec(ev.use, '.').exportName}`;
  return ev.not ? `not ${name}` : name;
}

/** `evaluator` when it is one of the SDK's classes that take a judge context, else undefined. */
function sdkEvaluator(evaluator: EngineEvaluator) {
  return acceptsSdkContext(evaluator) ? evaluator : undefined;
}

/**
 * What an evaluator declares of the settings the config may also give, read once, where a
 * module's getters (or a Proxy's traps), which are its code and may throw, can be answered for.
 * The config's id, limits and threshold win over these. A module's class declares only
 * `maxConcurrency` (the SDK's surface): a field of its own named `threshold` or `timeoutMs` is
 * its state, not a setting; a plain object may set them.
 */
function declaredBy(
  ev: EvaluatorConfig,
  evaluator: EngineEvaluator,
): Pick<EngineEvaluator, 'id' | 'threshold' | 'maxConcurrency' | 'timeoutMs'> {
  const declared: Partial<EngineEvaluator> =
    ev.kind === 'builtin' || isObjectEvaluator(evaluator) ? evaluator : {};
  return {
    id: evaluator.id,
    threshold: declared.threshold,
    maxConcurrency: evaluator.maxConcurrency,
    timeoutMs: declared.timeoutMs,
  };
}

/**
 * An evaluator class or object that names itself (`id = 'tone'`, as Autoblocks evaluators do)
 * is still named by the config: its `id:`, else the export's name. Without `id:` the two can
 * differ, and results, gates and baselines would go by a name the user did not choose.
 */
function ownIdIgnored(
  ev: EvaluatorConfig,
  ownId: string,
  at: (...path: ConfigPath) => Issue,
): Issue | undefined {
  if (ev.kind !== 'module' || ev.idFromUse !== true || ownId === ev.id) return undefined;
  return {
    ...at('evaluators', ev.index, 'use'),
    code: 'evaluator.own-id-ignored',
    message: `${ev.use} names itself ${JSON.stringify(ownId)}, but this evaluator is ${JSON.stringify(ev.id)} (the export's name), as no id: is given; write id: ${JSON.stringify(ownId)} to keep the evaluator's own name`,
  };
}

/**
 * The issue of an evaluator that could not be made ready: a malformed overrides store is shown
 * where it is, as a module's syntax error is; anything else where the config names it. By
 * `code`, not `instanceof`: an SDK class from a module may throw its own copy's error class.
 */
function createIssue(error: unknown, config: LoadedConfig, where: Issue): Issue {
  if (error instanceof Error && (error as Partial<OverridesFileError>).code === OVERRIDES_INVALID) {
    const { file, line, problem } = error as OverridesFileError;
    return {
      code: OVERRIDES_INVALID,
      file: join(dirname(config.file), basename(file)),
      line,
      col: 1,
      path: '',
      message: `${problem} (read for ${where.path})`,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { ...where, code: 'evaluator.create', message };
}

/**
 * What `agreement:` compares: an llm-judge's verdicts are its choices (ordered by their scores),
 * any other evaluator's are pass/fail against its threshold.
 */
function agreementSpec(ev: EvaluatorConfig, column: string): AgreementSpec {
  const choices = ev.use === 'llm-judge' ? ev.with.choices : undefined;
  const valid =
    typeof choices === 'object' &&
    choices !== null &&
    Object.values(choices).every((score) => typeof score === 'number');
  return { column, choices: valid ? (choices as Record<string, number>) : null };
}

async function loadPass(
  config: LoadedConfig,
  suite: SuiteConfig,
  loader: ModuleLoader,
  at: (...path: ConfigPath) => Issue,
): Promise<Located<PassCondition>> {
  if (suite.pass === 'all' || suite.pass === 'any') return { ok: true, value: suite.pass };
  if (!loader.importsModules) return moduleThere(loader, config, suite.pass, at('pass'), 'all');
  return loadShaped(loader, config, suite.pass, at('pass'), asPassCondition);
}
