import type { EngineEvaluator, Evaluation, EvaluatorArgs, Threshold } from '../types/index.ts';
import { scrubbedCut, type MetadataCut } from './metadata.ts';
import { optionResolver, type OptionValues } from './options.ts';
import type { BuiltinContext, BuiltinDefinition } from './types.ts';

/** What a built-in supplies; `defineBuiltin` turns it into a registry entry. */
export interface BuiltinSpec<Prepared> {
  summary: string;
  optionsSchema: Record<string, unknown>;
  defaultThreshold?: Threshold;
  calls?: BuiltinDefinition['calls'];
  callsPerCase?: BuiltinDefinition['callsPerCase'];
  validate?: BuiltinDefinition['validate'];
  /**
   * Once per evaluator, at create time: compile what does not depend on the case. Judge built-ins
   * take their model access from `context.judge` here (and throw when they need one absent).
   */
  prepare?: (options: OptionValues, context: BuiltinContext) => Prepared;
  /**
   * One case: `values` are the options with their templates resolved for it. Throws (or rejects)
   * on bad options; judge built-ins are async and honour `args.signal`. `cut` cuts a text the
   * metadata quotes (the output, a match) after removing the run's secrets from it.
   */
  score: (
    values: OptionValues,
    args: EvaluatorArgs,
    prepared: Prepared,
    cut: MetadataCut,
  ) => Evaluation | Promise<Evaluation>;
}

/**
 * A built-in scored on values computed in code (the SDK classes' mappers) rather than on
 * `with:` templates: a mapped text that happens to hold `{{ }}` must stay text. `direct` runs
 * `prepare` once with the per-evaluator `options` and returns the per-case scorer.
 */
export interface DirectScoring {
  direct(
    options: OptionValues,
    context: BuiltinContext,
  ): (values: OptionValues, args: EvaluatorArgs) => Evaluation | Promise<Evaluation>;
}

/**
 * The common shape of every built-in: templated options resolved per call, and the default
 * threshold carried by the evaluator itself, so a built-in used from code gates the same way as
 * one named in evals.yaml.
 */
export function defineBuiltin<Prepared = undefined>(
  spec: BuiltinSpec<Prepared>,
): BuiltinDefinition & DirectScoring {
  const { prepare, score, ...definition } = spec;
  return {
    ...definition,
    direct(options, context) {
      const prepared = prepare ? prepare(options, context) : (undefined as Prepared);
      const cut = scrubbedCut(context.scrub);
      return (values, args) => score(values, args, prepared, cut);
    },
    create(options, context): EngineEvaluator {
      const { id } = context;
      const resolve = optionResolver(options);
      const prepared = prepare ? prepare(options, context) : (undefined as Prepared);
      const cut = scrubbedCut(context.scrub);
      return {
        id,
        ...(spec.defaultThreshold ? { threshold: spec.defaultThreshold } : {}),
        evaluateTestCase: (args) => score(resolve(args), args, prepared, cut),
      };
    },
  };
}
