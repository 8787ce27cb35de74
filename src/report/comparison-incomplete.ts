/**
 * What a comparison says when a side is incomplete (a run interrupted, or merged from only some
 * shards): it is still compared, since a partial baseline is informative, but never reads as a
 * clean comparison. The cases an incomplete run lacks were not run there (not added or removed),
 * and regressions can only be judged on the cases both sides ran.
 */
import { describeRun, formatCount, plural } from './labels.ts';
import type { Comparison, IncompleteSide, RunComparison } from '../types/comparison.ts';

/** One side's warning: a short title to emphasize and the sentence after it. */
export interface IncompleteWarning {
  /** `BASE is incomplete` */
  title: string;
  /** `(interrupted): s · k=a has 2 of 6 planned cases. …` */
  detail: string;
}

/** Runs named in a warning; the rest are counted. */
const LISTED_RUNS = 5;

/** A warning per incomplete side, BASE first; none for a clean comparison. */
export function incompleteWarnings(comparison: Comparison): IncompleteWarning[] {
  const paired = comparison.runs.reduce((sum, run) => sum + run.passRate.paired, 0);
  const sides = [
    {
      side: 'BASE',
      other: 'HEAD',
      info: comparison.base.incomplete,
      lacks: 'notRunInBase',
      instead: 'added',
    },
    {
      side: 'HEAD',
      other: 'BASE',
      info: comparison.head.incomplete,
      lacks: 'notRunInHead',
      instead: 'removed',
    },
  ] as const;
  return sides.flatMap(({ side, other, info, lacks, instead }): IncompleteWarning[] => {
    if (info === undefined) return [];
    const missing = comparison.runs.reduce((sum, run) => sum + (run.cases[lacks]?.length ?? 0), 0);
    const listed =
      missing === 0
        ? ''
        : ` The ${plural(missing, 'case')} ${other} ran and ${side} did not ${missing === 1 ? 'is' : 'are'} listed as "not run in ${side}", not as ${instead}.`;
    return [
      {
        title: `${side} is incomplete`,
        detail:
          `${why(info)}${listed}` +
          ` Regressions are judged only on the ${plural(paired, 'case')} both ran, so this is not a full comparison.`,
      },
    ];
  });
}

/**
 * What made a side incomplete, each situation for what it is: a partial merge (which shards are
 * missing), one shard (which shards it lacks), runs cut short (named, with their counts), or an artifact marked interrupted whose
 * runs all have their planned cases.
 */
function why(info: IncompleteSide): string {
  const sentences: string[] = [];
  const short = shortRuns(info.shortRuns ?? []);
  if (info.partialMerge !== undefined) {
    const { count, merged } = info.partialMerge;
    const absent = Array.from({ length: count }, (_, i) => i + 1).filter(
      (i) => !merged.includes(i),
    );
    sentences.push(
      `(a partial merge): only ${shards(merged)} of ${count} ${merged.length === 1 ? 'was' : 'were'} merged, so every run lacks the cases of ${shards(absent)}, which no count includes.`,
    );
    if (short !== '') sentences.push(`A merged shard was interrupted too: ${short}.`);
  } else if (info.shard !== undefined) {
    const { index, count } = info.shard;
    const others = Array.from({ length: count }, (_, i) => i + 1).filter((i) => i !== index);
    sentences.push(
      `(one shard): it is shard ${index} of ${count}, so every run lacks the cases of ${shards(others)}, which no count includes; merge the shards (evals merge) to compare whole runs.`,
    );
    if (short !== '') sentences.push(`It was interrupted too: ${short}.`);
  } else if (short !== '') {
    sentences.push(`(interrupted): ${short}.`);
  } else if (info.shortRuns === undefined) {
    // Recorded by an earlier evalgate, which counted the side's cases but named no run.
    sentences.push(
      `(interrupted, or merged from only some shards): the evalgate that recorded this comparison did not say which runs lack cases.`,
    );
  } else if (info.markedOnly === true) {
    sentences.push(
      `(marked interrupted, yet every run has all its planned cases): interrupted after its last case, or merged from only some shards by an older evalgate, whose missing shards would be counted nowhere; every run is taken as incomplete.`,
    );
  }
  return sentences.join(' ');
}

/** `shard 2`, `shards 1, 3` */
function shards(indices: readonly number[]): string {
  return `${indices.length === 1 ? 'shard' : 'shards'} ${indices.join(', ')}`;
}

/** `s · k=a has 2 of 6 planned cases; s · k=b has 0 of 6 planned cases`, the first few named. */
function shortRuns(runs: NonNullable<IncompleteSide['shortRuns']>): string {
  const named = runs
    .slice(0, LISTED_RUNS)
    .map(
      (run) =>
        `${describeRun(run)} has ${formatCount(run.cases)} of ${plural(run.planned, 'planned case')}`,
    );
  const more = runs.length - named.length;
  if (more > 0) named.push(`${plural(more, 'more run')} ${more === 1 ? 'is' : 'are'} short too`);
  return named.join('; ');
}

/**
 * ` · BASE has 2 of 6 planned cases` for a run cut short, ` · BASE is incomplete` for a run with
 * every planned case on a side no count can vouch for (see `IncompleteSide`); '' otherwise.
 */
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
