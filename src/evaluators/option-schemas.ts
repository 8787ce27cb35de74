/**
 * JSON Schema pieces shared by the built-ins' `optionsSchema`s.
 *
 * A built-in option may always be written as a whole-value template (`"{{case.keywords}}"`) that
 * yields its real type only per case, so non-string options accept such a template as well:
 * each schema stands on its own, whatever the loader does with templates.
 */

/** A string that is exactly one `{{ path }}` template: it keeps the resolved value's type. */
export const WHOLE_TEMPLATE_SCHEMA = {
  type: 'string',
  pattern: '^\\s*\\{\\{[^{}]*\\}\\}\\s*$',
} as const;

/**
 * `schema`, or a whole-value template standing for it; the description stays at the top.
 * The template branch carries a `patternErrorMessage` (an annotation editors and the config
 * loader show for a failed `pattern`), so a plain string where an array belongs reads
 * "expected an array of strings or a {{ template }}" rather than quoting the regex.
 */
export function orTemplate(
  description: string,
  schema: Record<string, unknown>,
): Record<string, unknown> {
  const template = {
    ...WHOLE_TEMPLATE_SCHEMA,
    patternErrorMessage: `expected ${describeKind(schema)} or a whole-value {{ template }}`,
  };
  return { description, anyOf: [schema, template] };
}

/** `an array of strings`, `a boolean`, `"any" or "none"`: the kind of value `schema` wants. */
function describeKind(schema: Record<string, unknown>): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' or ');
  switch (schema.type) {
    case 'array': {
      const items = schema.items as { type?: unknown } | undefined;
      return items?.type === 'string' ? 'an array of strings' : 'an array';
    }
    case 'integer':
      return schema.minimum === 0 ? 'a whole number ≥ 0' : 'a whole number';
    case 'object':
      return 'an object';
    case 'boolean':
      return 'a boolean';
    default:
      return 'a valid value';
  }
}

/** The `actual` option every built-in that looks at a value has. */
export const ACTUAL_OPTION = {
  description:
    'The value under test. Default: the function output ({{output}}). For text checks a non-string value is JSON-encoded.',
} as const;

/** The `ignoreCase` option of the text comparisons. */
export const IGNORE_CASE_OPTION = orTemplate('Compare case-insensitively. Default: false.', {
  type: 'boolean',
});
