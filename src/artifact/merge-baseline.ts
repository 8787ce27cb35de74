/**
 * The baseline a run was compared with, as its artifact records it: the embedded comparison's
 * `base` says which run that was (config, commit, start), and `base.path` the file `--baseline`
 * named. A run's baseline is part of the run, so `evals run --resume` and `evals merge` find it
 * here to compare the finished whole again and apply `regressions: block` as one run would.
 * Pure: reading the file is the caller's.
 */
import type { ArtifactInfo, Comparison } from '../types/comparison.ts';
import type { ResultsArtifact } from '../types/index.ts';
import { groupBy } from '../shared/group-by.ts';

/** The run a baseline artifact holds, as a comparison names it. */
export type BaselineIdentity = Pick<ArtifactInfo, 'config' | 'git' | 'startedAt'>;

/** The baseline an artifact records. */
export interface RecordedBaseline {
  /** The file as `--baseline` named it (from where that command ran); absent in artifacts written before it was recorded. */
  path?: string;
  identity: BaselineIdentity;
}

/** `comparison` with the file its base was read from recorded (`base.path`, after the rest). */
export function withBaselinePath(comparison: Comparison, path: string): Comparison {
  const base: ArtifactInfo & { path: string } = { ...comparison.base, path };
  return { ...comparison, base };
}

/**
 * The baseline `artifact` was compared with: its comparison's `base`, or, for a partial
 * recovered from a killed run's journal (which holds no comparison), the `baseline` it records;
 * `undefined` when it records neither.
 */
export function recordedBaseline(
  artifact: Pick<ResultsArtifact, 'comparison' | 'baseline'>,
): RecordedBaseline | undefined {
  // Read as data: the schema leaves `comparison` open, so its fields are checked here.
  const base: unknown = artifact.comparison?.base ?? artifact.baseline;
  if (typeof base !== 'object' || base === null) return undefined;
  const { config, git, startedAt, path } = base as Record<string, unknown>;
  const identity: BaselineIdentity = {
    config: typeof config === 'string' ? config : '',
    git: isGit(git) ? { sha: git.sha, ref: git.ref } : null,
    startedAt: typeof startedAt === 'string' ? startedAt : '',
  };
  return typeof path === 'string' && path !== '' ? { path, identity } : { identity };
}

function isGit(value: unknown): value is { sha: string | null; ref: string | null } {
  if (typeof value !== 'object' || value === null) return false;
  const { sha, ref } = value as Record<string, unknown>;
  return (typeof sha === 'string' || sha === null) && (typeof ref === 'string' || ref === null);
}

/** Whether `artifact` is the run `identity` names (the same config, commit and start). */
export function isBaseline(artifact: BaselineIdentity, identity: BaselineIdentity): boolean {
  return identityKey(artifact) === identityKey(identity);
}

/** `base.json (a run of evals.yaml started 2026-01-02T03:04:05.000Z at 3f9a1c2)`. */
export function describeBaseline(recorded: RecordedBaseline): string {
  const { config, git, startedAt } = recorded.identity;
  const at = git?.sha ? ` at ${git.sha.slice(0, 7)}` : '';
  const run = `a run of ${config} started ${startedAt}${at}`;
  return recorded.path === undefined ? run : `${recorded.path} (${run})`;
}

function identityKey(identity: BaselineIdentity): string {
  const git = identity.git === null ? null : [identity.git.sha, identity.git.ref];
  return JSON.stringify([identity.config, identity.startedAt, git]);
}

/** A merge input as the baseline check needs it. */
interface Shard {
  name: string;
  artifact: Pick<ResultsArtifact, 'comparison' | 'baseline'>;
}

/**
 * The one baseline the shards were compared with (`undefined` when none was), or why there is
 * none: some shards compared and others not, or with different baselines. The path is the first
 * shard's that records one (the same run may sit at another path on each machine).
 */
export function shardsBaseline(
  shards: readonly Shard[],
): { ok: true; value: RecordedBaseline | undefined } | { ok: false; problems: string[] } {
  const recorded = shards.map((shard) => ({ shard, baseline: recordedBaseline(shard.artifact) }));
  const compared = recorded.filter((r) => r.baseline !== undefined);
  if (compared.length === 0) return { ok: true, value: undefined };
  const how =
    'run every shard with the same --baseline, or pass evals merge --baseline FILE to compare the merged run with FILE';
  const names = (list: readonly { shard: Shard }[]) => list.map((r) => r.shard.name).join(', ');
  const problems: string[] = [];
  const uncompared = recorded.filter((r) => r.baseline === undefined);
  const byRun = groupBy(compared, (r) => identityKey(r.baseline!.identity));
  if (byRun.size > 1) {
    const listed = [...byRun.values()]
      .map((list) => `${names(list)} with ${describeBaseline(list[0]!.baseline!)}`)
      .join('; ');
    problems.push(`the shards were compared with different baselines: ${listed}; ${how}`);
  }
  if (uncompared.length > 0) {
    const which = byRun.size > 1 ? 'a baseline' : describeBaseline(compared[0]!.baseline!);
    problems.push(
      `${names(compared)} ${compared.length > 1 ? 'were' : 'was'} compared with ${which} (--baseline), but ${names(uncompared)} ${uncompared.length > 1 ? 'hold' : 'holds'} no comparison (run without --baseline, or with a baseline none of whose suites and grid points it ran): the merged run cannot apply the regression gate as one run would; ${how}`,
    );
  }
  if (problems.length > 0) return { ok: false, problems };
  const withPath = compared.find((r) => r.baseline!.path !== undefined);
  return { ok: true, value: (withPath ?? compared[0]!).baseline };
}
