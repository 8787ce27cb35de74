/**
 * Suites of the baseline that HEAD's config no longer has. Runs are paired by suite, so a suite
 * renamed or deleted is compared with nothing: renaming a failing suite passed `regressions:
 * block`, and renaming a one-suite config's only suite left no case in common, which is a
 * warning and no comparison. A run that lacks a suite is usually one that did not select it
 * (`--suite`), which must not count: so a suite is gone only when HEAD's whole config, which the
 * artifact records (`configDataParts.suites`, never narrowed by `--suite`), lacks it. The suite
 * being gone from HEAD, its rule is BASE's: the gate BASE's runs of it recorded (`plan.gate`).
 */
import { closestMatch } from '../config/did-you-mean.ts';
import type { ResultsArtifact } from '../types/index.ts';

/** A suite of BASE that HEAD's config no longer has and does not list in `removedSuites`. */
export interface GoneSuite {
  suite: string;
  /** BASE's `gate.regressions` for it: `block` fails the run, `warn` is a warning. */
  regressions: 'block' | 'warn';
  /** What the run says of it, naming the suites new in HEAD's config and how to accept it. */
  text: string;
}

/** What a HEAD artifact says of its whole config: its suites, and those it removed on purpose. */
export interface HeadSuites {
  suites: readonly string[];
  removedSuites: readonly string[];
  /** The suites HEAD ran (its runs'): fewer than `suites` when narrowed by `--suite`. */
  ran?: readonly string[];
}

/**
 * HEAD's whole config as its artifact records it; `undefined` when it records no breakdown of
 * its config (an earlier evalgate wrote it), so that nothing can be said gone.
 */
export function headSuites(
  head: Pick<ResultsArtifact, 'configDataParts' | 'removedSuites' | 'runs'>,
): HeadSuites | undefined {
  if (head.configDataParts === undefined) return undefined;
  return {
    suites: head.configDataParts.suites.map((suite) => suite.id),
    removedSuites: head.removedSuites ?? [],
    ran: [...new Set(head.runs.map((run) => run.suite))],
  };
}

/**
 * The suites of `base`'s runs that `head`'s config lacks and its `removedSuites` does not list,
 * each with BASE's rule for it: `block` when a run of it recorded `regressions: block`, `warn`
 * when its recorded gate left `regressions` unset or `warn`. A suite whose runs recorded no plan
 * (an earlier evalgate), or `off`, has no rule that acts on it and is left out.
 */
export function goneSuites(
  base: Pick<ResultsArtifact, 'runs' | 'configDataParts'>,
  head: HeadSuites | undefined,
): GoneSuite[] {
  if (head === undefined) return [];
  const inHead = new Set(head.suites);
  const accepted = new Set(head.removedSuites);
  const known = new Set([
    ...base.runs.map((run) => run.suite),
    ...(base.configDataParts?.suites.map((suite) => suite.id) ?? []),
  ]);
  const added = head.suites.filter((id) => !known.has(id));
  // A matrix job (`--suite t`) that ran none of the suites new in the config is not where a
  // rename is anyone's business: the job that runs the new suite fails for it; this one says
  // so. With no new suite (a deletion) there is no such job, and every job fails, as a run of
  // the whole config does: a removed suite never passes everywhere.
  const ran = new Set(head.ran ?? head.suites);
  const elsewhere =
    head.suites.some((id) => !ran.has(id)) && added.length > 0 && !added.some((id) => ran.has(id));
  const found: GoneSuite[] = [];
  for (const suite of new Set(base.runs.map((run) => run.suite))) {
    if (inHead.has(suite) || accepted.has(suite)) continue;
    const rules = base.runs
      .filter((run) => run.suite === suite && run.plan !== undefined)
      .map((run) => run.plan?.gate.regressions ?? 'warn');
    const regressions = rules.includes('block') ? 'block' : rules.includes('warn') ? 'warn' : null;
    if (regressions === null) continue;
    if (elsewhere && regressions === 'block') {
      found.push({ suite, regressions: 'warn', text: goneElsewhereText(suite, added) });
      continue;
    }
    found.push({ suite, regressions, text: goneSuiteText(suite, added) });
  }
  return found;
}

/**
 * A warning for each entry of HEAD's `removedSuites` that names no suite of `base` (its runs or
 * its whole config): it accepts nothing against this baseline. Not an error: the baseline may
 * be newer than the removal (the entry may stay, see docs/config.md) or of another branch, but a
 * typo (`qa-v1` for `qa_v1`) would leave the suite it meant failing, so the closest suite of the
 * baseline is named when one looks like it.
 */
