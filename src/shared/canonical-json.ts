/**
 * JSON with every object's keys sorted (recursively; arrays keep their order), so equal data
 * always gives the same text whatever order its keys were written in. Keys sort by UTF-16 code
 * units (`Array.prototype.sort`'s order). Follows `JSON.stringify` for the rest: `undefined`,
 * functions and symbols are dropped from objects (`null` in arrays), non-finite numbers are
 * `null`, `toJSON()` is honoured (dates become ISO strings).
 *
 * The text is only ever hashed or compared, never parsed, so values JSON has no form for are
 * written in forms no JSON value has, which no number or string can be mistaken for: a bigint
 * as `42n`, a Map as `Map[[key,value],…]` (in insertion order), a Set as `Set[…]`. (Test cases
 * given in code may hold them; as `{}`, two Maps would be one case.)
 *
 * @throws TypeError for a cycle or absurd nesting: such values cannot be testset data.
 */
export function canonicalJson(value: unknown): string {
  const flat = flatRecordJson(value);
  if (flat !== undefined) return flat;
  const sorted = sortedCopy(value, 0);
  const text = sorted === SLOW_PATH ? write(value, 0) : JSON.stringify(sorted);
  if (text === undefined) throw new TypeError(`cannot write ${typeof value} as JSON`);
  return text;
}

/*
 * The fast path copies the value with every object's keys inserted in sorted order and hands the
 * copy to the native JSON.stringify, which keeps insertion order. That is several times faster
 * than writing JSON in JS (or than JSON.stringify with a property list, which V8 serialises on
 * its slow path) — and this runs once per row. It is only exact for plain data: engines put
 * array-index keys ("0", "42") first whatever the insertion order, assigning `__proto__` sets
 * the prototype, and an own `toJSON` would be called on the copy. Values with such keys, and
 * class instances, are written by hand instead.
 */

/** Returned by {@link sortedCopy} when the value needs the exact writer. */
const SLOW_PATH = Symbol('slow path');

/** Deeper than this is a cycle, or data no testset has; fail clearly before the stack does. */
const MAX_DEPTH = 1000;

/**
 * The sorted key orders last computed at each nesting depth, a few per depth. Rows of a testset
 * share their keys (and nested objects at one depth usually share theirs), so the sort runs
 * once, not per row; several entries, because one row is written with two key sets in turn
 * (its data for the content id, its `hash:` fields for the id).
 */
const cachedOrders: { keys: string[]; order: string[] | null }[][] = [];
const CACHED_DEPTHS = 8;
const ORDERS_PER_DEPTH = 4;

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** `keys` sorted, or `null` when one of them rules out the fast path. */
function sortedOrder(keys: string[], depth: number): string[] | null {
  const cache = depth < CACHED_DEPTHS ? (cachedOrders[depth] ??= []) : undefined;
  if (cache !== undefined) {
    for (const entry of cache) if (sameKeys(entry.keys, keys)) return entry.order;
  }
  let order: string[] | null = [...keys].sort();
  for (const key of keys) {
    if (key === '__proto__' || key === 'toJSON' || isIndexLike(key)) {
      order = null;
      break;
    }
  }
  if (cache !== undefined) {
    // The newest first; the oldest goes when the depth is full.
    cache.unshift({ keys, order });
    if (cache.length > ORDERS_PER_DEPTH) cache.pop();
  }
  return order;
}

/** JSON.stringify of each key of the cached orders, so flat rows do not quote them again. */
const quotedKeys = new WeakMap<string[], string[]>();

/**
 * The canonical JSON of a plain object whose values are all strings, finite numbers, booleans
 * or null — a CSV row, most JSONL rows — written directly in the cached key order; undefined
 * for anything else. Every testset row is hashed through here (contentId and `hash:` fields),
 * and skipping the sorted copy saves an object per row and a third of the time.
 */
