/**
 * Whether two artifacts can be compared at all: both results artifacts of this schema version,
 * with a case in common. Problems are collected and thrown as one `UsageError` (exit code 2).
 */
import { UsageError, usageError, type Issue } from '../shared/errors.ts';
import { printable } from '../shared/text-table.ts';
import {
  ARTIFACT_SCHEMA_VERSION,
  artifactProblems,
  listProblems,
  problemText,
  schemaVersionProblem,
  type FoundProblems,
} from '../artifact/schema.ts';
import type { ResultsArtifact, RunResult } from '../types/index.ts';
import { matchRuns } from './match-runs.ts';

/**
 * Checks that two parsed JSON values can be compared, and returns them typed. Collects every
 * problem before throwing one `UsageError` (exit code 2): a value that is not a results artifact,
 * one of another `schemaVersion`, and two artifacts with no case in common. `names` are how the
 * user named the inputs (file paths), used in the messages. `placed`: a side's schema problems
 * as its reader placed them in the file (`placedProblems`: the same, with lines and columns).
 */
export function validateComparable(
  base: unknown,
  head: unknown,
  names: { base: string; head: string },
  placed: { base?: FoundProblems<string>; head?: FoundProblems<string> } = {},
): { base: ResultsArtifact; head: ResultsArtifact } {
  const issues = [
    ...artifactIssues(base, names.base, placed.base),
    ...artifactIssues(head, names.head, placed.head),
  ];
  if (issues.length > 0) throw new UsageError(issues);

  const valid = { base: base as ResultsArtifact, head: head as ResultsArtifact };
  requireCommonCases(valid.base, valid.head, names);
  return valid;
}

/**
 * Throws a `UsageError` when no run of `head` shares a case id with the matching run of `base`:
 * such a comparison would be empty. Matching runs that have no case on either side compare. The part of {@link validateComparable} for artifacts already
 * known to be valid (a run and the baseline it read case by case). `partial`: `head` is a run
 * cut short, which may not have reached a common case yet, or a shard, whose cases may all be
 * new; a run of `base` matching one of its runs is enough, so that its comparison records the
 * baseline for `--resume` and `evals merge`.
 */
export function requireCommonCases(
  base: ResultsArtifact,
  head: ResultsArtifact,
  names: { base: string; head: string },
  partial = false,
): void {
  const { pairs } = matchRuns(base.runs, head.runs);
  // Matching runs that are all empty on both sides (a suite with `allowEmpty: true`, a filter
  // that selected nothing) are not the wrong pair of files: they compare, with nothing compared.
  const empty =
    pairs.length > 0 &&
    pairs.every(([baseRun, headRun]) => baseRun.cases.length === 0 && headRun.cases.length === 0);
  const shared =
    partial || empty
      ? pairs.length > 0
      : pairs.some(([baseRun, headRun]) => {
          const ids = new Set(baseRun.cases.map((result) => result.id));
          return headRun.cases.some((result) => ids.has(result.id));
        });
  if (!shared) {
    const why =
      pairs.length === 0
        ? `no suite and grid point of ${names.head} (${describeRuns(head.runs)}) is in ${names.base} (${describeRuns(base.runs)})`
        : `${pairs.length === 1 ? 'the matching run shares' : `the ${pairs.length} matching runs share`} no case id${shardsApart(base, head, names)}`;
    const message = `no common cases between ${names.base} and ${names.head}: the runs match by suite and params, cases by id; ${why}`;
    throw usageError('compare.no-common-cases', message);
  }
}

/**
 * What {@link requireCommonCases} would throw, returned instead (`undefined` when the two share
 * a case), for a caller that may find the lack explained: a suite renamed that the gate blocks on.
 */
export function commonCasesProblem(
  ...args: Parameters<typeof requireCommonCases>
): UsageError | undefined {
  try {
    requireCommonCases(...args);
    return undefined;
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
}

/** ` (base.json is shard 1 of 3, head.json shard 2 of 3: …)` when the sides are shards; else ''. */
function shardsApart(
  base: ResultsArtifact,
  head: ResultsArtifact,
  names: { base: string; head: string },
): string {
  if (base.shard === undefined && head.shard === undefined) return '';
  const side = (artifact: ResultsArtifact): string =>
    artifact.shard === undefined
      ? 'a whole run'
      : `shard ${artifact.shard.index} of ${artifact.shard.count}`;
  return ` (${names.base} is ${side(base)}, ${names.head} ${side(head)}: different shards hold different rows; compare merged runs, or the same shard of each)`;
}

function artifactIssues(value: unknown, file: string, placed?: FoundProblems<string>): Issue[] {
  const found = placed ?? texts(artifactProblems(value, 'ignore'));
  if (found.problems.length === 0) return [];
  const record =
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  const version = record?.schemaVersion;
  const versionProblem = schemaVersionProblem(version);
  if (versionProblem !== null) {
    return [issue('compare.schema-version', file, `results of another schema: ${versionProblem}`)];
  }
  // Something else entirely (a config, package.json, an array): say what was expected rather
  // than list every missing property.
  if (record === null || (version === undefined && !('runs' in record))) {
    return [
      issue(
        'compare.not-results',
        file,
        `not an evalgate results artifact: expected the JSON object \`evals run -o FILE\` writes (schemaVersion ${ARTIFACT_SCHEMA_VERSION}, runs, …), found ${describeKind(value)}`,
      ),
    ];
  }
  const listed = listProblems(found);
  return [issue('compare.invalid-results', file, `not a valid results artifact: ${listed}`)];
}

/** `found`'s problems as lines, as `validateArtifact` gives them. */
function texts(found: ReturnType<typeof artifactProblems>): FoundProblems<string> {
  return { problems: found.problems.map(problemText), all: found.all };
}

function describeKind(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value !== 'object') return `a ${typeof value}`;
  const keys = Object.keys(value).slice(0, 5);
  return keys.length === 0
    ? 'an empty object'
    : `an object with ${keys.map((key) => JSON.stringify(key)).join(', ')}${Object.keys(value).length > keys.length ? ', …' : ''}`;
}

function issue(code: string, file: string, message: string): Issue {
  return { code, file, line: 0, col: 0, path: '', message };
}

/** `qa · model=small, capitals` — at most a few, for the no-common-runs message. */
function describeRuns(runs: readonly RunResult[]): string {
  if (runs.length === 0) return 'no runs';
  const shown = runs.slice(0, 3).map((run) => {
    const params = Object.entries(run.params)
      .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
      .join(' ');
    // The user's text: a newline or an escape in a grid value must not act on the terminal.
    return printable(params ? `${run.suite} · ${params}` : run.suite);
  });
  return `${shown.join(', ')}${runs.length > shown.length ? `, … ${runs.length - shown.length} more` : ''}`;
}
