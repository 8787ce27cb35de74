/**
 * How a grid value is written wherever a person reads or types it: run names in reports
 * (`model=large temperature=0`), `--grid key=value`, JUnit properties. Strings as they are,
 * anything else as JSON, so `0` and `"0"` read the same: the config refuses a grid holding both.
 */
export function gridValueText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
