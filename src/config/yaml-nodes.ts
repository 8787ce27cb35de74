/**
 * Reading a YAML mapping as it is written, for edits of the config text: its own entries (a merge
 * key's are not), where a node sits in the text, and what a node is, for messages.
 */
import { isAlias, isMap, isScalar, isSeq, type Pair, type YAMLMap } from 'yaml';

/** The entry of `map` written with key `key`; entries a merge key (`<<`) brings are not. */
export function ownPair(
  map: YAMLMap<unknown, unknown>,
  key: string,
): Pair<unknown, unknown> | undefined {
  return map.items.find((item) => keyOf(item) === key);
}

/** The value of {@link ownPair}. */
export function ownValue(map: YAMLMap<unknown, unknown>, key: string): unknown {
  return ownPair(map, key)?.value;
}

/** A mapping entry's key as a value; a merge key is `'<<'`. */
export function keyOf(pair: Pair<unknown, unknown>): unknown {
  const key: unknown = isScalar(pair.key) ? pair.key.value : pair.key;
  // With `merge: true`, yaml reads a `<<` key as a symbol named `<<`.
  return typeof key === 'symbol' ? key.description : key;
}

/** Where a node is written (start, value end, node end), when it is a node with a position. */
export function rangeOf(node: unknown): readonly [number, number, number] | undefined {
  return isScalar(node) || isMap(node) || isSeq(node) || isAlias(node)
    ? (node.range ?? undefined)
    : undefined;
}

/** What a node is, for "found …" in messages: `a mapping`, `the string "x"`, `an alias (*a)`. */
export function nodeKind(node: unknown): string {
  if (isAlias(node)) return `an alias (*${node.source})`;
  if (isMap(node)) return 'a mapping';
  if (isSeq(node)) return 'a list';
  if (isScalar(node)) {
    const value: unknown = node.value;
    if (value === null || value === undefined) return 'nothing';
    if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
    if (value instanceof Uint8Array) return 'binary data (!!binary)';
    return typeof value === 'number' || typeof value === 'boolean' ? String(value) : 'a value';
  }
  return 'nothing';
}
