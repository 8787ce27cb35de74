/**
 * `{{ path }}` templates in evaluator options, resolved per case against `{ case, output, params }`.
 *
 * A value that is exactly one template keeps the resolved value's type (an array stays an array);
 * a template inside a longer string interpolates text (objects as JSON). An unknown path is an
 * error, never a silent empty string.
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
const PATH = /^[A-Za-z_$][\w$-]*(?:\.[\w$-]+|\[\d+\])*$/;

export type TemplateResult = { ok: true; value: unknown } | { ok: false; error: string };

/** The template expressions in a string, in order (`{{ case.a }} {{output}}` → `case.a`, `output`). */
export function templateExpressions(text: string): string[] {
  return [...text.matchAll(ANY)].map((m) => m[1] ?? '');
}

/** Load-time check of one expression: a known root and a well-formed path. Returns a message or null. */
export function checkTemplateExpression(expr: string): string | null {
  if (!PATH.test(expr)) {
    return `malformed template {{ ${expr} }}: expected a path such as case.question or output.answer`;
  }
  const root = expr.split(/[.[]/, 1)[0] ?? '';
  if (!(TEMPLATE_ROOTS as readonly string[]).includes(root)) {
    return `template {{ ${expr} }} starts with "${root}": expected one of ${TEMPLATE_ROOTS.join(', ')}`;
  }
  return null;
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
  return bad ? { error: bad } : (expr.match(/[^.[\]]+/g) ?? []);
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
    if (current === null || typeof current !== 'object' || !(part in current)) {
      const walked = parts.slice(0, i + 1).join('.');
      return { ok: false, error: `template {{ ${expr} }}: ${walked} is not defined` };
    }
    current = (current as Record<string, unknown>)[part];
  }
  return { ok: true, value: current };
}
