/**
 * One run of HEAD against the same run of BASE, before any test: cases paired by id (and
 * content id), the per-case changes each row will be tested on, the agreement summaries of both
 * sides with the judges' paired verdicts, and the case lists. The tests come later (`row-tests.ts`), once the whole comparison
 * knows how many rows it tests together.
 */
import type { AgreementSummary, CaseResult, Params, RunResult, Verdict } from '../types/index.ts';
import type { CaseChanges, CaseCount, CaseRef, ReplacedScorer } from '../types/comparison.ts';
import { pairVerdicts, type PairedVerdicts } from './kappa-change.ts';
import { DEFAULT_MIN_DETECTABLE_EFFECT } from './power.ts';
import { caseLabel } from '../shared/case-label.ts';
import { sameUpToNoise } from '../shared/float-noise.ts';
import { sameTagFilter } from '../plan/tag-filter.ts';

/** A score or pass-rate row: the per-case `head − base` changes and the sums behind its means. */
export interface PairedRow {
  /** One entry per case scored on both sides. */
  diffs: Float64Array;
  baseTotal: number;
  headTotal: number;
  /** Cases with a value in BASE and none in HEAD (an error, no score, NaN): lost, not paired. */
  lostInHead?: number;
  /** Cases with a value in HEAD and none in BASE: missing there, not paired (nor a change). */
  lostInBase?: number;
  /**
   * Some paired value, on either side, lies strictly between 0 and 1, so a case can change by
   * less than 1 (see `rowPower`). Absent: every value is 0 or 1, as in a pass/fail row.
   */
  graded?: true;
}

/** An evaluator present in both runs. */
export interface PairedEvaluator extends PairedRow {
  evaluator: string;
  /**
   * Lower scores are better, as HEAD's summary says (BASE's when HEAD's lacks the evaluator).
   * Absent: higher is better.
   */
  lowerIsBetter?: boolean;
  /** BASE's summary has the evaluator the other way up: its threshold's direction changed. */
  directionChanged?: boolean;
}

/** An evaluator whose agreement with the human labels both runs measured. */
export interface PairedAgreement {
  evaluator: string;
  base: AgreementSummary;
  head: AgreementSummary;
  /** The verdicts on the labelled rows of the paired cases; absent: see `pairVerdicts`. */
  verdicts?: PairedVerdicts;
}

/** A run of HEAD with its run of BASE, cases paired, rows ready to test. */
export interface RunPairing {
  suite: string;
  params: Params;
  trials: number;
  /** Times each BASE case ran (its `trials`; 1 for an artifact that recorded no plan). */
  baseTrials: number;
  minDetectableEffect: number;
  passRate: PairedRow & { passToFail: number; failToPass: number };
  evaluators: PairedEvaluator[];
  agreement: PairedAgreement[];
  evaluatorsOnlyInBase: string[];
  evaluatorsOnlyInHead: string[];
  /** Ids in both runs whose scorer changed: listed on both sides above, never compared. */
  evaluatorsReplaced?: ReplacedScorer[];
  cases: CaseChanges;
  /** Present when a side is incomplete: its finished and planned cases in this run. */
  incomplete?: { base?: CaseCount; head?: CaseCount };
  /** Each side's verdict on its own gate, as the runs recorded it (pairings built by hand may omit it). */
  verdicts?: { base: Verdict; head: Verdict };
  /** Every case of both runs ran several trials that all agreed (`RunComparison.trialsAgreed`). */
  trialsAgreed?: true;
}

/** Which sides of one run pairing are incomplete (see `IncompleteSide`). */
export interface IncompleteSides {
  base: boolean;
  head: boolean;
}

/**
 * Whether two cases with one id read the same row. In a suite scoring recorded outputs both
 * carry `inputId`, the row without its output: the output is what changed behaviour looks like
 * there, so only its other fields must agree. An artifact from before `inputId` (or one side
 * without it) falls back to the whole row's `contentId`.
 */
function sameRow(base: CaseResult, head: CaseResult): boolean {
  if (base.inputId !== undefined && head.inputId !== undefined) {
    return base.inputId === head.inputId;
  }
  return base.contentId === head.contentId;
}

