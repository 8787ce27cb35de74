import { EvaluationError, describeValue } from '../shared/errors.ts';
import { hasTemplates } from '../shared/templates.ts';
import type { Evaluation } from '../types/index.ts';
import { durationMs } from './duration.ts';
import { WHOLE_TEMPLATE_SCHEMA } from './option-schemas.ts';
import { OptionError } from './options.ts';
import { defineBuiltin } from './define.ts';

const DURATION_EXPECTED = 'a duration such as "500ms", "2s", "1m" or a number of milliseconds';

/**
 * `latency`: the function call that produced the output took at most `max`. Uses the engine's
 * measured wall time of the call (`durationMs`), so it needs no option for the value under test.
 */
export const latency = defineBuiltin({
  summary: 'The function call took at most `max` (e.g. 500ms, 2s).',
  optionsSchema: {
    type: 'object',
    properties: {
      max: {
        description:
          'Longest call allowed (inclusive): "500ms", "2s", "1.5s", "1m", "1h", or a number of milliseconds.',
        anyOf: [
          { type: 'number', minimum: 0 },
          {
            type: 'string',
            pattern: '^\\s*\\d+(\\.\\d+)?(ms|s|m|h)?\\s*$',
            patternErrorMessage: `expected ${DURATION_EXPECTED}`,
          },
          WHOLE_TEMPLATE_SCHEMA,
        ],
      },
    },
    required: ['max'],
    additionalProperties: false,
  },
  defaultThreshold: { gte: 1 },
  validate(options) {
    const { max } = options;
    if (max === undefined || hasTemplates(max) || durationMs(max) !== null) return [];
    return [{ path: 'max', message: `expected ${DURATION_EXPECTED}, found ${describeValue(max)}` }];
  },
  score(values, args): Evaluation {
    const max = values.max;
    const maxMs = durationMs(max);
    if (maxMs === null) {
      throw new OptionError(
        'evaluator.option',
        `option "max" must be ${DURATION_EXPECTED}, found ${describeValue(max)}`,
      );
    }
    if (args.untimed === true) {
      // Scored, the cache's few milliseconds would pass any limit, whatever the model takes.
      throw new EvaluationError(
        // --no-cache neither reads nor writes the cache: only a fresh entry records a time.
        'the output came from a response cache entry that recorded no time (written by an earlier evalgate), so no call was timed: delete the response cache (.evalgate/cache, or the --cache-dir folder) and run again to time the calls and record their times (--no-cache times one run but stores nothing)',
      );
    }
    return {
      score: args.durationMs <= maxMs ? 1 : 0,
      // Sub-millisecond noise says nothing about latency and bloats the artifact.
      metadata: { durationMs: Math.round(args.durationMs * 100) / 100, maxMs },
    };
  },
});
