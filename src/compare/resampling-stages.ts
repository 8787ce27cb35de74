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

/**
 * An upper bound on a row's exact sign-flip p, P(|Σ s_i·d_i| ≥ |D| − tolerance) over uniform
 * random signs, by Hoeffding's inequality for a sum of ±d_i: 2·exp(−t² / (2·Σ d_i²)), t the
 * distance to reach (`sum` is D, `squares` Σ d_i²). 1 when it says nothing.
 *
 * **Why.** A row whose change is far beyond noise (every score 0.2 lower over 100 cases) has no
 * sign vector reaching it, so it drew the family's ceiling (some 4 × F / α vectors) only to
 * show a p below Holm's first threshold: in a family of F such rows the work grew with F² (800
 * rows took 3 times the CPU of 400). When this bound is already below the smallest p the
 * ceiling could give, 1 / (ceiling + 1), the row draws only the first stage (for its interval)
 * and reports the bound as its p. The bound is never below the exact p, so such a p is
 * conservative against the exact test; the ceiling's own p would have been 1 / (ceiling + 1) or
 * a few times it, at or below Holm's first threshold either way, so the row is significant as
 * before. Rows nearer any threshold, where Hoeffding's bound is far above the exact p, resample
 * exactly as they did.
 */
export function signFlipTailBound(sum: number, squares: number, tolerance: number): number {
  const reach = Math.abs(sum) - tolerance;
  if (!(reach > 0) || !(squares > 0)) return 1;
  return Math.min(1, 2 * Math.exp(-(reach * reach) / (2 * squares)));
}
