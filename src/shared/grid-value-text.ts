/**
 * How a grid value is written wherever a person reads or types it: run names in reports
 * (`model=large temperature=0`), `--grid key=value`, JUnit properties. Strings as they are,
 * anything else as JSON, so `0` and `"0"` read the same: the config refuses a grid holding both.
 *
 * Grids given in code (`runTestSuite`) may hold values JSON has no text for: a bigint reads as
 * its digits (as the artifact records it), a function as `[function name]` (`[function]` when
 * it has no name), a Symbol as `[Symbol(description)]`, a Map as the JSON of its entries
 * and a Set as the JSON array of its values.
 */
export function gridValueText(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'bigint':
      return value.toString();
    case 'function':
      return value.name === '' ? '[function]' : `[function ${value.name}]`;
    case 'symbol':
      return `[${value.toString()}]`;
    case 'undefined':
      return 'undefined';
    case 'object':
      try {
        return JSON.stringify(value, readableMember);
      } catch {
        return Object.prototype.toString.call(value); // a cycle: `[object Object]`
      }
    default:
      return JSON.stringify(value);
  }
}

/** JSON.stringify's replacer for values of a grid given in code (see gridValueText). */
function readableMember(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'function' || typeof value === 'symbol') return gridValueText(value);
  if (value instanceof Map) return Object.fromEntries(value);
  if (value instanceof Set) return [...(value as Set<unknown>)];
  return value;
}

/**
 * A grid value as reports show it (run names, grid columns): as `gridValueText` writes it, except
 * the empty string, shown as `""` (as `evals show` quotes strings), not as a blank cell. Other
 * strings stay bare, numbers' digits included: the values of one key never read the same (the
 * config refuses `0` beside `"0"`), and a bigint from `runTestSuite`, recorded as its digits,
 * reads as the number it was. Not for `--grid key=value`, which the shell unquotes.
 */
export function shownGridValue(value: unknown): string {
  return value === '' ? '""' : gridValueText(value);
}
