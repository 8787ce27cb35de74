/**
 * The case table's column layout, from how many evaluators it has. Up to six, each evaluator's
 * score has a column of its own, 80 px wide (a longer name cut with `…`). From seven on they did not fit a 1280 px
 * window beside the other columns, and the table scrolled sideways, the reasons of the `why`
 * column squeezed to a few words: so from seven the scores are compact chips, side by side
 * under names written upwards (a spreadsheet's narrow columns, each name whole up to about a dozen
 * characters, a longer one cut with `…`, every one whole in its tooltip), and the other columns
 * give up a little width. Twelve evaluators then fit 1280 px with the `why` column at 150 px or
 * more; past thirteen the table scrolls sideways again, and says so.
 */

/** Column widths in px; `why` is its least, it takes what the others leave. */
interface Widths {
  status: number;
  case: number;
  why: number;
  run: number;
  duration: number;
  score: number;
  /** Between two score cells. */
  scoreGap: number;
}

/**
 * Up to six evaluators. The why column takes what the others leave (cut with `…`, whole in its
 * tooltip), down to a few words: at 220 px it pushed six evaluator columns out of a 1280 px
 * window, where without it they fit.
 */
const WIDE: Widths = {
  status: 90,
  case: 200,
  why: 120,
  run: 140,
  duration: 70,
  score: 80,
  scoreGap: 8,
};
/** Seven evaluators or more: a chip holds `0.667`; the why column keeps more than a few words. */
const COMPACT: Widths = {
  status: 90,
  case: 180,
  why: 150,
  run: 120,
  duration: 56,
  score: 40,
  scoreGap: 2,
};
/** The fewest evaluators whose scores are chips. */
export const COMPACT_FROM = 7;
const GAP = 8;
const PADDING = 16;
/** The header's height: a row's, or room for names written upwards. */
const HEADER = { wide: 30, compact: 96 };

export interface CaseColumns {
  /** The scores are chips under names written upwards. */
  compact: boolean;
  /** The row's grid: status, case, why, run, ms, then one cell holding the scores. */
  template: string;
  /** The scores' own grid, inside their cell, and the space between two of them. */
  scoreTemplate: string;
  scoreGap: string;
  /** Below it the table scrolls sideways. */
  minWidth: number;
  headerHeight: number;
}

export function caseColumns(evaluators: number): CaseColumns {
  const compact = evaluators >= COMPACT_FROM;
  const w = compact ? COMPACT : WIDE;
  const scores = evaluators * w.score + Math.max(0, evaluators - 1) * w.scoreGap;
  // Five columns and the scores' cell; no cell at all without an evaluator.
  const cells = evaluators === 0 ? 5 : 6;
  return {
    compact,
    template: `${w.status}px minmax(${w.case}px,2fr) minmax(${w.why}px,3fr) minmax(${w.run}px,1fr) ${w.duration}px${evaluators === 0 ? '' : ` ${scores}px`}`,
    scoreTemplate: `repeat(${evaluators}, ${w.score}px)`,
    scoreGap: `${w.scoreGap}px`,
    minWidth: w.status + w.case + w.why + w.run + w.duration + scores + GAP * (cells - 1) + PADDING,
    headerHeight: compact ? HEADER.compact : HEADER.wide,
  };
}
