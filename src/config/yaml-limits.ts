/**
 * Limits on the shape of the config's YAML, checked before anything that recurses reads it (the
 * yaml composer, `toJS`, ajv, the rules): how deep it nests, aliases that contain themselves,
 * duplicate keys (found here in one pass, where yaml's own check compares every key with every
 * earlier one), and how many values the aliases expand to.
 */
import {
  isAlias,
  isMap,
  isScalar,
  isSeq,
  visit,
  type CST,
  type Document,
  type Node,
  type Pair,
} from 'yaml';

/**
 * The deepest a config may nest mappings and lists (the root mapping is level 1). Real configs
 * use about 10 levels; the limit keeps every recursive reader far from the stack's end.
 */
export const MAX_CONFIG_NESTING = 100;

/** The most values (scalars, mappings, lists) a config may hold once its aliases are expanded. */
export const MAX_CONFIG_VALUES = 1_000_000;

/** A structural problem, at a character offset of the text. */
export interface ShapeProblem {
  code: 'yaml.too-deep' | 'yaml.alias-cycle' | 'yaml.duplicate-key' | 'yaml.complex-key';
  offset: number;
  message: string;
}

/**
 * The offset of the first collection nested deeper than {@link MAX_CONFIG_NESTING} in yaml's
 * concrete syntax tree (which yaml's parser builds without recursing), or `null`.
 */
export function tooDeepOffset(tokens: readonly CST.Token[]): number | null {
  // Depth-first in text order: children are pushed in reverse so the first is popped first.
  const stack: { token: CST.Token; depth: number }[] = [];
  for (let i = tokens.length - 1; i >= 0; i--) stack.push({ token: tokens[i]!, depth: 0 });
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { token, depth } = next;
    if (token.type === 'document') {
      if (token.value) stack.push({ token: token.value, depth });
      continue;
    }
    if (
      token.type !== 'block-map' &&
      token.type !== 'block-seq' &&
      token.type !== 'flow-collection'
    )
      continue;
    if (depth + 1 > MAX_CONFIG_NESTING) return token.offset;
    const items: CST.CollectionItem[] = token.items;
    for (let i = items.length - 1; i >= 0; i--) {
      const item = items[i]!;
      if (item.value) stack.push({ token: item.value, depth: depth + 1 });
      if (item.key) stack.push({ token: item.key, depth: depth + 1 });
    }
  }
  return null;
}

/**
 * Duplicate keys in a mapping (compared as yaml compares them: by scalar value) and aliases
 * that sit inside the node their anchor marks (`with: &w { x: [*w] }`), which would make the
 * config an endless value. One walk of the document; the nesting is already bounded.
 */
export function shapeProblems(doc: Document.Parsed): ShapeProblem[] {
  const problems: ShapeProblem[] = [];
  // The latest node written with each anchor: an alias means the nearest one before it.
  const anchors = new Map<string, Node>();
  visit(doc, (_key, node, path) => {
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      if (target !== undefined && path.includes(target)) {
        problems.push({
          code: 'yaml.alias-cycle',
          offset: node.range?.[0] ?? 0,
          message: `the alias *${node.source} is inside the value its anchor &${node.source} marks, so that value would contain itself without end: copy the parts you need instead`,
        });
      }
      return;
    }
    if ((isMap(node) || isSeq(node) || isScalar(node)) && node.anchor) {
      anchors.set(node.anchor, node);
    }
    if (isMap(node)) duplicateKeys(node.items, problems);
  });
  return problems;
}

function duplicateKeys(items: readonly Pair[], problems: ShapeProblem[]): void {
  const seen = new Set<unknown>();
  for (const pair of items) {
    // Every key of a config is a name; a mapping, list or binary value as a key
    // (`? [a, b]: c`, `!!binary …: c`) would only be turned into text, with a warning from yaml
    // on the way.
    const key = pair.key;
    const scalar = isScalar(key);
    if (
      isMap(key) ||
      isSeq(key) ||
      isAlias(key) ||
      (scalar && key.value !== null && typeof key.value === 'object')
    ) {
      problems.push({
        code: 'yaml.complex-key',
        offset: key.range?.[0] ?? 0,
        message:
          'expected a key that is a plain name, found a mapping, list, alias or binary value used as a key',
      });
      continue;
    }
    if (!scalar) continue;
    const value: unknown = key.value;
    if (!seen.has(value)) {
      seen.add(value);
      continue;
    }
    const shown = typeof value === 'symbol' ? (value.description ?? '') : String(value);
    problems.push({
      code: 'yaml.duplicate-key',
      offset: key.range?.[0] ?? 0,
      message: `duplicate key ${quoteKey(shown)}: each key may appear once in a mapping`,
    });
  }
}

function quoteKey(text: string): string {
  const quoted = JSON.stringify(text);
  return quoted.length > 60 ? `${quoted.slice(0, 57)}..."` : quoted;
}

/**
 * Why the config's data (aliases expanded) is too big to check, or `null`: nested deeper than
 * {@link MAX_CONFIG_NESTING} (aliases can stack nesting) or holding more than
 * {@link MAX_CONFIG_VALUES} values. Walks without recursion and stops at the first excess.
 */
export function dataTooLarge(data: unknown): string | null {
  const stack: { value: unknown; depth: number }[] = [{ value: data, depth: 1 }];
  let count = 0;
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (++count > MAX_CONFIG_VALUES) {
      return `the config expands (through its aliases) to more than ${MAX_CONFIG_VALUES.toLocaleString('en-US')} values`;
    }
    const { value, depth } = next;
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_CONFIG_NESTING) {
      return `the config nests more than ${MAX_CONFIG_NESTING} levels deep once its aliases are expanded`;
    }
    const children = Array.isArray(value) ? value : Object.values(value);
    for (const child of children) stack.push({ value: child, depth: depth + 1 });
  }
  return null;
}
