/**
 * The merge core: pieces of the same runs (the shards of `evals run --shard`, or an interrupted
 * artifact and its resumption) combined into the artifact one uninterrupted, unsharded run
 * would have written. Summaries and gates are recomputed from the combined cases with the same
 * functions the engine uses, never added up, so means and verdicts come out identical.
 *
 * Cases stream through: each input's cases are read one at a time (from an iterable the caller
 * gives, which may read a file as it goes) and handed on with their testset position, so merging
 * holds the runs' summaries and the case ids (to find overlaps), never the cases themselves.
 * Problems come back as messages for the caller to report.
 */
import { describeRun, runKey } from '../shared/run-key.ts';
import { withPinIgnored } from './annotate.ts';
import { buildArtifact } from './artifact.ts';
import { shardsCondition } from './partial-merge.ts';
import { recordedPass, unknownPassProblem, unrecordedPassDifference } from './recorded-pass.ts';
import { shardsBaseline, type RecordedBaseline } from './merge-baseline.ts';
import { recordedDataParts, recordedParts, whyConfigsDiffer } from '../config/config-hash-parts.ts';
import { recordedRunGate } from '../run/gate.ts';
import { planAccumulator } from '../run/summary.ts';
import { canonicalJson } from '../shared/canonical-json.ts';
import type { CaseResult, ResultsArtifact, RunPlan, RunResult } from '../types/index.ts';
import { groupBy } from '../shared/group-by.ts';
import { checkShardTagFilters } from '../plan/tag-filter.ts';
import { scorersWhereAllRecord } from './plan-scorers.ts';

/** A value, or every problem found on the way to it. */
export type Checked<T> = { ok: true; value: T } | { ok: false; problems: string[] };

/** One run as read from one input, with the input's name for messages. */
export interface RunPiece {
  from: string;
  /** The run; its `cases` are not read (they come from `cases`). */
  run: RunResult;
  cases: Iterable<CaseResult>;
  /** Its artifact does not say whether a `pass:` function decided (recorded-pass.ts). */
  unknownPass?: boolean;
}

/**
 * An input artifact, the name (path) messages call it by, and its cases: `artifact.runs[i].cases`
 * are not read; run i's cases come from `cases(i)`, `caseCounts[i]` of them.
 */
export interface NamedArtifact {
  name: string;
  artifact: ResultsArtifact;
  caseCounts: readonly number[];
  cases(run: number): Iterable<CaseResult>;
}

/** Where combined cases go: run `run`'s case at testset position `position`. */
export interface CombinedCases {
  /** Once, before any case: at most how many cases each combined run gets. */
  open(runs: readonly { cases: number }[]): void;
  add(run: number, position: number, testCase: CaseResult): void;
}

/** How many duplicate case ids a message lists before it just counts the rest. */
const LISTED = 3;

/**
 * Combines the pieces of one run (same suite and params). Each case goes to `add` with its place
 * in the testset (`position`; a case without one is a problem), and the run comes back with
 * empty `cases` and its summary and gate recomputed from them; `planned` is how many cases the
 * combined run was meant to have: fewer present adds the engine's failing `complete` condition,
 * as an interrupted run has. Refuses pieces of different testset revisions or plans, and a case
 * present in two pieces (the same work done twice).
 */
