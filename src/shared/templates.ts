/**
 * `{{ path }}` templates in evaluator options, resolved per case against `{ case, output, params }`.
 *
 * A value that is exactly one template keeps the resolved value's type (an array stays an array);
 * a template inside a longer string interpolates text (objects as JSON). An unknown path is an
 * error, never a silent empty string.
 *
 * A path is a root, then `.name` (letters, digits, `_`, `$`, `-`), `[0]` or `["any key"]` /
 * `['any key']` steps. Only own data properties resolve: `{{ case.constructor }}` is not the
 * row's constructor but a missing field, and a getter is never run.
 */

export const TEMPLATE_ROOTS = ['case', 'output', 'params'] as const;
export type TemplateRoot = (typeof TEMPLATE_ROOTS)[number];

export interface TemplateScope {
  case: unknown;
  output: unknown;
  params: unknown;
}

const WHOLE = /^\s*\{\{\s*([^{}]*?)\s*\}\}\s*$/;
const ANY = /\{\{\s*([^{}]*?)\s*\}\}/g;
const ROOT = /^[A-Za-z_$][\w$-]*/y;
/** One step after the root: `.name`, `[12]`, `["key"]` (JSON escapes) or `['key']` (no escapes). */
const STEP = /\.([\w$-]+)|\[\s*(?:(\d+)|("(?:[^"\\]|\\.)*")|'([^']*)')\s*\]/y;

/** A template path split into its root and the keys after it. */
export interface TemplatePath {
  root: string;
  keys: string[];
}

export type TemplateResult = { ok: true; value: unknown } | { ok: false; error: string };

/** One `{{ … }}` template in a string: its expression, and the index of its `{{`. */
export interface TemplateSpan {
  expression: string;
  index: number;
}

/** The templates in a string, in order, each with the index of its `{{`. */
export function templateSpans(text: string): TemplateSpan[] {
  return [...text.matchAll(ANY)].map((m) => ({ expression: m[1] ?? '', index: m.index }));
}

/** The template expressions in a string, in order (`{{ case.a }} {{output}}` → `case.a`, `output`). */
export function templateExpressions(text: string): string[] {
  return templateSpans(text).map((span) => span.expression);
}

/**
 * The index of the first `{{` that starts no template (`{{case.x` with no `}}`), or -1. Each
 * template is blanked out, not cut out, so text on both sides of one never joins into a `{{`.
 */
export function unclosedTemplateIndex(text: string): number {
  return text.replace(ANY, (whole) => ' '.repeat(whole.length)).indexOf('{{');
}

/**
 * Parses one expression (`case.items[0]`, `case["Expected Output"]`) into its root and keys, or
 * says why it is not a path. The root is not checked here (see {@link checkTemplateExpression}).
 */
export function parseTemplatePath(expr: string): TemplatePath | { error: string } {
  ROOT.lastIndex = 0;
  const root = ROOT.exec(expr)?.[0];
  const keys: string[] = [];
  let at = root?.length ?? 0;
  while (root !== undefined && at < expr.length) {
    STEP.lastIndex = at;
    const step = STEP.exec(expr);
    if (!step) break;
    const [, name, index, doubleQuoted, singleQuoted] = step;
    keys.push(name ?? index ?? singleQuoted ?? (JSON.parse(doubleQuoted ?? '""') as string));
    at = STEP.lastIndex;
  }
  if (root === undefined || at < expr.length) {
    return {
      error: `malformed template {{ ${expr} }}: expected a path such as case.question, output.items[0] or case["Expected Output"]`,
    };
  }
  return { root, keys };
}

/** Load-time check of one expression: a known root and a well-formed path. Returns a message or null. */
export function checkTemplateExpression(expr: string): string | null {
  const path = parseTemplatePath(expr);
  if ('error' in path) return path.error;
  if (!(TEMPLATE_ROOTS as readonly string[]).includes(path.root)) {
    return `template {{ ${expr} }} starts with "${path.root}": expected one of ${TEMPLATE_ROOTS.join(', ')}`;
  }
  return null;
}

/** A path as a user would write it: `case.items[0]`, `case["Expected Output"]`. */
export function formatTemplatePath(root: string, keys: readonly string[]): string {
  let text = root;
  for (const key of keys) {
    if (/^\d+$/.test(key)) text += `[${key}]`;
    else if (/^[\w$-]+$/.test(key)) text += `.${key}`;
    else text += `[${JSON.stringify(key)}]`;
  }
  return text;
}

/** True when the value (deeply) contains a template. */
export function hasTemplates(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('{{');
  if (Array.isArray(value)) return value.some(hasTemplates);
  if (value !== null && typeof value === 'object') return Object.values(value).some(hasTemplates);
  return false;
}

/** A template compiled once: resolving it per case does no parsing. */
export type CompiledTemplate = (scope: TemplateScope) => TemplateResult;

/** Resolves every template in `value` (deeply) against `scope`. */
export function resolveTemplates(value: unknown, scope: TemplateScope): TemplateResult {
  return compileTemplates(value)(scope);
}

/**
 * Compiles every template in `value` (deeply): strings are split into literal text and parsed
 * paths once, so an option resolved for 100,000 cases is parsed once, not 100,000 times.
 */
export function compileTemplates(value: unknown): CompiledTemplate {
  if (typeof value === 'string') return compileString(value);
  if (Array.isArray(value)) {
    const items = value.map(compileTemplates);
    return (scope) => {
      const out: unknown[] = [];
      for (const item of items) {
        const r = item(scope);
        if (!r.ok) return r;
        out.push(r.value);
      }
      return { ok: true, value: out };
    };
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(
      ([key, item]) => [key, compileTemplates(item)] as const,
    );
    return (scope) => {
      const out: Record<string, unknown> = {};
      for (const [key, item] of entries) {
        const r = item(scope);
        if (!r.ok) return r;
        out[key] = r.value;
      }
      return { ok: true, value: out };
    };
  }
  const constant: TemplateResult = { ok: true, value };
  return () => constant;
}

function compileString(text: string): CompiledTemplate {
  if (!text.includes('{{')) {
    const constant: TemplateResult = { ok: true, value: text };
    return () => constant;
  }
  const whole = WHOLE.exec(text);
  if (whole) {
    const expr = whole[1] ?? '';
    const parts = parsePath(expr);
    return (scope) => lookup(expr, parts, scope);
  }
  // Literal text and paths alternate: text, path, text, …, text.
  const texts: string[] = [];
  const paths: { expr: string; parts: string[] | { error: string } }[] = [];
  let at = 0;
  for (const match of text.matchAll(ANY)) {
    texts.push(text.slice(at, match.index));
    const expr = match[1] ?? '';
    paths.push({ expr, parts: parsePath(expr) });
    at = match.index + match[0].length;
  }
  texts.push(text.slice(at));
  return (scope) => {
    let out = texts[0] ?? '';
    for (let i = 0; i < paths.length; i++) {
      const { expr, parts } = paths[i]!;
      const r = lookup(expr, parts, scope);
      if (!r.ok) return r;
      const value = r.value;
      out += typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
      out += texts[i + 1] ?? '';
    }
    return { ok: true, value: out };
  };
}

function parsePath(expr: string): string[] | { error: string } {
  const bad = checkTemplateExpression(expr);
  if (bad) return { error: bad };
  const path = parseTemplatePath(expr);
  return 'error' in path ? path : [path.root, ...path.keys];
}

function lookup(
  expr: string,
  parts: string[] | { error: string },
  scope: TemplateScope,
): TemplateResult {
  if (!Array.isArray(parts)) return { ok: false, error: parts.error };
  let current: unknown = scope;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    // Own data properties only: inherited members (`constructor`, `__proto__`) are not fields
    // of a row, and a getter could run code or throw.
    const property =
      current !== null && typeof current === 'object'
        ? Object.getOwnPropertyDescriptor(current, part)
        : undefined;
    if (property === undefined || !('value' in property)) {
      const walked = formatTemplatePath(parts[0] ?? '', parts.slice(1, i + 1));
      return { ok: false, error: `template {{ ${expr} }}: ${walked} is not defined` };
    }
    current = property.value as unknown;
  }
  return { ok: true, value: current };
}
