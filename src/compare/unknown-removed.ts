/**
 * Warnings for the entries of a suite's `gate.removedEvaluators` and `gate.removedGridValues`
 * that name nothing the baseline has: they accept nothing against it. Not errors, as for
 * `removedSuites` (gone-suites.ts): the baseline may be newer than the removal (an entry may
 * stay, see docs/config.md), but a typo (`tone-v1` for `tone_v1`) would leave what it meant
 * failing the gate, so the closest name the baseline has and this run lacks is offered.
 */
import { closestMatch } from '../config/did-you-mean.ts';
import { PASS_CONDITION_EVALUATOR } from '../shared/reserved-ids.ts';
import type { GateSpec, ResultsArtifact, RunResult } from '../types/index.ts';
import { gridOf, valueText, wholeGrid } from './gone-grid-points.ts';

type RemovedLists = Pick<GateSpec, 'removedEvaluators' | 'removedGridValues'>;

/**
 * One sentence per entry of the removal lists of HEAD's suites (`gate(suite)`) that names no
 * evaluator, grid key or grid value of BASE's runs of the suite. A suite BASE has no run of says
 * nothing (a baseline of some suites only). Grid entries are judged only when BASE ran the
 * suite's whole grid (its recorded digest, see gone-grid-points.ts): a baseline made by a
 * `--grid` slice lacks values its config had.
 */
export function unknownRemovedEntriesTexts(
  base: Pick<ResultsArtifact, 'runs' | 'configDataParts'>,
  head: Pick<ResultsArtifact, 'runs'>,
  gate: (suite: string) => RemovedLists | undefined,
): string[] {
  const texts: string[] = [];
  for (const suite of new Set(head.runs.map((run) => run.suite))) {
    const lists = gate(suite);
    const before = base.runs.filter((run) => run.suite === suite);
    if (lists === undefined || before.length === 0) continue;
    const now = head.runs.filter((run) => run.suite === suite);
    texts.push(...unknownEvaluators(suite, lists.removedEvaluators ?? [], before, now));
    const digest = base.configDataParts?.suites.find((s) => s.id === suite)?.keys.grid;
    const points = before.map((run) => run.params);
    if (lists.removedGridValues !== undefined && wholeGrid(points, digest)) {
      const was = gridOf(points);
      const is = gridOf(now.map((run) => run.params));
      texts.push(...unknownGridValues(suite, lists.removedGridValues, was, is));
    }
  }
  return texts;
}

function unknownEvaluators(
  suite: string,
  removed: readonly string[],
  before: readonly RunResult[],
  now: readonly RunResult[],
): string[] {
  const known = evaluatorIds(before);
  const inHead = evaluatorIds(now);
  // Only the baseline's evaluators this run lacks (and no entry lists) can be what one meant.
  const gone = [...known].filter((id) => !inHead.has(id) && !removed.includes(id));
  return removed
    .filter((id) => !known.has(id))
    .map((id) => {
      const near = closestMatch(id, gone);
      return `${suite}: gate.removedEvaluators lists ${JSON.stringify(id)}, which is no evaluator of the baseline's run of the suite, so it accepts nothing here: ${meant(near)}`;
    });
}

function unknownGridValues(
  suite: string,
  removed: NonNullable<GateSpec['removedGridValues']>,
  was: Readonly<Record<string, unknown[]>>,
  is: Readonly<Record<string, unknown[]>>,
): string[] {
  const texts: string[] = [];
  for (const [key, values] of Object.entries(removed)) {
    const known = was[key];
    if (known === undefined) {
      const near = closestMatch(key, Object.keys(was));
      const hint = near === undefined ? meant(undefined) : `did you mean ${JSON.stringify(near)}?`;
      texts.push(
        `${suite}: gate.removedGridValues lists the key ${JSON.stringify(key)}, which no grid point of the baseline has, so it accepts nothing here: ${hint}`,
      );
      continue;
    }
    const knownTexts = known.map(valueText);
    const headTexts = (is[key] ?? []).map(valueText);
    const listed = values.map(valueText);
    const gone = knownTexts.filter((text) => !headTexts.includes(text) && !listed.includes(text));
    for (const value of values) {
      const text = valueText(value);
      if (knownTexts.includes(text)) continue;
      texts.push(
        `${suite}: gate.removedGridValues lists ${key} ${JSON.stringify(text)}, which no grid point of the baseline has, so it accepts nothing here: ${meant(closestMatch(text, gone))}`,
      );
    }
  }
  return texts;
}

/** The end of each sentence: the name the entry may have meant, or that it may go. */
function meant(near: string | undefined): string {
  return near === undefined
    ? 'if it was removed before the baseline was made, the entry can go'
    : `did you mean ${JSON.stringify(near)}, which the baseline has and this run does not?`;
}

/** The evaluators of `runs` (their summaries), less the pass condition's own errors. */
function evaluatorIds(runs: readonly RunResult[]): Set<string> {
  const ids = new Set(runs.flatMap((run) => Object.keys(run.summary.evaluators)));
  ids.delete(PASS_CONDITION_EVALUATOR);
  return ids;
}
