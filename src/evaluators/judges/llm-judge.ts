import { describeValue } from '../../shared/errors.ts';
import type { Evaluation } from '../../types/index.ts';
import { defineBuiltin } from '../define.ts';
import { optionalString, requiredString } from '../options.ts';
import { requireChatJudge } from './calls.ts';
import { OVERRIDES_FILE, overrideExamples, readOverrides, recentOverrides } from './overrides.ts';
import { gradedVerdict, joinBlocks } from './shared.ts';
import type { BuiltinContext } from '../types.ts';

/** Each choice's score; checked by `choicesProblems` before use. */
type Choices = Readonly<Record<string, number>>;

/**
 * What is wrong with a `choices` option, each problem naming its path. Shared by `validate`
 * (config load) and `prepare` (use from code, where no validation ran).
 */
export function choicesProblems(choices: unknown): { path: string; message: string }[] {
  if (typeof choices !== 'object' || choices === null || Array.isArray(choices)) {
    return [{ path: 'choices', message: 'expected an object of choice name → score in [0, 1]' }];
  }
  const entries = Object.entries(choices as Record<string, unknown>);
  const problems: { path: string; message: string }[] = [];
  if (entries.length < 2) {
    problems.push({
      path: 'choices',
      message: `give at least 2 choices, found ${entries.length}: a judge with one answer decides nothing`,
    });
  }
  for (const [name, score] of entries) {
    if (name.trim() === '') {
      problems.push({ path: 'choices', message: 'a choice name is empty' });
    } else if (typeof score !== 'number' || !Number.isFinite(score) || score < 0 || score > 1) {
      problems.push({
        path: `choices.${name}`,
        message: `the score of "${name}" must be a number in [0, 1], found ${describeValue(score)}`,
      });
    }
  }
  return problems;
}

/**
 * The `overrides: N` examples, read once when the evaluator is created (the store does not
 * change during a run); `undefined` for none. A malformed store throws, naming its line.
 */
function examplesFor(
  count: unknown,
  context: BuiltinContext,
  choices: Choices,
): string | undefined {
  if (typeof count !== 'number' || count <= 0) return undefined;
  if (context.files === undefined) {
    throw new Error(
      `llm-judge: overrides needs the folder of ${OVERRIDES_FILE} (run it from evals.yaml)`,
    );
  }
  const picked = recentOverrides(readOverrides(context.files.configDir), context.id, count);
  return picked.length > 0 ? overrideExamples(picked, choices, context.scrub) : undefined;
}

/**
 * `llm-judge`: the user writes the whole judge prompt and the answers it may give, each with a
 * score. The model answers through a forced `verdict` call whose `choice` is restricted to
 * those names, so there is no free text to parse. No default threshold: what a good score is
 * depends entirely on the choices given.
 */
export const llmJudge = defineBuiltin({
  summary: 'A judge model answers your prompt with one of `choices`; the score is that choice’s.',
  calls: 'chat',
  optionsSchema: {
    type: 'object',
    properties: {
      prompt: {
        type: 'string',
        minLength: 1,
        description:
          'The full judge prompt, with templates, e.g. "Is this answer helpful?\\nQuestion: {{case.question}}\\nAnswer: {{output}}".',
      },
      choices: {
        type: 'object',
        description:
          'The answers the judge may give, each with its score in [0, 1], e.g. { "yes": 1, "partly": 0.5, "no": 0 }. At least two.',
        minProperties: 2,
        additionalProperties: { type: 'number', minimum: 0, maximum: 1 },
      },
      system: { type: 'string', description: 'A system message for the judge. Default: none.' },
      overrides: {
        type: 'integer',
        minimum: 0,
        maximum: 50,
        description: `How many of the most recent human overrides of this evaluator (evals override, kept in ${OVERRIDES_FILE} next to evals.yaml) to append to the prompt as examples. Default 0. No templates.`,
      },
    },
    required: ['prompt', 'choices'],
    additionalProperties: false,
  },
  validate: (options) => choicesProblems(options.choices),
  prepare(options, context) {
    const judge = requireChatJudge(context, 'llm-judge');
    const problems = choicesProblems(options.choices);
    if (problems.length > 0) {
      throw new Error(`llm-judge: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
    }
    const choices = options.choices as Choices;
    return { judge, choices, examples: examplesFor(options.overrides, context, choices) };
  },
  score(values, args, { judge, choices, examples }, cut): Promise<Evaluation> {
    const prompt = joinBlocks([requiredString(values, 'prompt'), examples]);
    const system = optionalString(values, 'system');
    const question = { ...(system !== undefined ? { system } : {}), prompt, scores: choices };
    return gradedVerdict(judge, args.signal, question, cut);
  },
});
