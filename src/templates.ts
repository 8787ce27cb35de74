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

/** Resolves every template in `value` (deeply) against `scope`. */
export function resolveTemplates(value: unknown, scope: TemplateScope): TemplateResult {
  if (typeof value === 'string') return resolveString(value, scope);
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) {
      const r = resolveTemplates(item, scope);
      if (!r.ok) return r;
      out.push(r.value);
    }
    return { ok: true, value: out };
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const r = resolveTemplates(item, scope);
      if (!r.ok) return r;
      out[key] = r.value;
    }
    return { ok: true, value: out };
  }
  return { ok: true, value };
}

function resolveString(text: string, scope: TemplateScope): TemplateResult {
  if (!text.includes('{{')) return { ok: true, value: text };
  const whole = WHOLE.exec(text);
  if (whole) return lookup(whole[1] ?? '', scope);
  let error: string | null = null;
  const out = text.replace(ANY, (_m, expr: string) => {
    const r = lookup(expr, scope);
    if (!r.ok) {
      error ??= r.error;
      return '';
    }
    return typeof r.value === 'string' ? r.value : (JSON.stringify(r.value) ?? String(r.value));
  });
  return error === null ? { ok: true, value: out } : { ok: false, error };
}

/** Parsed template paths: the same few expressions resolve once per case, thousands of times. */
const parsedPaths = new Map<string, string[] | { error: string }>();

function parsePath(expr: string): string[] | { error: string } {
  let parsed = parsedPaths.get(expr);
  if (parsed === undefined) {
    const bad = checkTemplateExpression(expr);
    parsed = bad ? { error: bad } : (expr.match(/[^.[\]]+/g) ?? []);
    // Bounded, in case templates are generated per case.
    if (parsedPaths.size < 10_000) parsedPaths.set(expr, parsed);
  }
  return parsed;
}

function lookup(expr: string, scope: TemplateScope): TemplateResult {
  const parts = parsePath(expr);
  if (!Array.isArray(parts)) return { ok: false, error: parts.error };
  let current: unknown = scope;
  for (const [i, part] of parts.entries()) {
    if (current === null || typeof current !== 'object' || !(part in current)) {
      const walked = parts.slice(0, i + 1).join('.');
      return { ok: false, error: `template {{ ${expr} }}: ${walked} is not defined` };
    }
    current = (current as Record<string, unknown>)[part];
  }
  return { ok: true, value: current };
}
