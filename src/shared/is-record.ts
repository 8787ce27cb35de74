/** Checks on values that come from outside (JSON, YAML, user code) before their fields are read. */

/** An object that is not null and not an array: one whose fields can be read by name. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An object made by `{}` or `Object.create(null)`: not an array, a class instance or a Date. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
