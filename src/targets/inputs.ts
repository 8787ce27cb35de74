/**
 * The templated inputs of a config target (a prompt, a URL, a body, an argv list), compiled once
 * and resolved per case against `{ case, params }`.
 */
import { shellLineContexts, shellReference } from '../shared/shell-contexts.ts';
import {
  compileTemplates,
  compileText,
  templateSpans,
  textPieces,
  type TemplateResult,
} from '../shared/templates.ts';
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

/** A `shell: true` command line as it runs: the text `/bin/sh -c` gets, and its values. */
export interface ShellLine {
  /** The line with a reference to an environment variable where each template was: constant. */
  text: string;
  /** Each template's value for one case, by the name of the variable that carries it. */
  values: TargetInput<Record<string, string>>;
}

/** The environment variable that carries the value of the `index`th template of a line. */
export function shellValueName(index: number): string {
  return `EVALGATE_VALUE_${index + 1}`;
}

/**
 * A `shell: true` command line whose values travel in environment variables, each referenced in
 * double quotes where its template was (`shellReference`): the shell expands them, and never
 * reads an expanded value as syntax, whatever it holds. The caller has refused lines with
 * templates whose context the scan is not sure of (`refusedShellTemplates`).
 */
export function shellLine(line: string): ShellLine {
  const contexts = shellLineContexts(line);
  const pieces = textPieces(line);
  let text = pieces[0] ?? '';
  contexts.forEach((where, i) => {
    // A bug, not a user mistake: the config check refuses these before anything runs.
    if (!where.ok) throw new Error(`template ${i} of a command line is ${where.where}`);
    text += shellReference(shellValueName(i), where.context) + (pieces[i + 1] ?? '');
  });
  const templates = templateSpans(line).map(({ expression }, i) => ({
    name: shellValueName(i),
    value: compileText(`{{${expression}}}`, asText),
  }));
  return {
    text,
    values: {
      render: ({ testCase, params }) => {
        const values: Record<string, string> = {};
        for (const { name, value } of templates) {
          const rendered = value({ case: testCase, params, output: undefined });
          if (!rendered.ok) return rendered;
          values[name] = rendered.value;
        }
        return { ok: true, value: values };
      },
    },
  };
}

/** A value as the text a template puts in place: strings as they are, anything else as JSON. */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? String(value);
}