export function combineRun(
  pieces: readonly RunPiece[],
  options: {
    planned: number;
    /** Only some of the run's shards are merged: none of its cases there is not an empty run. */
    someShards?: boolean;
    position: (testCase: CaseResult) => number | undefined;
    keepIndex: boolean;
    add: (position: number, testCase: CaseResult) => void;
  },
): Checked<RunResult> {
  const first = pieces[0];
  if (first === undefined) throw new RangeError('combineRun needs at least one piece');
  const name = describeRun(first.run);
  const problems: string[] = [];

  for (const piece of pieces.slice(1)) {
    if (piece.run.testset.revision !== first.run.testset.revision) {
      problems.push(
        `${name}: the testset revision differs: ${first.from} has ${first.run.testset.revision}, ${piece.from} has ${piece.run.testset.revision} (the testset changed between the runs; run them again on the same testset)`,
      );
    }
  }

  const plans = scorersWhereAllRecord(pieces.map((p) => p.run.plan));
  const plan = plans[0];
  const unplanned = pieces.filter((p) => p.run.plan === undefined).map((p) => p.from);
  if (plan === undefined || unplanned.length > 0) {
    problems.push(
      `${name}: ${unplanned.join(', ')} has no run plan (written by an older evalgate); run it again with this version`,
    );
  } else {
    const unrecorded = unrecordedPassDifference(pieces);
    if (unrecorded !== undefined) problems.push(`${name}: ${unrecorded}`);
    for (const [i, other] of unrecorded === undefined ? plans.entries() : []) {
      if (other !== undefined && canonicalJson(other) !== canonicalJson(plan)) {
        problems.push(
          `${name}: ${pieces[i]?.from} ran with other settings than ${first.from} (${describePlanDifference(plan, other)}); run every part with the same config and --trials`,
        );
      }
    }
  }
  if (problems.length > 0 || plan === undefined) return { ok: false, problems };

  // One pass over every case: overlaps and missing positions are found, the summary folded and
  // the cases handed on as they come (the caller drops them all if a problem turns up).
  const summary = planAccumulator(plan);
  const seen = new Map<string, string>();
  const duplicates: string[] = [];
  const unplaced = new Set<string>();
  for (const piece of pieces) {
    for (const testCase of piece.cases) {
      const earlier = seen.get(testCase.id);
      if (earlier !== undefined) {
        duplicates.push(`${testCase.id} (in ${earlier} and ${piece.from})`);
        continue;
      }
      seen.set(testCase.id, piece.from);
      const position = options.position(testCase);
      if (position === undefined) {
        unplaced.add(piece.from);
        continue;
      }
      summary.add(testCase);
      options.add(position, options.keepIndex ? testCase : withoutIndex(testCase));
    }
  }
  if (unplaced.size > 0) {
    problems.push(
      `${name}: ${[...unplaced].join(', ')} has cases without their testset position (index); write the shards with this evalgate`,
    );
  }
  if (duplicates.length > 0) {
    const more = duplicates.length > LISTED ? ` and ${duplicates.length - LISTED} more` : '';
    problems.push(
      `${name}: the inputs overlap: ${duplicates.length} case(s) appear twice: ${duplicates.slice(0, LISTED).join(', ')}${more}`,
    );
  }
  if (problems.length > 0) return { ok: false, problems };
  const totals = summary.summary();
  const gate = recordedRunGate(totals, plan, options.planned, options.someShards === true);
  return {
    ok: true,
    value: {
      suite: first.run.suite,
      params: first.run.params,
      testset: mergedTestset(first.run.testset, options.planned),
      verdict: gate.verdict,
      gate: { conditions: gate.conditions },
      summary: totals,
      plan,
      cases: [],
    },
  };
}

/** The combined run's testset; a shard's `tagFilter: []` (no `--tag`) is not in an unsharded run. */
function mergedTestset(testset: RunResult['testset'], cases: number): RunResult['testset'] {
  const { tagFilter, cases: _cases, ...rest } = testset;
  return { ...rest, ...(tagFilter?.length ? { tagFilter } : {}), cases };
}

function withoutIndex(testCase: CaseResult): CaseResult {
  if (testCase.index === undefined) return testCase;
  const { index: _index, ...rest } = testCase;
  return rest;
}

function describePlanDifference(a: RunPlan, b: RunPlan): string {
  if (a.trials !== b.trials) return `trials ${a.trials} vs ${b.trials}`;
  if (canonicalJson(a.evaluators) !== canonicalJson(b.evaluators)) {
    return `evaluators ${a.evaluators.join(', ')} vs ${b.evaluators.join(', ')}`;
  }
  // Absent: all or any, or a shard of an evalgate that did not record it (recorded-pass.ts).
  if (a.pass !== b.pass) return `pass: ${a.pass ?? 'unrecorded'} vs ${b.pass ?? 'unrecorded'}`;
  if (canonicalJson(a.scorers ?? null) !== canonicalJson(b.scorers ?? null))
    return 'evaluators scored by other scorers';
  return 'different gate rules';
}

/** What merging shard artifacts produced: the artifact, and what the caller should tell. */
export interface MergedShards {
  /** The merged artifact; its runs' cases went to the {@link CombinedCases} given. */
  artifact: ResultsArtifact;
  /** Shard count n, and the indices present. */
  count: number;
  present: number[];
  /** Indices of 1..n with no input (only with `allowPartial`). */
  missing: number[];
  /** Inputs that were interrupted (only with `allowPartial`). */
  interrupted: string[];
  /** Things worth a warning that do not stop the merge. */
  warnings: string[];
  /**
   * The baseline every shard was compared with (`--baseline`), which the merged run is compared
   * with again over all its cases; `undefined` when none was (or, with `baselineGiven`, when
   * the shards do not agree on one).
   */
  baseline: RecordedBaseline | undefined;
}

