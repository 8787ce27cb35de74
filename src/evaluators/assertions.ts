import { describeValue } from '../shared/errors.ts';
import { isRecord } from '../shared/is-record.ts';
import type { Evaluation } from '../types/index.ts';
import { compactList, type MetadataCut } from './metadata.ts';
import { orTemplate } from './option-schemas.ts';
import { OptionError } from './options.ts';
import { defineBuiltin } from './define.ts';

/** Rubric items listed in metadata; a longer rubric ends with a "… N more" note. */
const RUBRIC_SHOWN = 50;

/** One graded criterion of a rubric, as the function (or an LLM judge inside it) reports it. */
interface Assertion {
  criterion: string;
  passed: boolean;
  required: boolean;
  /** The criterion's own context (the SDK's `Assertion.metadata`), kept as given. */
  metadata?: Record<string, unknown>;
}

/**
 * `assertions`: a rubric the function under test already graded, Autoblocks style. Scores 1
 * when every required criterion passed; optional ones (`required: false`) are reported only.
 * The rubric is the output itself by default, or wherever `assertions` points; a string is
 * parsed as JSON, since LLM judges often answer with JSON text.
 */
export const assertions = defineBuiltin({
  summary:
    'Every required criterion of a graded rubric ({ criterion, passed, required? }[]) passed.',
  optionsSchema: {
    type: 'object',
    properties: {
      assertions: orTemplate(
        'The rubric: an array of { criterion: string, passed: boolean, required?: boolean (default true) }. Default: the function output ({{output}}); e.g. {{output.assertions}}.',
        {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              criterion: { type: 'string' },
              passed: { type: 'boolean' },
              required: { type: 'boolean' },
            },
            required: ['criterion', 'passed'],
          },
        },
      ),
    },
    additionalProperties: false,
  },
  defaultThreshold: { gte: 1 },
  prepare: (_, context) => context.scrub,
  score(values, args, scrub, cut): Evaluation {
    const rubric = readRubric(
      Object.hasOwn(values, 'assertions') ? values.assertions : args.output,
      scrub,
      cut,
    );
    const failedRequired = rubric
      .filter((item) => item.required && !item.passed)
      .map((item) => item.criterion);
    return {
      score: failedRequired.length === 0 ? 1 : 0,
      metadata: {
        assertions: compactList(rubric, RUBRIC_SHOWN, cut),
        failedRequired: compactList(failedRequired, RUBRIC_SHOWN, cut),
      },
    };
  },
});

function rubricError(message: string): OptionError {
  return new OptionError('evaluator.option', `option "assertions"${message}`);
}

/**
 * Checks the rubric's shape item by item, so an error names the index and the field. What an
 * error or a criterion quotes of it (the output, usually) is scrubbed before it is cut.
 */
function readRubric(
  value: unknown,
  scrub: ((text: string) => string) | undefined,
  cut: MetadataCut,
): Assertion[] {
  let rubric = value;
  if (typeof rubric === 'string') {
    try {
      rubric = JSON.parse(rubric) as unknown;
    } catch {
      throw rubricError(` is a string that is not JSON: ${describeValue(value, scrub)}`);
    }
  }
  if (!Array.isArray(rubric)) {
    throw rubricError(
      ` must be an array of { criterion, passed, required? }, found ${describeValue(rubric, scrub)}`,
    );
  }
  return rubric.map((item: unknown, index): Assertion => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      throw rubricError(`[${index}] must be an object, found ${describeValue(item, scrub)}`);
    }
    const { criterion, passed, required = true, metadata } = item as Record<string, unknown>;
    if (typeof criterion !== 'string') {
      throw rubricError(
        `[${index}].criterion must be a string, found ${describeValue(criterion, scrub)}`,
      );
    }
    if (typeof passed !== 'boolean') {
      throw rubricError(
        `[${index}].passed must be a boolean, found ${describeValue(passed, scrub)}`,
      );
    }
    if (typeof required !== 'boolean') {
      throw rubricError(
        `[${index}].required must be a boolean, found ${describeValue(required, scrub)}`,
      );
    }
    if (metadata !== undefined && !isRecord(metadata)) {
      throw rubricError(
        `[${index}].metadata must be an object, found ${describeValue(metadata, scrub)}`,
      );
    }
    return {
      criterion: cut(criterion),
      passed,
      required,
      ...(metadata !== undefined ? { metadata } : {}),
    };
  });
}
