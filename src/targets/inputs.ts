/**
 * The templated inputs of a config target (a prompt, a URL, a body, an argv list), compiled once
 * and resolved per case against `{ case, params }`.
 */
import { quoteForShell, shellLineContexts } from '../shared/shell-contexts.ts';
import { compileTemplates, compileText, type TemplateResult } from '../shared/templates.ts';
import type { FnArgs } from '../types/index.ts';

/** An input resolved for one call: its value, or why a template could not be resolved. */
export type Rendered<T> = { ok: true; value: T } | { ok: false; error: string };

/** A target input compiled once; `render` resolves its templates for one case. */
export interface TargetInput<T> {
  render(args: Pick<FnArgs, 'testCase' | 'params'>): Rendered<T>;
}

/**
 * `value` (any YAML value) with its templates resolved per case. A string that is one template
 * keeps the resolved value's type; templates inside longer text interpolate (objects as JSON).
 */
export function targetInput<T = unknown>(value: unknown): TargetInput<T> {
  const compiled = compileTemplates(value);
  return {
    render: ({ testCase, params }) =>
      compiled({ case: testCase, params, output: undefined }) as TemplateResult & Rendered<T>,
  };
}

/**
 * A text input: `text` with each template's value turned into text by `piece` (the value as
 * text, percent-encoded or shell-quoted) before it is put in place; an escaped `\{{` is text.
 */
export function textInput(text: string, piece: (value: string) => string): TargetInput<string> {
  const compiled = compileText(text, (value) => piece(asText(value)));
  return {
    render: ({ testCase, params }) => compiled({ case: testCase, params, output: undefined }),
  };
}

/**
 * A `shell: true` command line: each template's value quoted for where its template sits
 * (unquoted, inside '…' or inside "…"), so the shell reads it as literal text. The caller has
 * refused lines with templates that cannot be quoted (`refusedShellTemplates`).
 */
export function shellLineInput(line: string): TargetInput<string> {
  const contexts = shellLineContexts(line);
  const compiled = compileText(line, (value, template) => {
    const where = contexts[template];
    // A bug, not a user mistake: the config check refuses these before anything runs.
    if (!where?.ok) throw new Error(`template ${template} of a command line is ${where?.where}`);
    return quoteForShell(asText(value), where.context);
  });
  return {
    render: ({ testCase, params }) => compiled({ case: testCase, params, output: undefined }),
  };
}

/** A value as the text a template puts in place: strings as they are, anything else as JSON. */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? String(value);
}

/** Single-quotes `value` for /bin/sh, so a case's text is one word whatever it holds. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}