/**
 * Pairs a run of HEAD with its run of BASE: cases match by `id` when their `contentId` is also
 * equal (an edited row is `contentChanged`, kept out of the statistics); evaluators found in one
 * run only are listed. Scores errored or missing on either side leave that case out of that
 * evaluator's row only. A case one side lacks is `added` / `removed`, unless that side's run is
 * `incomplete` (cut short, or from a partial merge): then it is `notRunInBase` / `notRunInHead`,
 * since that side most likely never reached it.
 */
export function pairRuns(
  baseRun: RunResult,
  headRun: RunResult,
  incomplete: IncompleteSides = { base: false, head: false },
): RunPairing {
  const baseById = firstById(baseRun.cases);
  const headById = firstById(headRun.cases);

  const paired: [CaseResult, CaseResult][] = [];
  const cases: CaseChanges = {
    newlyFailing: [],
    fixed: [],
    added: [],
    removed: [],
    contentChanged: [],
    flaky: [],
    ...(incomplete.base ? { notRunInBase: [] } : {}),
    ...(incomplete.head ? { notRunInHead: [] } : {}),
  };
  const partners = inputPartners(baseById, headById);
  const partnered = new Set([...partners.values()].map((base) => base.id));
  // Runs narrowed by different `--tag` filters: a row one side's filter left out was not
  // selected there, not added or removed.
  const filtered = !sameTagFilter(baseRun.testset.tagFilter, headRun.testset.tagFilter);
  const unselected = (filter: readonly string[] | undefined, result: CaseResult): boolean =>
    filtered &&
    filter !== undefined &&
    filter.length > 0 &&
    !(result.tags ?? []).some((tag) => filter.includes(tag));
  for (const head of headById.values()) {
    const base = baseById.get(head.id) ?? partners.get(head.id);
    if (base === undefined && unselected(baseRun.testset.tagFilter, head)) {
      (cases.notSelectedInBase ??= []).push(caseRef(head));
    } else if (base === undefined) (cases.notRunInBase ?? cases.added).push(caseRef(head));
    else if (!sameRow(base, head)) cases.contentChanged.push(caseRef(head));
    else {
      paired.push([base, head]);
      if (base.passed && !head.passed) cases.newlyFailing.push(caseRef(head));
      if (!base.passed && head.passed) cases.fixed.push(caseRef(head));
    }
    if (head.flaky === true) {
      cases.flaky.push({ ...caseRef(head), trialPassRate: head.trialPassRate ?? null });
    }
  }
  for (const base of baseById.values()) {
    if (!headById.has(base.id) && !partnered.has(base.id)) {
      const label = caseLabel(base);
      const ref = { ...caseRef(base), ...(label !== null && label !== '' ? { label } : {}) };
      if (unselected(headRun.testset.tagFilter, base)) (cases.notSelectedInHead ??= []).push(ref);
      else (cases.notRunInHead ?? cases.removed).push(ref);
    }
  }

  const baseEvaluators = evaluatorIds(baseRun);
  const headEvaluators = evaluatorIds(headRun);
  const replaced = replacedScorers(baseRun, headRun);
  const replacedIds = new Set(replaced.map((r) => r.evaluator));
  const shared = headEvaluators.filter((id) => baseEvaluators.includes(id) && !replacedIds.has(id));
  const agreement: PairedAgreement[] = [];
  for (const evaluator of shared) {
    const base = baseRun.summary.evaluators[evaluator]?.agreement;
    const head = headRun.summary.evaluators[evaluator]?.agreement;
    if (base === undefined || head === undefined) continue;
    const verdicts = pairVerdicts(
      paired,
      evaluator,
      baseRun.plan?.agreement?.[evaluator],
      headRun.plan?.agreement?.[evaluator],
    );
    agreement.push({ evaluator, base, head, ...(verdicts === undefined ? {} : { verdicts }) });
  }

  return {
    suite: headRun.suite,
    params: headRun.params,
    trials: headRun.plan?.trials ?? 1,
    baseTrials: baseRun.plan?.trials ?? 1,
    minDetectableEffect: headRun.plan?.gate.minDetectableEffect ?? DEFAULT_MIN_DETECTABLE_EFFECT,
    passRate: {
      ...pairedRow(paired, (result) => (result.passed ? 1 : 0)),
      passToFail: cases.newlyFailing.length,
      failToPass: cases.fixed.length,
    },
    evaluators: shared.map((evaluator) => ({
      evaluator,
      ...direction(baseRun, headRun, evaluator),
      ...pairedRow(paired, (result) => scoreOf(result, evaluator)),
    })),
    agreement,
    evaluatorsOnlyInBase: baseEvaluators.filter((id) => !shared.includes(id)),
    evaluatorsOnlyInHead: headEvaluators.filter((id) => !shared.includes(id)),
    ...(replaced.length > 0 ? { evaluatorsReplaced: replaced } : {}),
    cases,
    ...sideCounts(baseRun, headRun, incomplete),
    verdicts: { base: baseRun.verdict, head: headRun.verdict },
    ...(trialsAgreed(baseRun) && trialsAgreed(headRun) ? { trialsAgreed: true as const } : {}),
  };
}

