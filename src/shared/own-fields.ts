/**
 * An object made from key/value pairs as JSON.parse makes one: every key an own, enumerable
 * field, `__proto__` included. Assigning (`o[key] = v`, `Object.assign`, `{ ...o }` into a
 * literal's `__proto__`) would set the object's prototype instead and lose the field.
 */
export function ownFields(entries: Iterable<readonly [string, unknown]>): Record<string, unknown> {
  const target: Record<string, unknown> = {};
  for (const [key, value] of entries) {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return target;
}
