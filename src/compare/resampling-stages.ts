/**
 * How many random sign vectors (or κ swaps) one row draws when a large family needs small
 * p-values: in stages, more only for a row whose p is still small. Pure.
 *
 * **Why.** Holm's first threshold is α / F, so a family of F rows needs p-values as small as
 * α / F, which a resampled p, (1 + count) / (vectors + 1), only reaches with some F / α vectors.
 * Drawing that many for every row makes a comparison's work grow with F² (bench/README.md).
 * Most rows do not need them: a row whose p is 0.3, or 0.02 known to within a few percent, is
 * decided by the first few thousand vectors at every threshold Holm can give it.
 *
 * **How.** Every resampled row draws the first stage (4,999 vectors by default, what a family of
 * up to 62 rows has always drawn, so those comparisons are unchanged). It then draws on from the
 * same seeded stream, the count of vectors doubling each stage up to the family's ceiling, only
 * while fewer than `STOP_COUNT` of the vectors drawn so far reached the observed change and its
 * p is below α: past either, more vectors would only refine a p no threshold is near (a p of α
 * or more is never significant, and with `STOP_COUNT` reaching vectors p is known to about ±16%,
 * finer than the ceiling resolves a row at Holm's first threshold, where it sees about 4). A row with
 * a p near 0 draws the ceiling, as before; a row far from every threshold stops at the first
 * stage, so a family's work is about F × 5,000 vectors plus the ceiling for its few
 * near-significant rows.
 *
 * **Still valid.** The p reported is (1 + count) / (vectors + 1) over the vectors drawn, and a
 * row stops at stage j only when that p is above a cut-off fixed by j alone (`STOP_COUNT` /
 * (vectors + 1), or α), never by the other rows. Then for any level u, a reported p ≤ u implies
 * that the p of the first stage whose cut-off is below u (or the last stage) is ≤ u as well: a
 * row that stopped before it had a p above its own cut-off, so above u; a row that went past it
 * had a p at or below that cut-off there. That stage has a fixed number of vectors, so its p is
 * an ordinary permutation p with the +1 correction: P(p ≤ u) ≤ u under "no change". So the
 * reported p is valid as well, at every u, and Holm's guarantee holds unchanged.
 */

/**
 * A row stops drawing once this many vectors reached the observed change: its p is then known to
 * about 1/√40 ≈ 16% of itself, and drawing more refines a p no threshold is near.
 */
export const STOP_COUNT = 40;

/**
 * The sizes of the stages, in vectors drawn so far: `first`, then doubling (in vectors + 1, so
 * a stage's possible p-values include the last stage's), ending at `most` exactly. Only `first` when `most`
 * is not above it.
 */
export function resamplingStages(first: number, most: number): number[] {
  const stages = [first];
  let size = first;
  while (size < most) {
    size = Math.min(most, 2 * (size + 1) - 1);
    stages.push(size);
  }
  return stages;
}

/**
 * Whether a row that drew `drawn` vectors, `reaching` of which reached the observed change, draws
 * the next stage: its p is below α and fewer than `STOP_COUNT` vectors reached. Both cut-offs
 * depend on the stage alone, which is what keeps the reported p valid (see above).
 */
export function drawsMore(reaching: number, drawn: number, alpha: number): boolean {
  return reaching < STOP_COUNT && (1 + reaching) / (drawn + 1) < alpha;
}
