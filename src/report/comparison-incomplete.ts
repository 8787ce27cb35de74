/**
 * What a comparison says when a side is incomplete (interrupted, or merged from only some
 * shards): it is still compared, since a partial baseline is informative, but never reads as a
 * clean comparison. The cases that side lacks were not run there (not added or removed), and
 * regressions can only be judged on the cases both sides ran.
 */
import { formatCount, plural } from './labels.ts';
import type { CaseCount, Comparison, RunComparison } from '../types/comparison.ts';

/** One side's warning: a short title to emphasize and the sentence after it. */
export interface IncompleteWarning {
  /** `BASE is incomplete` */
  title: string;
  /** `(interrupted or a partial merge): 2 of 6 planned cases finished. …` */
  detail: string;
}

/** A warning per incomplete side, BASE first; none for a clean comparison. */
export function incompleteWarnings(comparison: Comparison): IncompleteWarning[] {
  const paired = comparison.runs.reduce((sum, run) => sum + run.passRate.paired, 0);
  const sides = [
    {
      side: 'BASE',
      other: 'HEAD',
      count: comparison.base.incomplete,
      lacks: 'notRunInBase',
      instead: 'added',
    },
    {
      side: 'HEAD',
      other: 'BASE',
      count: comparison.head.incomplete,
      lacks: 'notRunInHead',
      instead: 'removed',
    },
  ] as const;
  return sides.flatMap(({ side, other, count, lacks, instead }): IncompleteWarning[] => {
    if (count === undefined) return [];
    const missing = comparison.runs.reduce((sum, run) => sum + (run.cases[lacks]?.length ?? 0), 0);
    const listed =
      missing === 0
        ? ''
        : ` The ${plural(missing, 'case')} ${other} ran and ${side} did not ${missing === 1 ? 'is' : 'are'} listed as "not run in ${side}", not as ${instead}.`;
    return [
      {
        title: `${side} is incomplete`,
        detail:
          `(interrupted or a partial merge): ${finished(count)}.${listed}` +
          ` Regressions are judged only on the ${plural(paired, 'case')} both ran, so this is not a full comparison.`,
      },
    ];
  });
}

/** `2 of 6 planned cases finished`; a partial merge's missing shards are counted in neither. */
function finished(count: CaseCount): string {
  return count.cases < count.planned
    ? `${formatCount(count.cases)} of ${plural(count.planned, 'planned case')} finished`
    : `${plural(count.cases, 'case')} finished, and the cases of any shard missing from it are not counted`;
}

/** ` · BASE has 2 of 6 planned cases` for a run whose side is incomplete; '' otherwise. */
export function incompleteRunNote(run: RunComparison): string {
  const parts: string[] = [];
  for (const side of ['base', 'head'] as const) {
    const count = run.incomplete?.[side];
    if (count === undefined) continue;
    const name = side === 'base' ? 'BASE' : 'HEAD';
    parts.push(
      count.cases < count.planned
        ? `${name} has ${formatCount(count.cases)} of ${plural(count.planned, 'planned case')}`
        : `${name} is incomplete`,
    );
  }
  return parts.map((part) => ` · ${part}`).join('');
}