/**
 * The evaluators both runs have by id but score with another scorer (`use:` changed, or `not:`
 * added or dropped), as both plans record it: the scores of another scorer are not a change of
 * behaviour, so such an id is compared with nothing, as a rename is (a pull request that swapped
 * `is-equals` for a scorer that always gives 1 would otherwise show its broken answers
 * `unchanged`). A side that recorded no scorers (an earlier evalgate, `runTestSuite`) says
 * nothing, and the id is compared as before.
 */
function replacedScorers(baseRun: RunResult, headRun: RunResult): ReplacedScorer[] {
  const before = baseRun.plan?.scorers;
  const now = headRun.plan?.scorers;
  if (before === undefined || now === undefined) return [];
  return Object.keys(now).flatMap((evaluator) => {
    const base = before[evaluator];
    const head = now[evaluator];
    return base === undefined || head === undefined || base === head
      ? []
      : [{ evaluator, base, head }];
  });
}

/**
 * Whether every case of `run` ran several trials and none of them disagreed: what says the run
 * answers the same each time. `flaky` is recorded (false) only for a case of several trials, and
 * it is what a case reduced for the comparison keeps (its trial list is dropped). A run with no
 * case says nothing.
 */
function trialsAgreed(run: RunResult): boolean {
  return run.cases.length > 0 && run.cases.every((result) => result.flaky === false);
}

/** The finished and planned cases of each incomplete side's run, when a side is incomplete. */
function sideCounts(
  baseRun: RunResult,
  headRun: RunResult,
  incomplete: IncompleteSides,
): Pick<RunPairing, 'incomplete'> {
  if (!incomplete.base && !incomplete.head) return {};
  const count = (run: RunResult): CaseCount => ({
    cases: run.cases.length,
    planned: plannedCases(run),
  });
  return {
    incomplete: {
      ...(incomplete.base ? { base: count(baseRun) } : {}),
      ...(incomplete.head ? { head: count(headRun) } : {}),
    },
  };
}

/**
 * The cases a run planned: its testset's count after filters, or more should an artifact
 * assembled by hand hold more cases than that.
 */
export function plannedCases(run: Pick<RunResult, 'testset' | 'cases'>): number {
  return Math.max(run.testset.cases, run.cases.length);
}

/**
 * Which way up an evaluator's scores are read: as HEAD's summary says (`lowerIsBetter`, from the
 * evaluator's thresholds), or BASE's when HEAD's summary lacks it (an artifact assembled by hand).
 * A pull request that turned the threshold around is judged by its own new direction, and the
 * change is flagged so the row can say so.
 */
function direction(
  baseRun: RunResult,
  headRun: RunResult,
  evaluator: string,
): { lowerIsBetter: boolean; directionChanged: boolean } {
  const base = baseRun.summary.evaluators[evaluator];
  const head = headRun.summary.evaluators[evaluator];
  const baseLower = base?.lowerIsBetter === true;
  const headLower = head?.lowerIsBetter === true;
  if (head === undefined) return { lowerIsBetter: baseLower, directionChanged: false };
  return {
    lowerIsBetter: headLower,
    directionChanged: base !== undefined && baseLower !== headLower,
  };
}

function isZeroOrOne(value: number): boolean {
  return value === 0 || value === 1;
}