export function unknownRemovedSuitesTexts(
  base: Pick<ResultsArtifact, 'runs' | 'configDataParts'>,
  head: HeadSuites | undefined,
): string[] {
  if (head === undefined || head.removedSuites.length === 0) return [];
  const known = new Set([
    ...base.runs.map((run) => run.suite),
    ...(base.configDataParts?.suites.map((suite) => suite.id) ?? []),
  ]);
  const inHead = new Set(head.suites);
  // Only the baseline's suites this config lacks can be what an entry meant.
  const gone = [...known].filter((id) => !inHead.has(id) && !head.removedSuites.includes(id));
  return head.removedSuites
    .filter((id) => !known.has(id))
    .map((id) => {
      const near = closestMatch(id, gone);
      const meant =
        near === undefined
          ? 'if it was removed before the baseline was made, the entry can go'
          : `did you mean ${JSON.stringify(near)}, which the baseline has and the config does not?`;
      return `removedSuites lists ${JSON.stringify(id)}, which is no suite of the baseline, so it accepts nothing here: ${meant}`;
    });
}

/**
 * `suite "s" of the baseline is not in the config any more ("t" is new in the config: renamed?),
 * so nothing was compared with it; if that is intended, list it in the config's top-level
 * removedSuites`: the shape of the sentences of a missing evaluator and of a gone grid point.
 */
function goneSuiteText(suite: string, added: readonly string[]): string {
  const renamed =
    added.length === 0
      ? ''
      : ` (${added.map((id) => JSON.stringify(id)).join(', ')} ${added.length === 1 ? 'is' : 'are'} new in the config: renamed?)`;
  return `suite ${JSON.stringify(suite)} of the baseline is not in the config any more${renamed}, so nothing was compared with it; if that is intended, list it in the config's top-level removedSuites`;
}

/**
 * What a run narrowed by `--suite` to none of the suites new in the config says of a suite of
 * the baseline gone under `regressions: block`: which run fails for it, and how to accept it.
 */
function goneElsewhereText(suite: string, added: readonly string[]): string {
  const names = added.map((id) => JSON.stringify(id)).join(', ');
  const one = added.length === 1;
  const flags = added.map((id) => `--suite ${id}`).join(' or ');
  return `suite ${JSON.stringify(suite)} of the baseline is not in the config any more (${names} ${one ? 'is' : 'are'} new in the config: renamed?); this run did not select ${one ? 'it' : 'them'}, and a run that does (${flags}, or the whole config) fails for it under the baseline's regressions: block; if that is intended, list it in the config's top-level removedSuites`;
}

/**
 * `artifact` failed for the suites of its baseline gone under `regressions: block`: recorded in
 * `missingSuites`, with a `fail` verdict; those that only warn recorded in `goneSuiteWarnings`,
 * so that the reports of the artifact (a matrix job's PR comment) say them too. Unchanged when
 * there are none.
 */
export function withMissingSuites<
  T extends Pick<ResultsArtifact, 'verdict' | 'missingSuites' | 'goneSuiteWarnings'>,
>(artifact: T, gone: readonly GoneSuite[]): T {
  const blocking = gone.filter((suite) => suite.regressions === 'block');
  const warning = gone.filter((suite) => suite.regressions === 'warn');
  const said = (list: readonly GoneSuite[]) => list.map(({ suite, text }) => ({ suite, text }));
  return {
    ...artifact,
    ...(blocking.length > 0 && { verdict: 'fail', missingSuites: said(blocking) }),
    ...(warning.length > 0 && { goneSuiteWarnings: said(warning) }),
  };
}

/**
 * `none of the baseline's suites ("a", "b") is in this config, and the baseline shares no case
 * with this run: a baseline of another config? …` when no suite of `base`'s runs is in `head`'s
 * config: said once, before the per-suite texts, by a caller that found no case in common, as a
 * sentence per suite asking "renamed?" hides the likelier mistake, the wrong file. The failure
 * stays (a baseline that compares nothing must not pass); `undefined` when a suite is shared, or
 * HEAD records no breakdown of its config.
 */
export function foreignBaselineText(
  base: Pick<ResultsArtifact, 'runs'>,
  head: HeadSuites | undefined,
  names: { config: string; run: string },
): string | undefined {
  if (head === undefined) return undefined;
  const suites = [...new Set(base.runs.map((run) => run.suite))];
  const inHead = new Set(head.suites);
  if (suites.length === 0 || suites.some((suite) => inHead.has(suite))) return undefined;
  const listed = suites.map((id) => JSON.stringify(id)).join(', ');
  const one = suites.length === 1;
  const which = one
    ? `the baseline's only suite (${listed}) is not`
    : `none of the baseline's suites (${listed}) is`;
  const renamed = one ? 'the suite was renamed, list it' : 'the suites were renamed, list them';
  return `${which} in ${names.config}, and the baseline shares no case with ${names.run}: a baseline of another config? If ${renamed} in removedSuites`;
}
