/**
 * Two artifacts compared as `evals compare` compares them, by the gates they recorded: BASE's
 * suites that HEAD's config no longer has, HEAD's suites that lost a grid point of BASE, and
 * whether sharing no case is a wrong file (refused) or such a removal under `regressions: block`
 * (compared over no pair). `evals report --baseline` compares the same way, so the two agree.
 */
import type { Comparison } from '../types/comparison.ts';
import type { GateSpec, Params, ResultsArtifact } from '../types/index.ts';
import { compareArtifacts } from './compare.ts';
import { goneGridPoints, goneGridPointsText } from './gone-grid-points.ts';
import {
  foreignBaselineText,
  goneSuites,
  headSuites,
  unknownRemovedSuitesTexts,
} from './gone-suites.ts';
import { unknownRemovedEntriesTexts } from './unknown-removed.ts';
import { commonCasesProblem } from './validate-comparable.ts';

/** A suite of HEAD that `evals compare` fails for grid points of BASE its grid no longer has. */
export interface GoneGridPointsBlock {
  suite: string;
  /** BASE's grid points the suite's grid lacks and its `gate.removedGridValues` does not list. */
  gridPoints: Params[];
  text: string;
}

/** A suite of BASE that `evals compare` fails for: HEAD's config no longer has it. */
export interface GoneSuiteBlock {
  suite: string;
  text: string;
}

/** A comparison of two valid artifacts, with the removals their recorded gates fail. */
export interface RecordedComparison {
  comparison: Comparison;
  goneSuites: GoneSuiteBlock[];
  goneGridPoints: GoneGridPointsBlock[];
  /** Said first when BASE shares no suite and no case with HEAD (see gone-suites.ts). */
  foreign?: string;
  /**
   * Entries of HEAD's `removedSuites` that name no suite of BASE, and of its suites'
   * `removedEvaluators` and `removedGridValues` that name nothing BASE has: warnings, on stderr.
   */
  unknownRemoved: string[];
}

/**
 * Compares `base` with `head`; throws the UsageError of no case in common unless a removal the
 * gate blocks on explains it (a one-suite config whose suite, or only grid value, was renamed:
 * the failure `evals run --baseline` gives it, not a wrong file).
 */
export function compareRecorded(
  base: ResultsArtifact,
  head: ResultsArtifact,
  names: { base: string; head: string },
): RecordedComparison {
  const gone = blockedGoneSuites(base, head);
  const apart = commonCasesProblem(base, head, names);
  let comparison: Comparison;
  try {
    comparison = compareArtifacts(base, head);
  } catch (error) {
    throw apart ?? error;
  }
  const points = blockedGoneGridPoints(comparison, head, base);
  if (apart !== undefined && gone.length === 0 && points.length === 0) throw apart;
  // Sharing no suite and no case, BASE is likelier another config's than renamed: said first.
  const foreign =
    apart !== undefined && gone.length > 0
      ? foreignBaselineText(base, headSuites(head), { config: "HEAD's config", run: 'HEAD' })
      : undefined;
  return {
    comparison: foreign === undefined ? comparison : { ...comparison, foreignBaseline: foreign },
    goneSuites: gone,
    goneGridPoints: points,
    unknownRemoved: [
      ...unknownRemovedSuitesTexts(base, headSuites(head)),
      ...unknownRemovedEntriesTexts(base, head, (suite) => recordedGate(head, suite)),
    ],
    ...(foreign !== undefined ? { foreign } : {}),
  };
}

/**
 * The suites of `head` whose recorded gate has `regressions: block` and whose grid, run whole,
 * lacks grid points of BASE not listed in its `removedGridValues` (see gone-grid-points.ts), as
 * `evals run --baseline` fails their runs.
 */
export function blockedGoneGridPoints(
  comparison: Comparison,
  head: ResultsArtifact,
  base?: ResultsArtifact,
): GoneGridPointsBlock[] {
  const gate = (suite: string): GateSpec | undefined => recordedGate(head, suite);
  return goneGridPoints(comparison, head, (suite) => gate(suite)?.removedGridValues, base)
    .filter((points) => gate(points.suite)?.regressions === 'block')
    .map((points) => ({
      suite: points.suite,
      gridPoints: points.gone,
      text: goneGridPointsText(points),
    }));
}

/** The gate `head` recorded for `suite` (its first run's plan); none from an older evalgate. */
function recordedGate(head: ResultsArtifact, suite: string): GateSpec | undefined {
  return head.runs.find((run) => run.suite === suite)?.plan?.gate;
}

/**
 * The suites of `base` that `head`'s whole config lacks and its `removedSuites` does not list,
 * whose gate BASE recorded has `regressions: block` (see gone-suites.ts), as `evals run
 * --baseline` fails the run for them.
 */
function blockedGoneSuites(base: ResultsArtifact, head: ResultsArtifact): GoneSuiteBlock[] {
  return goneSuites(base, headSuites(head))
    .filter((suite) => suite.regressions === 'block')
    .map(({ suite, text }) => ({ suite, text }));
}