/** The changes of the cases with a value on both sides (pairwise exclusion of the rest). */
function pairedRow(
  paired: readonly [CaseResult, CaseResult][],
  valueOf: (result: CaseResult) => number | null,
): PairedRow {
  const diffs: number[] = [];
  let baseTotal = 0;
  let headTotal = 0;
  let lostInHead = 0;
  let lostInBase = 0;
  let graded = false;
  for (const [base, head] of paired) {
    const before = valueOf(base);
    const after = valueOf(head);
    // A case errored or unscored on either side says nothing about a change, but a score HEAD
    // lost is counted: the row must never hide that its evaluator broke on some cases.
    if (before !== null && after === null) lostInHead++;
    // And one BASE lacks: an evaluator that errored on every case in BASE has nothing to change
    // from, which the row says rather than reading as a change or a bare "too few cases".
    if (before === null && after !== null) lostInBase++;
    if (before === null || after === null) continue;
    // Scores that differ only by floating-point rounding are one score: the mean of three trials
    // of 0.05 is 0.05000000000000001, a distance computed another way is 5.6e-17 instead of 0,
    // and 40 such "changes" all one way would be a significant regression (see float-noise.ts).
    diffs.push(sameUpToNoise(before, after) ? 0 : after - before);
    baseTotal += before;
    headTotal += after;
    graded ||= !isZeroOrOne(before) || !isZeroOrOne(after);
  }
  return {
    diffs: Float64Array.from(diffs),
    baseTotal,
    headTotal,
    lostInHead,
    lostInBase,
    ...(graded ? { graded: true as const } : {}),
  };
}

/** Case ids are unique in a run the engine wrote; should one repeat, its first case counts. */
/**
 * In a recorded-output suite without `hash:`, a case's id is its whole row's, output included,
 * so a changed output gives the case a new id. Such a case (on one side only) is paired with the
 * case of the other side (also on one side only) whose `inputId` is the same, when that `inputId`
 * names one such case on each side: HEAD's id → BASE's case.
 */
function inputPartners(
  baseById: ReadonlyMap<string, CaseResult>,
  headById: ReadonlyMap<string, CaseResult>,
): Map<string, CaseResult> {
  const byInput = (
    from: ReadonlyMap<string, CaseResult>,
    other: ReadonlyMap<string, CaseResult>,
  ): Map<string, CaseResult | null> => {
    const found = new Map<string, CaseResult | null>();
    for (const result of from.values()) {
      if (result.inputId === undefined || other.has(result.id)) continue;
      // null: more than one case has this input, so none can be told to be the other's.
      found.set(result.inputId, found.has(result.inputId) ? null : result);
    }
    return found;
  };
  const partners = new Map<string, CaseResult>();
  const bases = byInput(baseById, headById);
  if (bases.size === 0) return partners;
  for (const [input, head] of byInput(headById, baseById)) {
    const base = bases.get(input);
    if (head !== null && base !== null && base !== undefined) partners.set(head.id, base);
  }
  return partners;
}

function firstById(cases: readonly CaseResult[]): Map<string, CaseResult> {
  const byId = new Map<string, CaseResult>();
  for (const result of cases) if (!byId.has(result.id)) byId.set(result.id, result);
  return byId;
}

function caseRef(result: CaseResult): CaseRef {
  return {
    id: result.id,
    source: result.source === null ? null : { file: result.source.file, line: result.source.line },
  };
}

/**
 * The run's evaluators in configuration order: the summary's, then any that only cases mention
 * (an artifact assembled by hand), so an evaluator is never silently missing from the report.
 */
function evaluatorIds(run: RunResult): string[] {
  const ids = new Set(Object.keys(run.summary.evaluators));
  for (const result of run.cases) {
    for (const evaluation of result.evaluations) ids.add(evaluation.evaluator);
  }
  return [...ids];
}

/** The case's score for an evaluator; `null` when absent, errored or not a finite number. */
function scoreOf(result: CaseResult, evaluator: string): number | null {
  for (const evaluation of result.evaluations) {
    if (evaluation.evaluator !== evaluator) continue;
    if (evaluation.error !== null || evaluation.score === null) return null;
    return Number.isFinite(evaluation.score) ? evaluation.score : null;
  }
  return null;
}
