/** How many keys a missing path's message names, and the longest key it names. */
const KEYS_NAMED = 8;
const KEY_CHARS = 40;

/**
 * What a value is, for a template path that found no key in it, so that the error tells a typo
 * in a key from a value of another shape (a text output read as an object, a list read past its
 * end): `an object whose keys are "a",
 * "b"`, `a list of 3 items`, `a string, which has no fields`. Keys are named whole or not at all
 * (one longer than 40 characters, or holding a control character, is counted, not shown): the
 * message is scrubbed of secrets where it is recorded, which a key cut short could slip past.
 * Only own data properties are keys, as only they are read (see `lookup` in templates.ts).
 */
export function shapeOf(value: unknown): string {
  if (Array.isArray(value)) return `a list of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (value === null) return 'null';
  if (typeof value === 'string') return 'a string, which has no fields';
  if (typeof value !== 'object') return `a ${typeof value}`;
  const keys = Object.keys(value).filter((key) => {
    const property = Object.getOwnPropertyDescriptor(value, key);
    return property !== undefined && 'value' in property;
  });
  if (keys.length === 0) return 'an empty object';
  const named = keys
    .filter((key) => key.length <= KEY_CHARS && ![...key].some((c) => c.charCodeAt(0) < 0x20))
    .slice(0, KEYS_NAMED)
    .map((key) => JSON.stringify(key));
  const count = `${keys.length} key${keys.length === 1 ? '' : 's'}`;
  if (named.length === 0) return `an object of ${count}`;
  const more = keys.length - named.length;
  const list = `${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
  return keys.length === 1
    ? `an object whose only key is ${list}`
    : `an object whose keys are ${list}`;
}
