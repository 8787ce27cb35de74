import { hasTemplates, literalValue } from '../shared/templates.ts';
import type { Evaluation } from '../types/index.ts';
import { ACTUAL_OPTION, orTemplate } from './option-schemas.ts';
import {
  actualOf,
  OptionError,
  optionalChoice,
  optionalString,
  requiredString,
  textOf,
} from './options.ts';
import { defineBuiltin } from './define.ts';

const MATCH_MODES = ['any', 'none'] as const;

/** Distinct templated patterns kept compiled per evaluator; past this the cache starts over. */
const PATTERN_CACHE_LIMIT = 256;

/**
 * `regex`: the text under test matches `pattern` (`match: any`, the default), or does not
 * (`match: none`, for "must not contain"). The pattern is compiled once when it holds no
 * template. The `g` flag is accepted but changes nothing: one match decides.
 *
 * `\{{` in a pattern is the template escape like anywhere else: the regex gets `{{` (a literal
 * `{{` without the `u` flag, a syntax error with it). A pattern holding only escapes is still a
 * constant, checked at load time as the regex will see it. To match braces write `\{\{`: with no
 * `{{` in it, it is never read as a template.
 */
export const regex = defineBuiltin({
  summary: 'The text under test matches `pattern` (or, with `match: none`, does not).',
  optionsSchema: {
    type: 'object',
    properties: {
      pattern: {
        type: 'string',
        description:
          'A JavaScript regular expression, without slashes (YAML: quote it, e.g. "\\\\d+").',
      },
      flags: {
        type: 'string',
        description: 'Regular expression flags such as "i", "m", "s", "u". Default: none.',
      },
      match: orTemplate(
        'any: pass when the pattern matches (default); none: pass when it does not match anywhere.',
        { enum: [...MATCH_MODES] },
      ),
      actual: ACTUAL_OPTION,
    },
    required: ['pattern'],
    additionalProperties: false,
  },
  defaultThreshold: { gte: 1 },
  validate(options) {
    const { pattern, flags } = options;
    if (typeof pattern !== 'string' || hasTemplates(pattern)) return [];
    if (flags !== undefined && (typeof flags !== 'string' || hasTemplates(flags))) return [];
    // What the run compiles: the options with their escapes read (see optionResolver).
    const problem = compileProblem(
      literalValue(pattern) as string,
      literalValue(flags) as string | undefined,
    );
    return problem === null ? [] : [problem];
  },
  prepare: (options) =>
    patternCompiler(hasTemplates(options.pattern) || hasTemplates(options.flags)),
  score(values, args, compile, cut): Evaluation {
    const pattern = requiredString(values, 'pattern');
    const re = compile(pattern, optionalString(values, 'flags'));
    const mode = optionalChoice(values, 'match', MATCH_MODES, 'any');
    const text = textOf(actualOf(values, args));
    // A `g` or `y` regex carries lastIndex between calls; start every test from the top.
    re.lastIndex = 0;
    const found = re.exec(text);
    if (!found) {
      if (mode === 'none') return { score: 1 };
      const metadata = {
        pattern: cut(pattern),
        flags: re.flags,
        actual: cut(text),
      };
      return { score: 0, metadata };
    }
    const where = { match: cut(found[0]), index: found.index };
    return mode === 'any'
      ? { score: 1, metadata: where }
      : { score: 0, metadata: { forbiddenMatch: where } };
  },
});

/** Which option is at fault when `pattern`/`flags` do not compile, or null when they do. */
function compileProblem(
  pattern: string,
  flags: string | undefined,
): { path: string; message: string } | null {
  try {
    new RegExp('', flags);
  } catch (error) {
    return {
      path: 'flags',
      message: messageOf(error),
    };
  }
  try {
    new RegExp(pattern, flags);
  } catch (error) {
    return { path: 'pattern', message: messageOf(error) };
  }
  return null;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Returns `(pattern, flags) → RegExp`. Static options compile on first use and never again;
 * templated ones go through a bounded cache, since most suites repeat a handful of patterns.
 */
function patternCompiler(
  templated: boolean,
): (pattern: string, flags: string | undefined) => RegExp {
  const cache = new Map<string, RegExp>();
  return (pattern, flags) => {
    const key = templated ? `${flags ?? ''}/${pattern}` : '';
    const cached = cache.get(key);
    if (cached) return cached;
    const problem = compileProblem(pattern, flags);
    if (problem)
      throw new OptionError('evaluator.option', `option "${problem.path}": ${problem.message}`);
    if (cache.size >= PATTERN_CACHE_LIMIT) cache.clear();
    const re = new RegExp(pattern, flags);
    cache.set(key, re);
    return re;
  };
}
