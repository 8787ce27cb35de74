/**
 * What a row that found no change is called, by what it could have seen. `unchanged` beside a
 * row that could not have detected a drop of the suite's `gate.minDetectableEffect` reads as
 * "nothing moved" when the data say only "too few cases to tell": such a row is called `not
 * significant`, with what it could detect, in every form (the newly failing lists already word
 * an underpowered pass rate so, `flipsReading`). The JSON form keeps `label: "unchanged"` and
 * `power.underpowered`.
 */
import { visibleFixed } from '../shared/format-change.ts';
import { plusMinus } from './comparison-numbers.ts';
import { shownLabel, type LabelledRow } from './shown-label.ts';
import type { RowPower, RowTest } from '../types/comparison.ts';

/** The row fields its words are read from. */
export type PoweredRow = LabelledRow & Pick<RowTest, 'power' | 'adjustedP'>;

/** A row's change in its own units: `±16.2 pp` for a pass rate, `±0.06` for a score or κ. */
export type ChangeSize = (value: number) => string;

/** `±16.2 pp`: a pass rate's change, in percentage points. */
export const pointsSize: ChangeSize = (value) => `\u00b1${visibleFixed(value * 100, 1)} pp`;

/** `±0.06`: a score's or a κ's change. */
export const scoreSize: ChangeSize = plusMinus;

/**
 * Shown `unchanged` by its own test (not a change the family's correction removed), unable to
 * detect the suite's `gate.minDetectableEffect`, and some case changed (the row is in the
 * family, `adjustedP`): its "unchanged" would overstate. Where no case changed at all,
 * `unchanged` is what the data show, whatever more cases could have seen.
 */
export function underpoweredRow(row: PoweredRow): boolean {
  return row.label === 'unchanged' && row.power?.underpowered === true && row.adjustedP !== null;
}

/** What a row is called: its shown label, or `not significant` for an `underpoweredRow`. */
export function shownWords(row: PoweredRow): string {
  return underpoweredRow(row) ? 'not significant' : shownLabel(row);
}

/** `could detect ±0.06`, or `too few cases to detect any change` past the whole range. */
export function detectWords(power: RowPower, size: ChangeSize): string {
  // Past 1 no score or rate can move that far: with these cases no change reaches the level.
  return power.detectable > 1
    ? 'too few cases to detect any change'
    : `could detect ${size(power.detectable)}`;
}

/**
 * A row's words where there is no room for its note (the PR comment's table, the HTML page):
 * `not significant (underpowered: could detect ±0.26)` for an `underpoweredRow`, else its shown
 * label.
 */
export function verdictWords(row: PoweredRow, size: ChangeSize): string {
  const power = row.power;
  if (!underpoweredRow(row) || power === null) return shownLabel(row);
  return `not significant (underpowered: ${detectWords(power, size)})`;
}
