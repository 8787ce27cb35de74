/**
 * The Windows-path pitfall: in `C:\out\{{ case.id }}.txt` or `prompts\{{ params.p }}.md` the
 * one backslash meant as a path separator escapes the `{{`, so the "template" is literal text
 * and every case gets the same path. It is valid config, so it is a warning, not an error.
 *
 * Only an escape that reads as a valid template (`case.`, `output.` or `params.` and a path)
 * and sits right after path text (a letter, a digit, `_ . - ~ : ) $ %`) warns: a prompt showing
 * `Write \{{ name }}` or ` \{{ case.x }}` to a model, a doubled `\\{{` (a backslash, then the
 * value) and `/` separators do not. Nor does a value under a `pattern` key (a `regex` pattern,
 * a JSON Schema's): there a backslash before a brace is the regular expression's own escape.
 */
import { escapedTemplates } from '../shared/templates.ts';
import type { RuleProblem } from './rules.ts';
import { strings } from './template-check.ts';
import type { ConfigPath } from './types.ts';

/** What may come right before a path separator: the end of a folder's or drive's name. */
const PATH_TEXT = /[\p{L}\p{N}_.~:)$%-]/u;

/**
 * One `template.escaped` warning per string of `data` (the config as read, env substituted)
 * whose first escaped template follows path text, at the string's config path.
 */
export function escapedTemplateWarnings(data: unknown, path: ConfigPath = []): RuleProblem[] {
  const warnings: RuleProblem[] = [];
  for (const [valuePath, text] of strings(data, path)) {
    if (valuePath.at(-1) === 'pattern') continue;
    const escape = escapedTemplates(text).find(
      ({ index, backslashes }) => backslashes === 1 && PATH_TEXT.test(text[index - 2] ?? ''),
    );
    if (escape === undefined) continue;
    const written = `{{ ${escape.expression} }}`;
    warnings.push({
      code: 'template.escaped',
      path: valuePath,
      message: `the backslash before ${written} makes it literal text, not a template (\\{{ writes a literal {{): write \\\\${written} for a backslash followed by the value (\\\\\\\\${written} inside a double-quoted YAML string), or use / as the path separator`,
    });
  }
  return warnings;
}