/**
 * Merges the artifacts of `evals run --shard i/n` (i = 1..n) into the unsharded run's artifact.
 * Refuses, listing every reason: different configs, unsharded inputs, mixed shard counts, a
 * shard given twice, different `--tag` filters, runs present in some shards only, different
 * testset revisions, a case in two inputs; unless `baselineGiven` (`evals merge --baseline`),
 * shards compared with different baselines, or some with one and some without; and, unless
 * `allowPartial`, missing shards or interrupted inputs (the result is then marked `interrupted`,
 * so it cannot pass, and with shards missing each run fails a `shards` condition naming the
 * shards merged, which the artifact's `partialMerge` records as data). The comparison itself is
 * the caller's to make again, over the merged cases.
 */
export function mergeShards(
  inputs: readonly NamedArtifact[],
  options: { allowPartial: boolean; toolVersion: string; baselineGiven?: boolean },
  output: CombinedCases,
): Checked<MergedShards> {
  const first = inputs[0];
  if (first === undefined) return { ok: false, problems: ['no results files to merge'] };
  const problems: string[] = [];

  const hashes = groupBy(inputs, (i) => i.artifact.configHash);
  if (hashes.size > 1) {
    const listed = [...hashes].map(([hash, named]) => `${names(named)} ran ${hash}`).join('; ');
    const why = whyConfigsDiffer([...hashes.values()].map((named) => named[0]!));
    problems.push(
      `the inputs ran different configs (configHash): ${listed}. ${why}. Merge only shards of one run of the same evals.yaml and code`,
    );
  }

  const unsharded = inputs.filter((i) => i.artifact.shard === undefined);
  const sharded = inputs.filter((i) => i.artifact.shard !== undefined);
  if (unsharded.length > 0) {
    problems.push(
      sharded.length > 0
        ? `${names(unsharded)} ${unsharded.length > 1 ? 'are' : 'is'} not a shard (written without --shard) and cannot be merged with the shards ${names(sharded)}`
        : `${names(unsharded)} ${unsharded.length > 1 ? 'are' : 'is'} not a shard artifact (written without --shard); evals merge combines the artifacts of evals run --shard INDEX/COUNT`,
    );
  }

  const counts = groupBy(sharded, (i) => String(i.artifact.shard?.count));
  if (counts.size > 1) {
    const listed = [...counts].map(([n, named]) => `${names(named)} of ${n}`).join('; ');
    problems.push(`the shards split the run differently (mixed shard counts): ${listed}`);
  }
  const count = sharded[0]?.artifact.shard?.count ?? 0;

  const byIndex = groupBy(sharded, (i) => String(i.artifact.shard?.index));
  for (const [index, named] of byIndex) {
    if (named.length > 1) {
      problems.push(`shard ${index}/${count} is given ${named.length} times: ${names(named)}`);
    }
  }
  const present = [...byIndex.keys()].map(Number).sort((a, b) => a - b);
  const missing: number[] = [];
  for (let i = 1; i <= count; i++) if (!byIndex.has(String(i))) missing.push(i);
  if (missing.length > 0 && counts.size === 1 && !options.allowPartial) {
    problems.push(
      `incomplete: shard${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of ${count} ${missing.length > 1 ? 'are' : 'is'} missing (pass --allow-partial to merge the ${present.length} present; the result is then marked interrupted and fails)`,
    );
  }

  const interrupted = inputs.filter((i) => i.artifact.interrupted).map((i) => i.name);
  if (interrupted.length > 0 && !options.allowPartial) {
    problems.push(
      `${interrupted.join(', ')} ${interrupted.length > 1 ? 'were' : 'was'} interrupted (interrupted: true): finish ${interrupted.length > 1 ? 'them' : 'it'} with evals run --resume FILE, or pass --allow-partial`,
    );
  }
  const tagFilters = (i: NamedArtifact) => i.artifact.runs.map((r) => r.testset.tagFilter);
  const tags = checkShardTagFilters(
    sharded.map((i) => ({ name: i.name, tagFilters: tagFilters(i) })),
  );
  problems.push(...tags.problems);
  // Shard order, so run order and every tie is the same whatever order the files were given in.
  const ordered = [...inputs].sort(
    (a, b) => (a.artifact.shard?.index ?? 0) - (b.artifact.shard?.index ?? 0),
  );
  // The shards' comparisons, each over its own cases, are not merged: the merged run is compared
  // again, as a whole, with the baseline they share.
  const baseline = shardsBaseline(ordered);
  if (!baseline.ok && options.baselineGiven !== true) problems.push(...baseline.problems);
  if (problems.length > 0) return { ok: false, problems };

  const pieces = new Map<string, (RunPiece & { count: number; unknownPass: boolean })[]>();
  for (const input of ordered) {
    for (const [r, run] of input.artifact.runs.entries()) {
      const key = runKey(run);
      const list = pieces.get(key) ?? [];
      const cases = { [Symbol.iterator]: () => input.cases(r)[Symbol.iterator]() };
      // A shard of an older evalgate may not say whether a pass: function decided, nor its config.
      const unknownPass = recordedPass(run, input.artifact) === 'unknown';
      list.push({ from: input.name, run, cases, count: input.caseCounts[r] ?? 0, unknownPass });
      pieces.set(key, list);
    }
  }

  const lists = [...pieces.values()];
  for (const list of lists) {
    const from = new Set(list.map((p) => p.from));
    const absent = ordered.filter((i) => !from.has(i.name)).map((i) => i.name);
    if (absent.length > 0) {
      problems.push(
        `${describeRun(list[0]!.run)} is in ${[...from].join(', ')} but not in ${absent.join(', ')}: every shard must run the same suites and grid points (the same --suite and --grid)`,
      );
    }
  }
  if (problems.length > 0) return { ok: false, problems };

  output.open(lists.map((list) => ({ cases: list.reduce((sum, p) => sum + p.count, 0) })));
  const runs: RunResult[] = [];
  for (const [r, list] of lists.entries()) {
    const combined = combineRun(list, {
      planned: list.reduce((sum, p) => sum + p.run.testset.cases, 0),
      someShards: missing.length > 0,
      position: (c) => c.index,
      keepIndex: false,
      add: (position, c) => output.add(r, position, c),
    });
    const unknownPass = list.filter((p) => p.unknownPass).map((p) => p.from);
    // Whole and finished, its verdict is the gate's, which that unknown may decide.
    const hinges = combined.ok && missing.length === 0 && interrupted.length === 0;
    const unknown = hinges ? unknownPassProblem(combined.value, unknownPass) : undefined;
    if (!combined.ok) problems.push(...combined.problems);
    else if (unknown !== undefined) problems.push(unknown);
    else if (missing.length === 0) runs.push(combined.value);
    else {
      // Every run lacks the missing shards' cases, which its planned count does not include:
      // the run says so itself, and fails, so no reader takes it for a whole run.
      const { conditions } = combined.value.gate;
      runs.push({
        ...combined.value,
        verdict: 'fail',
        gate: { conditions: [...conditions, shardsCondition(count, present)] },
      });
    }
  }
  if (problems.length > 0) return { ok: false, problems };

  const warnings: string[] = [...tags.warnings];
  const commits = groupBy(ordered, (i) => i.artifact.git?.sha ?? 'unknown');
  if (commits.size > 1) {
    const listed = [...commits].map(([sha, named]) => `${names(named)} at ${sha}`).join('; ');
    warnings.push(`the shards ran on different commits (${listed}); the merge records the first`);
  }

  // The merged run spans from the first shard's start to the last shard's end.
  const starts = ordered.map((i) => Date.parse(i.artifact.startedAt));
  const ends = ordered.map((i) => Date.parse(i.artifact.startedAt) + i.artifact.durationMs);
  const startedAt = Math.min(...starts);
  const partial = missing.length > 0 || interrupted.length > 0;
  const head = ordered[0]!.artifact;
  const artifact = buildArtifact({
    toolVersion: options.toolVersion,
    config: head.config,
    configHash: head.configHash,
    parts: recordedParts(head.configHash, head.configHashParts),
    dataParts: recordedDataParts(head),
    git: head.git,
    startedAt: new Date(startedAt),
    durationMs: Math.max(0, Math.max(...ends) - startedAt),
    interrupted: partial,
    runs,
    removedSuites: head.removedSuites,
  });
  // One shard that ran past its pin makes the whole not comparable to runs at the pin.
  const pinIgnored = ordered.some((i) => i.artifact.pinIgnored === true);
  return {
    ok: true,
    value: {
      artifact: {
        ...withPinIgnored(artifact, pinIgnored),
        ...(missing.length > 0 ? { partialMerge: { count, merged: present } } : {}),
      },
      count,
      present,
      missing,
      interrupted,
      warnings,
      baseline: baseline.ok ? baseline.value : undefined,
    },
  };
}

function names(inputs: readonly NamedArtifact[]): string {
  return inputs.map((i) => i.name).join(', ');
}
