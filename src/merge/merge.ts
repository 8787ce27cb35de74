/**
 * The merge core: pieces of the same runs (the shards of `evals run --shard`, or an interrupted
 * artifact and its resumption) combined into the artifact one uninterrupted, unsharded run
 * would have written. Summaries and gates are recomputed from the combined cases with the same
 * functions the engine uses, never added up, so means and verdicts come out identical.
 *
 * Pure: inputs are parsed artifacts, problems come back as messages for the caller to report.
 */
import { runKey } from '../compare/run-key.ts';
import { buildArtifact } from '../report/artifact.ts';
import { evaluateRunGate, summarizeRun } from '../run/summary.ts';
import { canonicalJson } from '../testsets/identity.ts';
import type { CaseResult, ResultsArtifact, RunPlan, RunResult } from '../types.ts';

/** A value, or every problem found on the way to it. */
export type Checked<T> = { ok: true; value: T } | { ok: false; problems: string[] };

/** One run as read from one input, with the input's name for messages. */
export interface RunPiece {
  from: string;
  run: RunResult;
}

/** An input artifact and the name (path) messages call it by. */
export interface NamedArtifact {
  name: string;
  artifact: ResultsArtifact;
}

/** How many duplicate case ids a message lists before it just counts the rest. */
const LISTED = 3;

/** `suite` or `suite {"model":"large"}`, as messages name a run. */
export function describeRun(run: { suite: string; params: object }): string {
  return Object.keys(run.params).length === 0
    ? `suite ${run.suite}`
    : `suite ${run.suite} ${JSON.stringify(run.params)}`;
}

/**
 * Combines the pieces of one run (same suite and params). `position` gives a case's place in
 * the testset (cases come out sorted by it, as the engine writes them); `planned` is how many
 * cases the combined run was meant to have: fewer present adds the engine's failing
 * `complete` condition, as an interrupted run has. Refuses pieces of different testset
 * revisions or plans, and a case present in two pieces (the same work done twice).
 */
export function combineRun(
  pieces: readonly RunPiece[],
  options: { planned: number; position: (testCase: CaseResult) => number; keepIndex: boolean },
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

  const plans = pieces.map((p) => p.run.plan);
  const plan = plans[0];
  const unplanned = pieces.filter((p) => p.run.plan === undefined).map((p) => p.from);
  if (plan === undefined || unplanned.length > 0) {
    problems.push(
      `${name}: ${unplanned.join(', ')} has no run plan (written by an older evalgate); run it again with this version`,
    );
  } else {
    for (const [i, other] of plans.entries()) {
      if (other !== undefined && canonicalJson(other) !== canonicalJson(plan)) {
        problems.push(
          `${name}: ${pieces[i]?.from} ran with other settings than ${first.from} (${describePlanDifference(plan, other)}); run every part with the same config and --trials`,
        );
      }
    }
  }

  const seen = new Map<string, string>();
  const duplicates: string[] = [];
  for (const piece of pieces) {
    for (const testCase of piece.run.cases) {
      const earlier = seen.get(testCase.id);
      if (earlier !== undefined) {
        duplicates.push(`${testCase.id} (in ${earlier} and ${piece.from})`);
      } else seen.set(testCase.id, piece.from);
    }
  }
  if (duplicates.length > 0) {
    const more = duplicates.length > LISTED ? ` and ${duplicates.length - LISTED} more` : '';
    problems.push(
      `${name}: the inputs overlap: ${duplicates.length} case(s) appear twice: ${duplicates.slice(0, LISTED).join(', ')}${more}`,
    );
  }

  if (problems.length > 0 || plan === undefined) return { ok: false, problems };

  // Sorting by a precomputed key: `position` may be a map look-up, done once per case.
  const keyed = pieces.flatMap((p) => p.run.cases.map((c) => ({ c, at: options.position(c) })));
  keyed.sort((a, b) => a.at - b.at);
  const cases = keyed.map(({ c }) => (options.keepIndex ? c : withoutIndex(c)));
  return { ok: true, value: recomputeRun(first.run, plan, cases, options.planned) };
}

/**
 * The run with `cases`, its summary and gate recomputed from them. A run with fewer cases than
 * `planned` gets the same failing `complete` condition the engine gives an interrupted run.
 */
