/**
 * `1,234`: grouping makes large counts readable. Done by hand rather than with toLocaleString,
 * whose first call loads ICU data (~20 ms of a cold start) and whose output depends on the build.
 * A leaf helper so that every layer (evaluators' metadata notes as well as the reports) writes
 * counts the same way.
 */
export function formatCount(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
