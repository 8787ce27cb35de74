/**
 * Limits on the shape of the config's YAML, checked before anything that recurses reads it (the
 * yaml composer, `toJS`, ajv, the rules): how deep it nests, aliases that contain themselves,
 * duplicate keys (found here in one pass, where yaml's own check compares every key with every
 * earlier one), and how many values the aliases expand to.
 */
import {
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  visit,
  type Alias,
  type CST,
  type Document,
  type Node,
  type Pair,
} from 'yaml';
import { nodeKind } from './yaml-nodes.ts';

/**
 * The deepest a config may nest mappings and lists (the root mapping is level 1). Real configs
 * use about 10 levels; the limit keeps every recursive reader far from the stack's end.
 */
export const MAX_CONFIG_NESTING = 100;

/** The most values (scalars, mappings, lists) a config may hold once its aliases are expanded. */
export const MAX_CONFIG_VALUES = 1_000_000;

/** A structural problem, at a character offset of the text. */
export interface ShapeProblem {
  code:
    | 'yaml.too-deep'
    | 'yaml.alias-cycle'
    | 'yaml.alias-unresolved'
    | 'yaml.merge-source'
    | 'yaml.duplicate-key'
    | 'yaml.complex-key';
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
 * Duplicate keys in a mapping (compared as yaml compares them: by scalar value), aliases with no
 * anchor before them (yaml would only say so once expanding, with no position), and aliases
 * that sit inside the node their anchor marks (`with: &w { x: [*w] }`), which would make the
 * config an endless value. One walk of the document; the nesting is already bounded.
 */
export function shapeProblems(doc: Document.Parsed): ShapeProblem[] {
  const problems: ShapeProblem[] = [];
  // The latest node written with each anchor: an alias means the nearest one before it.
  const anchors = new Map<string, Node>();
  const unresolved: Alias[] = [];
  visit(doc, (_key, node, path) => {
    if (isPair(node)) {
      // Checked at the pair: the anchors of the entries before it are known by then.
      const bad = badMergeSource(node, anchors);
      if (bad !== null) problems.push(bad);
      return;
    }
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      if (target === undefined) unresolved.push(node);
      else if (path.includes(target)) {
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
  for (const alias of unresolved) {
    const name = alias.source;
    // `anchors` now holds every anchor of the file: one set after the alias is a common slip.
    const why = anchors.has(name)
      ? `its anchor &${name} is set only after it: an anchor must come before the aliases that use it`
      : `no value is marked &${name}: mark the value to repeat with &${name} before this alias`;
    problems.push({
      code: 'yaml.alias-unresolved',
      offset: alias.range?.[0] ?? 0,
      message: `the alias *${name} names no anchor before it: ${why}`,
    });
  }
  return problems;
}

/**
 * Where yaml's `toJS` stops with "Excessive alias count" (`maxAliasCount`): the alias whose use
 * takes the count past `max`, or `null` when this replay of yaml's count finds none. yaml counts
 * each anchor's uses, times the most its value holds through aliases of aliases; aliases are
 * used in the order they are written. (yaml also counts the aliases inside a merged `<<:` value
 * again; this replay does not, so such a file may find `null`.)
 */
export function excessiveAliasOffset(doc: Document.Parsed, max: number): number | null {
  const anchors = new Map<string, Node>();
  const uses: { alias: Alias; target: Node }[] = [];
  visit(doc, (_key, node) => {
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      if (target !== undefined) uses.push({ alias: node, target });
      return;
    }
    if ((isMap(node) || isSeq(node) || isScalar(node)) && node.anchor) {
      anchors.set(node.anchor, node);
    }
  });
  const targets = new Map(uses.map(({ alias, target }) => [alias, target]));
  const counts = new Map<Node, { count: number; factor: number }>();
  // How many values one use of `node` stands for, as yaml reckons it (nesting is bounded).
  const factor = (node: unknown): number => {
    if (isAlias(node)) {
      const target = targets.get(node);
      const data = target && counts.get(target);
      return data ? data.count * data.factor : 0;
    }
    if (isMap(node) || isSeq(node)) {
      let most = 0;
      for (const item of node.items as unknown[]) most = Math.max(most, factor(item));
      return most;
    }
    if (isPair(node)) return Math.max(factor(node.key), factor(node.value));
    return 1;
  };
  for (const { alias, target } of uses) {
    // The anchored value itself is the first copy.
    const data = counts.get(target) ?? { count: 1, factor: 0 };
    counts.set(target, data);
    data.count += 1;
    if (data.factor === 0) data.factor = factor(target);
    if (data.count * data.factor > max) return alias.range?.[0] ?? 0;
  }
  return null;
}

/** The offset of the first alias of the document, or `null` when it has none. */
export function firstAliasOffset(doc: Document.Parsed): number | null {
  let offset: number | null = null;
  visit(doc, {
    Alias(_key, node) {
      offset = node.range?.[0] ?? 0;
      return visit.BREAK;
    },
  });
  return offset;
}

/**
 * A problem with a `<<` merge key's value: it must be a mapping, an alias of one, or a list of
 * those. yaml would only say so once expanding, with no position.
 */
function badMergeSource(pair: Pair, anchors: ReadonlyMap<string, Node>): ShapeProblem | null {
  // With `merge: true`, yaml reads a plain `<<` key as a symbol.
  if (!isScalar(pair.key) || typeof pair.key.value !== 'symbol') return null;
  const value = pair.value;
  // An alias with no anchor is reported as that.
  const mergeable = (node: unknown): boolean =>
    isMap(node) ||
    (isAlias(node) && (!anchors.has(node.source) || isMap(anchors.get(node.source))));
  if (mergeable(value) || (isSeq(value) && value.items.every(mergeable))) return null;
  const written = isAlias(value) || isMap(value) || isSeq(value) || isScalar(value);
  const at = written && value.range?.[0] !== value.range?.[1] ? value : pair.key;
  return {
    code: 'yaml.merge-source',
    offset: at.range?.[0] ?? 0,
    message: `expected a mapping, an alias of one, or a list of those after <<:, found ${nodeKind(value)}`,
  };
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

/**
 * The paths of the `!!binary` values in the config's data (yaml reads them as bytes). Read as a
 * JSON object, a Buffer has a key for every byte and every method: the schema's complaints about
 * those are not about anything the user wrote. Called once the data is known to be bounded.
 */
export function binaryPaths(data: unknown): (string | number)[][] {
  // Each entry knows its parent: a path is built only for the binary values found.
  interface Entry {
    value: unknown;
    key: string | number;
    parent: Entry | null;
  }
  const found: (string | number)[][] = [];
  const stack: Entry[] = [{ value: data, key: '', parent: null }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const value = next.value;
    if (value instanceof Uint8Array) {
      const path: (string | number)[] = [];
      for (let at: Entry | null = next; at?.parent; at = at.parent) path.unshift(at.key);
      found.push(path);
    } else if (Array.isArray(value)) {
      value.forEach((item: unknown, i) => stack.push({ value: item, key: i, parent: next }));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        stack.push({ value: item, key, parent: next });
      }
    }
  }
  return found;
}