export function recomputeRun(
  template: RunResult,
  plan: RunPlan,
  cases: CaseResult[],
  planned: number,
): RunResult {
  const summary = summarizeRun(cases, plan.evaluators, { trials: plan.trials });
  const gate = evaluateRunGate(summary, plan.gate, planned);
  return {
    suite: template.suite,
    params: template.params,
    testset: { ...template.testset, cases: planned },
    verdict: gate.verdict,
    gate: { conditions: gate.conditions },
    summary,
    plan,
    cases,
  };
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
  return 'different gate rules';
}

/** What merging shard artifacts produced: the artifact, and what the caller should tell. */
export interface MergedShards {
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
}

/**
 * Merges the artifacts of `evals run --shard i/n` (i = 1..n) into the unsharded run's artifact.
 * Refuses, listing every reason: different configs, unsharded inputs, mixed shard counts, a
 * shard given twice, runs present in some shards only, different testset revisions, a case in
 * two inputs; and, unless `allowPartial`, missing shards or interrupted inputs (the result is
 * then marked `interrupted`, so it cannot pass).
 */
export function mergeShards(
  inputs: readonly NamedArtifact[],
  options: { allowPartial: boolean; toolVersion: string },
): Checked<MergedShards> {
  const first = inputs[0];
  if (first === undefined) return { ok: false, problems: ['no results files to merge'] };
  const problems: string[] = [];

  const hashes = groupBy(inputs, (i) => i.artifact.configHash);
  if (hashes.size > 1) {
    const listed = [...hashes].map(([hash, named]) => `${names(named)} ran ${hash}`).join('; ');
    problems.push(
      `the inputs ran different configs (configHash): ${listed}. Merge only shards of one run of the same evals.yaml`,
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
  if (problems.length > 0) return { ok: false, problems };

  // Shard order, so run order and every tie is the same whatever order the files were given in.
  const ordered = [...inputs].sort(
    (a, b) => (a.artifact.shard?.index ?? 0) - (b.artifact.shard?.index ?? 0),
  );
  const pieces = new Map<string, RunPiece[]>();
  for (const input of ordered) {
    for (const run of input.artifact.runs) {
      const key = runKey(run);
      const list = pieces.get(key) ?? [];
      list.push({ from: input.name, run });
      pieces.set(key, list);
    }
  }

  const runs: RunResult[] = [];
  for (const list of pieces.values()) {
    const from = new Set(list.map((p) => p.from));
    const absent = ordered.filter((i) => !from.has(i.name)).map((i) => i.name);
    const head = list[0]!;
    if (absent.length > 0) {
      problems.push(
        `${describeRun(head.run)} is in ${[...from].join(', ')} but not in ${absent.join(', ')}: every shard must run the same suites and grid points (the same --suite and --grid)`,
      );
      continue;
    }
    const unplaced = list.filter((p) => p.run.cases.some((c) => c.index === undefined));
    if (unplaced.length > 0) {
      problems.push(
        `${describeRun(head.run)}: ${unplaced.map((p) => p.from).join(', ')} has cases without their testset position (index); write the shards with this evalgate`,
      );
      continue;
    }
    const combined = combineRun(list, {
      planned: list.reduce((sum, p) => sum + p.run.testset.cases, 0),
      position: (c) => c.index ?? 0,
      keepIndex: false,
    });
    if (combined.ok) runs.push(combined.value);
    else problems.push(...combined.problems);
  }
  if (problems.length > 0) return { ok: false, problems };

  const warnings: string[] = [];
  const commits = groupBy(ordered, (i) => i.artifact.git?.sha ?? 'unknown');
  if (commits.size > 1) {
    const listed = [...commits].map(([sha, named]) => `${names(named)} at ${sha}`).join('; ');
    warnings.push(`the shards ran on different commits (${listed}); the merge records the first`);
  }
  const compared = ordered.filter((i) => i.artifact.comparison !== undefined);
  if (compared.length > 0) {
    warnings.push(
      `the baseline comparisons of ${names(compared)} are per shard and are not merged; compare the merged file instead (evals compare BASE merged.json)`,
    );
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
    git: head.git,
    startedAt: new Date(startedAt),
    durationMs: Math.max(0, Math.max(...ends) - startedAt),
    interrupted: partial,
    runs,
  });
  return {
    ok: true,
    value: { artifact, count, present, missing, interrupted, warnings },
  };
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k) ?? [];
    list.push(item);
    groups.set(k, list);
  }
  return groups;
}

function names(inputs: readonly NamedArtifact[]): string {
  return inputs.map((i) => i.name).join(', ');
}
