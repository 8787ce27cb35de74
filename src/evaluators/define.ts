import type { EngineEvaluator, Evaluation, EvaluatorArgs, Threshold } from '../types.ts';
import { optionResolver, type OptionValues } from './options.ts';
import type { BuiltinDefinition } from './types.ts';

/** What a built-in supplies; `defineBuiltin` turns it into a registry entry. */
export interface BuiltinSpec<Prepared> {
  summary: string;
  optionsSchema: Record<string, unknown>;
  defaultThreshold?: Threshold;
  validate?: BuiltinDefinition['validate'];
  /** Once per evaluator, at create time: compile what does not depend on the case. */
  prepare?: (options: OptionValues) => Prepared;
  /** One case: `values` are the options with their templates resolved for it. Throws on bad options. */
  score: (values: OptionValues, args: EvaluatorArgs, prepared: Prepared) => Evaluation;
}

/**
 * The common shape of every built-in: templated options resolved per call, and the default
 * threshold carried by the evaluator itself, so a built-in used from code gates the same way as
 * one named in evals.yaml.
 */
export function defineBuiltin<Prepared = undefined>(
  spec: BuiltinSpec<Prepared>,
): BuiltinDefinition {
  const { prepare, score, ...definition } = spec;
  return {
    ...definition,
    create(options, { id }): EngineEvaluator {
      const resolve = optionResolver(options);
      const prepared = prepare ? prepare(options) : (undefined as Prepared);
      return {
        id,
        ...(spec.defaultThreshold ? { threshold: spec.defaultThreshold } : {}),
        evaluateTestCase: (args) => score(resolve(args), args, prepared),
      };
    },
  };
}
