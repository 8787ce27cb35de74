/**
 * Keys a user wrote (in evals.yaml, a case, an answer) put into a fresh object. An assignment
 * `object[key] = value` with the key `__proto__` sets the object's prototype instead of adding
 * a key, so the key vanished from what is sent or compared (`JSON.stringify` skips a prototype).
 */

/** Sets `key` on `object` as an own, enumerable property, `__proto__` included. */
export function setOwn<T>(object: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') {
    Object.defineProperty(object, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  } else {
    object[key] = value;
  }
}

/** A fresh object of `entries`, each an own key as {@link setOwn} sets it. */
export function ownFields<T>(entries: Iterable<readonly [string, T]>): Record<string, T> {
  const object: Record<string, T> = {};
  for (const [key, value] of entries) setOwn(object, key, value);
  return object;
}
