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
 *
 * `\{{` is a literal `{{` (the backslash is dropped), so a prompt can show `\{{ name }}` to a
 * model. Backslashes right before a `{{` pair up, as in Handlebars: `\\{{ case.x }}` is one `\`
 * then the value, and a backslash left over makes the `{{` literal. Every other backslash is
 * text (`C:\path`, `\d+`). Every reader of templates (the checks, the target checks, resolving)
 * goes through {@link lex}, so they all agree on what is a template.
 */
import { shapeOf } from './value-shape.ts';
import { setOwn } from './own-key.ts';

export const TEMPLATE_ROOTS = ['case', 'output', 'params'] as const;
export type TemplateRoot = (typeof TEMPLATE_ROOTS)[number];

export interface TemplateScope {
  case: unknown;
  output: unknown;
  params: unknown;
}

/** A template starting exactly at `lastIndex`: `{{`, a path with no braces, `}}`. */
const TEMPLATE_AT = /\{\{\s*([^{}]*?)\s*\}\}/y;
const BLANK = /^\s*$/;
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

/**
 * A string as templates read it: `texts` are the literal pieces around the templates, escapes
 * undone (one more than `templates`); `escapes` the escaped `{{`, each with the backslashes
 * right before it; `unclosed` is the index of the first `{{` that starts no template, or -1.
 */
interface Lexed {
  texts: string[];
  templates: TemplateSpan[];
  escapes: { index: number; backslashes: number }[];
  unclosed: number;
}

/**
 * Reads `text` left to right, one `{{` at a time. An escape is taken before a template, so in
 * `\{{{ case.x }}` the escaped `{{` uses the first two braces and no template is left. Indexes
 * are into `text` as written, so a checker's line:col stays right after an escape.
 */
function lex(text: string): Lexed {
  const texts: string[] = [];
  const templates: TemplateSpan[] = [];
  const escapes: Lexed['escapes'] = [];
  let unclosed = -1;
  let literal = '';
  // Start of the text as written that is not yet in `literal`.
  let from = 0;
  let at = text.indexOf('{{');
  while (at >= 0) {
    let run = 0;
    while (at - run > from && text[at - run - 1] === '\\') run++;
    // Each pair of backslashes is one backslash of text.
    const before = text.slice(from, at - run) + '\\'.repeat(Math.floor(run / 2));
    if (run % 2 === 1) {
      escapes.push({ index: at, backslashes: run });
      literal += `${before}{{`;
      from = at + 2;
      at = text.indexOf('{{', from);
      continue;
    }
    TEMPLATE_AT.lastIndex = at;
    const match = TEMPLATE_AT.exec(text);
    if (match) {
      texts.push(literal + before);
      literal = '';
      templates.push({ expression: match[1] ?? '', index: at });
      from = TEMPLATE_AT.lastIndex;
      at = text.indexOf('{{', from);
      continue;
    }
    // A `{{` that starts no template stays as written, backslashes included (the load-time
    // check refuses it). In `{{{ case.x }}` its second brace opens a template: not unclosed.
    TEMPLATE_AT.lastIndex = at + 1;
    if (unclosed < 0 && !TEMPLATE_AT.test(text)) unclosed = at;
    at = text.indexOf('{{', at + 1);
  }
  texts.push(literal + text.slice(from));
  return { texts, templates, escapes, unclosed };
}

/** One template and nothing but blanks around it: its value keeps its type. */
function onlyTemplate({ texts, templates }: Lexed): TemplateSpan | undefined {
  const [only] = templates;
  return only && templates.length === 1 && texts.every((piece) => BLANK.test(piece))
    ? only
    : undefined;
}

/** True when `text` is exactly one template (blanks around it allowed): known only per case. */
export function isWholeTemplate(text: string): boolean {
  return text.includes('{{') && onlyTemplate(lex(text)) !== undefined;
}

/**
 * `text` with each template replaced by `sample` and each escape read (`\{{` → `{{`): the text
 * a check of its shape (a URL parses, has no user part) looks at, whatever the templates hold.
 */
export function sampleText(text: string, sample: string): string {
  return text.includes('{{') ? lex(text).texts.join(sample) : text;
}

/**
 * An escaped `{{` whose text reads as a valid template (`\{{ case.id }}`), so that dropping a
 * backslash would make it one: `index` of its `{{`, and the backslashes right before it.
 */
export interface EscapedTemplate {
  index: number;
  backslashes: number;
  expression: string;
}

/** The escaped `{{` in `text` that read as valid templates (see {@link EscapedTemplate}). */
export function escapedTemplates(text: string): EscapedTemplate[] {
  if (!text.includes('{{')) return [];
  return lex(text).escapes.flatMap(({ index, backslashes }) => {
    TEMPLATE_AT.lastIndex = index;
    const expression = TEMPLATE_AT.exec(text)?.[1];
    return expression !== undefined && checkTemplateExpression(expression) === null
      ? [{ index, backslashes, expression }]
      : [];
  });
}

/** The literal text around the templates of a string, escapes undone: one more piece than templates. */
export function textPieces(text: string): string[] {
  return text.includes('{{') ? lex(text).texts : [text];
}

/** The templates in a string, in order, each with the index of its `{{` (escaped ones are text). */
export function templateSpans(text: string): TemplateSpan[] {
  if (!text.includes('{{')) return [];
  return lex(text).templates;
}

/** The template expressions in a string, in order (`{{ case.a }} {{output}}` → `case.a`, `output`). */
export function templateExpressions(text: string): string[] {
  return templateSpans(text).map((span) => span.expression);
}

/**
 * The index of the first `{{` that starts no template (`{{case.x` with no `}}`), or -1. An
 * escaped `\{{` is text, not unclosed. Text on both sides of a template never joins into a `{{`.
 */
export function unclosedTemplateIndex(text: string): number {
  return text.includes('{{') ? lex(text).unclosed : -1;
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

/**
 * True when the value (deeply) contains a template, or a stray `{{` the load-time check refuses:
 * its value depends on the case. A string whose every `{{` is escaped (`\{{`) is a constant:
 * read it with {@link literalValue}.
 */
export function hasTemplates(value: unknown): boolean {
  if (typeof value === 'string') {
    if (!value.includes('{{')) return false;
    const { templates, unclosed } = lex(value);
    return templates.length > 0 || unclosed >= 0;
  }
  if (Array.isArray(value)) return value.some(hasTemplates);
  if (value !== null && typeof value === 'object') return Object.values(value).some(hasTemplates);
  return false;
}

/**
 * The value of a value without templates (see {@link hasTemplates}): each escaped `\{{` read
 * as `{{`, deeply. Code that uses a constant option as written (a regex compiled once, a schema
 * checked at load time) reads it through this, to see what resolving it would give. The same
 * value (same object) comes back when nothing is escaped; a string holding a template comes back
 * as written, since only resolving it can give its value.
 */
export function literalValue(value: unknown): unknown {
  if (typeof value === 'string') {
    if (!value.includes('{{')) return value;
    const { texts, templates } = lex(value);
    return templates.length > 0 ? value : texts.join('');
  }
  if (Array.isArray(value)) {
    const items = value.map(literalValue);
    return items.every((item, i) => item === value[i]) ? value : items;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    const read = entries.map(([key, item]) => [key, literalValue(item)] as const);
    return read.every(([, item], i) => item === entries[i]?.[1]) ? value : Object.fromEntries(read);
  }
  return value;
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
        setOwn(out, key, r.value);
      }
      return { ok: true, value: out };
    };
  }
  const constant: TemplateResult = { ok: true, value };
  return () => constant;
}

/** A text resolved for one case, or why a template in it could not be. */
export type TextResult = { ok: true; value: string } | { ok: false; error: string };

/** How a template inside longer text is written: strings as they are, anything else as JSON. */
function interpolated(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}

function compileString(text: string): CompiledTemplate {
  // No `{{`: no template and no escape, so the text is its own value.
  if (!text.includes('{{')) {
    const constant: TemplateResult = { ok: true, value: text };
    return () => constant;
  }
  const lexed = lex(text);
  const only = onlyTemplate(lexed);
  if (only) {
    const parts = parsePath(only.expression);
    return (scope) => lookup(only.expression, parts, scope);
  }
  return compileLexed(lexed, interpolated);
}

/**
 * Compiles `text` as text whatever it holds: literal pieces as written (escapes undone) and each
 * template's value turned into text by `toText`, even a template that is the whole string. For
 * inputs that are always text: a URL (values percent-encoded), an argv word, a prompt file.
 * `toText` also gets the template's place in order (0, 1, …), for a shell line that quotes each
 * value for where its template sits.
 */
export function compileText(
  text: string,
  toText: (value: unknown, template: number) => string,
): (scope: TemplateScope) => TextResult {
  if (!text.includes('{{')) {
    const constant: TextResult = { ok: true, value: text };
    return () => constant;
  }
  return compileLexed(lex(text), toText);
}

function compileLexed(
  { texts, templates }: Lexed,
  toText: (value: unknown, template: number) => string,
): (scope: TemplateScope) => TextResult {
  // Literal text and paths alternate: text, path, text, …, text.
  const paths = templates.map(({ expression }) => ({ expression, parts: parsePath(expression) }));
  return (scope) => {
    let out = texts[0] ?? '';
    for (let i = 0; i < paths.length; i++) {
      const { expression, parts } = paths[i]!;
      const r = lookup(expression, parts, scope);
      if (!r.ok) return r;
      out += toText(r.value, i);
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
      const parent =
        i === 0
          ? ''
          : ` (${formatTemplatePath(parts[0] ?? '', parts.slice(1, i))} is ${shapeOf(current)})`;
      return { ok: false, error: `template {{ ${expr} }}: ${walked} is not defined${parent}` };
    }
    current = property.value as unknown;
  }
  return { ok: true, value: current };
}