function flatRecordJson(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return undefined;
  const record = value as Record<string, unknown>;
  const order = sortedOrder(Object.keys(record), 0);
  if (order === null) return undefined;
  let quoted = quotedKeys.get(order);
  if (quoted === undefined) {
    quoted = order.map((key) => JSON.stringify(key));
    quotedKeys.set(order, quoted);
  }
  let text = '{';
  let first = true;
  for (let i = 0; i < order.length; i++) {
    const child = record[order[i] as string];
    let json: string;
    switch (typeof child) {
      case 'string':
        json = JSON.stringify(child);
        break;
      case 'number':
        json = Number.isFinite(child) ? JSON.stringify(child) : 'null';
        break;
      case 'boolean':
        json = child ? 'true' : 'false';
        break;
      case 'bigint':
        json = `${child}n`;
        break;
      case 'undefined':
      case 'function':
      case 'symbol':
        continue; // dropped, as JSON.stringify drops them from objects
      default:
        if (child !== null) return undefined; // nested object or array, bigint: the full path
        json = 'null';
    }
    text += `${first ? '' : ','}${quoted[i] as string}:${json}`;
    first = false;
  }
  return `${text}}`;
}

function isIndexLike(key: string): boolean {
  const c = key.charCodeAt(0);
  return c >= 0x30 && c <= 0x39 && /^(?:0|[1-9][0-9]*)$/.test(key);
}

function sortedCopy(value: unknown, depth: number): unknown {
  if (typeof value === 'bigint') return SLOW_PATH;
  if (typeof value !== 'object' || value === null) return value;
  if (depth > MAX_DEPTH) {
    throw new TypeError(`cannot write JSON nested more than ${MAX_DEPTH} levels (or a cycle)`);
  }
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === 'bigint') return SLOW_PATH;
      if (typeof item !== 'object' || item === null) continue;
      const sorted = sortedCopy(item, depth + 1);
      if (sorted === SLOW_PATH) return SLOW_PATH;
      copy ??= value.slice();
      copy[i] = sorted;
    }
    return copy ?? value;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  // A date serialises through its toJSON to a string; other class instances go the slow way.
  if (proto !== Object.prototype && proto !== null) {
    return value instanceof Date ? value : SLOW_PATH;
  }
  const record = value as Record<string, unknown>;
  const order = sortedOrder(Object.keys(record), depth);
  if (order === null) return SLOW_PATH;
  const copy: Record<string, unknown> = {};
  for (const key of order) {
    const child = record[key];
    if (typeof child === 'object' && child !== null) {
      const sorted = sortedCopy(child, depth + 1);
      if (sorted === SLOW_PATH) return SLOW_PATH;
      copy[key] = sorted;
    } else if (typeof child === 'bigint') {
      return SLOW_PATH;
    } else {
      copy[key] = child;
    }
  }
  return copy;
}

/** The exact, slower writer: for values the fast path cannot write exactly. */
function write(value: unknown, depth: number): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return `${value}n`;
    case 'object':
      break;
    default:
      return undefined; // undefined, function, symbol
  }
  if (value === null) return 'null';
  if (depth > MAX_DEPTH) {
    throw new TypeError(`cannot write JSON nested more than ${MAX_DEPTH} levels (or a cycle)`);
  }
  const toJson = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJson === 'function') return write(toJson.call(value) as unknown, depth + 1);
  if (value instanceof Map) {
    const entries = [...(value as Map<unknown, unknown>)].map(
      ([key, item]) => `[${write(key, depth + 2) ?? 'null'},${write(item, depth + 2) ?? 'null'}]`,
    );
    return `Map[${entries.join(',')}]`;
  }
  if (value instanceof Set) {
    const items = [...(value as Set<unknown>)].map((item) => write(item, depth + 1) ?? 'null');
    return `Set[${items.join(',')}]`;
  }
  if (Array.isArray(value)) {
    // A loop, not map(): map skips the holes of a sparse array, which must be written as null.
    const items: string[] = [];
    for (let i = 0; i < value.length; i++) items.push(write(value[i], depth + 1) ?? 'null');
    return `[${items.join(',')}]`;
  }
  const record = value as Record<string, unknown>;
  const members: string[] = [];
  for (const key of Object.keys(record).sort()) {
    const member = write(record[key], depth + 1);
    if (member !== undefined) members.push(`${JSON.stringify(key)}:${member}`);
  }
  return `{${members.join(',')}}`;
}
