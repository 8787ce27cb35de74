/**
 * A failed gate condition on a line of a known width (the summary, `evals show`). Its numbers are
 * what it says (`expected ≥ 0.9, got 0.72 (18 of 25 cases)`), so they are cut last: a long
 * condition name (`evaluators.some-long-id.mean`) is cut in its middle first, down to a few
 * columns; only past that (or at once, for a short name) are what was expected and what came
 * cut, each at its end, since their numbers come first.
 */
import { printable, textWidth, textWidthUpTo, truncateToWidth } from '../shared/text-table.ts';
import type { GateCondition } from '../types/index.ts';
import { cutMiddle } from './case-text.ts';

/**
 * A gate condition as a run's summary (and `evals show`) words it:
 * `evaluators.tone.mean: expected ≥ 0.8, got 0.72`, made printable.
 */
export function describeGateCondition(condition: GateCondition): string {
  return `${printable(condition.name)}: expected ${printable(condition.expected)}, got ${printable(condition.actual)}`;
}

/** The narrowest a condition's name is cut to: `eval…mean` still says which. */
const MIN_NAME = 10;

/**
 * A name this short is never cut (`regressions`, `minPassRate`, `evaluators.tone.mean`): cut, it
 * would save a few columns and read as a typo (`reg\u2026ssions`); what was expected and what came
 * are cut instead.
 */
const KEPT_NAME = 24;

/** `condition` as its summary words it, in at most `max` columns. */
export function gateConditionLine(condition: GateCondition, max: number): string {
  const whole = describeGateCondition(condition);
  if (textWidthUpTo(whole, max) <= max) return whole;
  const name = printable(condition.name);
  const long = textWidth(name) > KEPT_NAME;
  const rest = whole.slice(name.length);
  const nameRoom = max - textWidth(rest);
  if (long && nameRoom >= MIN_NAME) return `${cutMiddle(name, nameRoom)}${rest}`;
  // Narrower still (or a short name): the name whole or cut to its few columns, and what was
  // expected and what came each cut at its end, sharing the room: their numbers come first
  // (`\u2265 0.9`, `0 (0 of 3 cases)`).
  const shortName = long ? cutMiddle(name, MIN_NAME) : name;
  const expected = printable(condition.expected);
  const actual = printable(condition.actual);
  const room = Math.max(2, max - textWidth(`${shortName}: expected , got `));
  const expectedRoom = Math.max(1, Math.min(textWidth(expected), Math.ceil(room / 2)));
  const actualRoom = Math.max(1, room - expectedRoom);
  return `${shortName}: expected ${truncateToWidth(expected, expectedRoom)}, got ${truncateToWidth(actual, actualRoom)}`;
}
