import type { Evaluation } from '../../types/index.ts';
import { defineBuiltin } from '../define.ts';
import { ACTUAL_OPTION } from '../option-schemas.ts';
import { actualOf, optionalString, textOf } from '../options.ts';
import { BATTLE_OPTIONS, judgeBattle } from './battle.ts';
import { JudgeCalls, requireChatJudge } from './calls.ts';

/**
 * `manual-battle`: the value under test against a baseline the user supplies per case
 * (usually a testset column holding a previous or reference system's answer). The default
 * threshold passes a tie: the gate is "not reliably worse than the baseline".
 */
export const manualBattle = defineBuiltin({
  summary:
    'A judge model compares the output with `baseline` in both orders: win 1, tie 0.5, loss 0.',
  calls: 'chat',
  // Each battle is judged twice, the answers swapped (battle.ts).
  callsPerCase: 2,
  optionsSchema: {
    type: 'object',
    properties: {
      baseline: {
        description:
          'The answer to beat, e.g. "{{case.baseline_output}}". A non-string value is shown to the judge as JSON.',
      },
      ...BATTLE_OPTIONS,
      actual: ACTUAL_OPTION,
    },
    required: ['baseline'],
    additionalProperties: false,
  },
  defaultThreshold: { gte: 0.5 },
  prepare: (_options, context) => requireChatJudge(context, 'manual-battle'),
  async score(values, args, judge, cut): Promise<Evaluation> {
    const question = optionalString(values, 'question');
    const criteria = optionalString(values, 'criteria');
    return judgeBattle(new JudgeCalls(judge, args.signal, cut), judge.model, {
      output: textOf(actualOf(values, args)),
      baseline: textOf(values.baseline),
      ...(question !== undefined ? { question } : {}),
      ...(criteria !== undefined ? { criteria } : {}),
    });
  },
});
