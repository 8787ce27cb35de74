/**
 * What this run is compared with: a results file (`baseline: path`), or for `baseline: auto`
 * the newest results artifact uploaded from the pull request's base branch (a merge queue's
 * target branch), downloaded; in `mode: report`, what an earlier job's results are compared
 * with (a file only). No baseline is not an error: the run (or report) goes on without a
 * comparison, and says why.
 */
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as core from '@actions/core';
import * as github from '@actions/github';
import { openArtifactFile, readArtifact, readReducedArtifact } from '../artifact/read.ts';
import { createScrubber, secretsInEnv } from '../shared/secrets.ts';
import { ARTIFACT_SCHEMA_VERSION } from '../artifact/schema.ts';
import { comparableCases } from '../compare/comparable.ts';
import { downloadBaseline } from '../github/baseline-download.ts';
import {
  BASELINE_EVENTS,
  MAX_RUN_LOOKUPS,
  NOT_LOOKED_UP,
  UNKNOWN_RUN,
  findBaselineArtifact,
  type BaselineArtifact,
  type SearchExtent,
} from '../github/baseline.ts';
import type { Octokit } from '../github/octokit.ts';
import type { RetryBudget } from '../github/retry-budget.ts';
import type { CommandContext } from '../pipeline/context.ts';
import { UsageError } from '../shared/errors.ts';
import type { ChatOpsPullRequest } from './chatops.ts';
import { eventSubject } from './event.ts';
import type { EvalResults } from './run-evals.ts';
import type { ActionSettings } from './settings.ts';

/**
 * What a run is compared with: a results file and how the reports name it, or no file and why
 * (`missing`, for the reports: `null` when no comparison was asked for here, or the event has no
 * base branch for `baseline: auto`).
 */
export type ResolvedBaseline =
  { file: string; shown: string } | { file: null; missing: string | null };

/** No baseline, and no comparison to speak of. */
export const NO_BASELINE: ResolvedBaseline = { file: null, missing: null };

/**
 * The baseline results file for this run: the `baseline` path, or for `auto` the newest results
 * artifact uploaded from the pull request's base branch, downloaded to a temporary file; else
 * why there is none (said in the log too). On `issue_comment` the event names the pull request
 * (`pullRequest`) but not its base branch, which the pulls API does.
 */
export async function resolveBaseline(
  settings: ActionSettings,
  octokit: Octokit | null,
  env: NodeJS.ProcessEnv,
  budget: RetryBudget,
  pullRequest: ChatOpsPullRequest | null,
): Promise<ResolvedBaseline> {
  if (settings.baseline.kind === 'none') return NO_BASELINE;
  const going = `${settings.mode === 'run' ? 'running' : 'reporting'} without a comparison`;
  const without = (why: string): ResolvedBaseline => {
    core.warning(`evalgate: ${why}; ${going}`);
    return { file: null, missing: why };
  };
  if (settings.baseline.kind === 'file') {
    const { path } = settings.baseline;
    if (!existsSync(path)) return without(`the baseline ${path} does not exist`);
    const problem = baselineProblem(path, env);
    return problem === null ? { file: path, shown: path } : without(problem);
  }
  const named = eventSubject(github.context, env).baseBranch;
  if (named === null && pullRequest === null) {
    core.info(
      `evalgate: baseline: auto compares a pull request (or a merge queue's group) with its base branch; this ${github.context.eventName || 'event'} event has none, so there is no comparison`,
    );
    return NO_BASELINE;
  }
  if (octokit === null) return without('baseline: auto needs a github-token');
  const branch = named ?? (await pullRequestBase(pullRequest));
  if (typeof branch !== 'string') return without(branch.why);
  const target = github.context.repo;
  const dir = await mkdtemp(join(env.RUNNER_TEMP || tmpdir(), 'evalgate-baseline-'));
  // Each candidate is downloaded, and taken only when it is a run of the branch's own code.
  let taken: { file: string; entry: string } | { failure: string } | null = null;
  let downloads = 0;
  const vet = async (candidate: BaselineArtifact): Promise<string | null> => {
    if (downloads >= MAX_BASELINE_DOWNLOADS) return NOT_DOWNLOADED;
    downloads += 1;
    const downloaded = await downloadBaseline(octokit, target, candidate.id, { budget });
    if (!downloaded.ok) {
      // Said below, as before: no older candidate is tried when GitHub does not answer.
      taken = { failure: downloaded.failure.message };
      return null;
    }
    const file = join(dir, `baseline-${candidate.id}.json`);
    await writeFile(file, downloaded.text);
    if (evaluatedOtherCommit(file, candidate.headSha)) return OTHER_COMMIT;
    taken = { file, entry: downloaded.entry };
    return null;
  };
  const found = await findBaselineArtifact(octokit, target, {
    name: settings.artifactName,
    branch,
    vet,
  });
  if (!found.ok) return without(found.failure.message);
  if (found.found === null) {
    core.info(`evalgate: ${notFound(settings.artifactName, branch, found.searched)}`);
    return { file: null, missing: notFound(settings.artifactName, branch, found.searched, '') };
  }
  const kept = taken as { file: string; entry: string } | { failure: string } | null;
  if (kept === null) return without('baseline: auto: the baseline artifact was not downloaded');
  if ('failure' in kept) return without(kept.failure);
  const from = `${settings.artifactName} from ${branch} (${found.found.createdAt}, ${kept.entry})`;
  const problem = baselineProblem(kept.file, env, from);
  if (problem !== null) return without(problem);
  core.info(`evalgate: comparing with ${from}`);
  return { file: kept.file, shown: from };
}

/** Artifacts downloaded at most by one search, to see which commit each evaluated. */
export const MAX_BASELINE_DOWNLOADS = 5;
/** {@link SearchExtent.skipped}'s key for results of another commit than their run's. */
export const OTHER_COMMIT = '(another commit)';
/** {@link SearchExtent.skipped}'s key for one passed over once MAX_BASELINE_DOWNLOADS were. */
export const NOT_DOWNLOADED = '(not downloaded)';

/**
 * Whether the results in `file` say they evaluated another commit than `runCommit`, the commit
 * of the run that uploaded them: a job that checked out a pull request (a `workflow_dispatch`
 * given `pr-number`) on a run GitHub names as the branch's. Results that name no commit, or
 * cannot be read (said when they are compared), are not told apart here.
 */
function evaluatedOtherCommit(file: string, runCommit: string | null): boolean {
  if (runCommit === null) return false;
  let sha: string | null | undefined;
  try {
    sha = openArtifactFile(file, file).frame.git?.sha;
  } catch {
    return false;
  }
  return typeof sha === 'string' && sha.toLowerCase() !== runCommit.toLowerCase();
}

/**
 * The base branch (`base.ref`) of an `issue_comment` run's pull request, from the one read of it
 * that also places the check run; else why GitHub does not say (a 403 or 404): the run goes on
 * without a comparison, as when the search fails.
 */
async function pullRequestBase(
  pullRequest: ChatOpsPullRequest | null,
): Promise<string | { why: string }> {
  if (pullRequest === null) return { why: 'baseline: auto: no pull request' };
  const read = await pullRequest.read();
  if (read.ok && read.pullRequest.baseRef !== '') return read.pullRequest.baseRef;
  const why = read.ok ? 'GitHub named no base.ref' : read.failure.message;
  return {
    why: `baseline: auto: the base branch of pull request #${pullRequest.number} is not known: ${why}`,
  };
}

/**
 * Why `path` is not a results artifact this evalgate understands (checked with the same reader
 * the comparison uses, every case included); null when it is one. An unreadable baseline is a
 * reporting problem, not the pull request's: the run goes on without a comparison rather than
 * failing as if its own config were invalid.
 *
 * @param env the environment, whose secret-named variables a quote is scrubbed of.
 * @param shown how the message names the baseline; default its path.
 */
export function baselineProblem(path: string, env: NodeJS.ProcessEnv, shown = path): string | null {
  // A quote of text that is not JSON is scrubbed before it is cut: of the declared secrets and
  // the environment's secret-named variables, as the CLI scrubs it.
  const scrub = createScrubber(secretsInEnv(env)).text;
  const read = readArtifact(() =>
    readReducedArtifact(path, shown, (_, run) => comparableCases(run), { scrub }),
  );
  if (read.ok) return null;
  // A file read as JSON says a newer schemaVersion itself (`schemaVersionProblem`); one that is
  // not JSON to this evalgate (cut short, or laid out in a way only a newer one writes) may still
  // name its version near the top.
  const version = read.kind === 'invalid' ? null : declaredSchemaVersion(path);
  const newer =
    version !== null && version > ARTIFACT_SCHEMA_VERSION
      ? ` (its start says schemaVersion ${version}: a newer evalgate wrote it, and this one reads schemaVersion ${ARTIFACT_SCHEMA_VERSION}; update evalgate here to read it)`
      : '';
  return `the baseline is not a readable results artifact: ${read.message}${newer}`;
}

/** The `schemaVersion` near the top of a file that may not be JSON at all; null when none. */
function declaredSchemaVersion(path: string): number | null {
  let head: string;
  try {
    const fd = openSync(path, 'r');
    try {
      const buffer = Buffer.alloc(4096);
      head = buffer.toString('utf8', 0, readSync(fd, buffer, 0, buffer.length, 0));
    } finally {
      closeSync(fd);
    }
  } catch {
    return null; // a folder, or gone: the reader's message already says so
  }
  const match = /"schemaVersion"\s*:\s*(\d+)/.exec(head);
  return match ? Number(match[1]) : null;
}

/**
 * Why there is no baseline, saying how far the search looked when it stopped early. `going`
 * says what happens now, after the first sentence (the reports say that themselves).
 */
export function notFound(
  name: string,
  branch: string,
  searched: SearchExtent,
  going = '; running without a comparison',
): string {
  const count = (n: number): string => n.toLocaleString('en-US');
  const skipped = Object.entries(searched.skipped)
    .map(([event, n]) =>
      event === UNKNOWN_RUN
        ? `${count(n)} whose run GitHub does not name`
        : event === NOT_LOOKED_UP
          ? `${count(n)} whose run was not read (at most ${MAX_RUN_LOOKUPS} are)`
          : event === OTHER_COMMIT
            ? `${count(n)} that evaluated another commit than their run's (a job that checked out a pull request)`
            : event === NOT_DOWNLOADED
              ? `${count(n)} not downloaded (at most ${MAX_BASELINE_DOWNLOADS} are)`
              : `${count(n)} uploaded by ${event} runs`,
    )
    .join(', ');
  const passedOver =
    skipped === ''
      ? ''
      : `. Passed over ${skipped}: only results uploaded by a ${BASELINE_EVENTS.join(', ')} run are ${branch}'s own (such a job may have checked out a pull request), so upload ${branch}'s results from one of those (docs/action.md#baseline-auto-on-a-busy-repository)`;
  if (searched.exhausted) {
    const among =
      searched.artifacts > 0
        ? ` (looked at all ${count(searched.artifacts)} artifacts of that name)`
        : '';
    return `no results artifact named ${name} from ${branch} yet${among}${going}${passedOver}`;
  }
  const of = searched.total !== null ? ` of ${count(searched.total)}` : '';
  return (
    `no results artifact named ${name} from ${branch} among the newest ${count(searched.artifacts)}${of} artifacts of that name ` +
    `(${count(searched.pages)} pages; the search stops there)${going}. ` +
    `Upload ${branch}'s results under a name of their own and set artifact-name to it, so pull request uploads cannot bury them${passedOver}`
  );
}

/**
 * `mode: report`: the earlier job's `results` compared with `baseline` (`baseline: FILE`,
 * checked by {@link resolveBaseline}), as `evals report --baseline` compares them: the comment
 * and summary show the comparison as they show a run's. The verdict stays the results' own.
 * Without a comparison, after a warning saying why, when the two cannot be compared (no case in
 * common); the reports say why too (`uncompared`), as they do when there is no baseline file.
 */
export async function comparedResults(
  results: EvalResults | null,
  settings: ActionSettings,
  baseline: ResolvedBaseline,
): Promise<EvalResults | null> {
  if (results === null) return results;
  if (baseline.file === null) return withUncompared(results, baseline.missing);
  const { compareResultsFile } = await import('../pipeline/baseline.ts');
  const ctx: CommandContext = {
    cwd: settings.workingDirectory,
    env: {},
    stdout: process.stdout,
    stderr: process.stderr,
  };
  try {
    const comparison = await compareResultsFile(baseline.file, settings.results, ctx);
    core.info(`evalgate: comparing the results with ${baseline.file}`);
    // Compared now: whatever the results' own run could not compare with is no longer the news.
    const { uncompared: _, ...rest } = results;
    return { ...rest, artifact: { ...results.artifact, comparison } };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    core.warning(
      `evalgate: no comparison with ${baseline.file}: ${error.message}; reporting without a comparison`,
    );
    return withUncompared(results, error.message);
  }
}

/** `results`, saying why they were not compared with a baseline when `why` says it. */
export function withUncompared(results: EvalResults, why: string | null): EvalResults {
  return why === null ? results : { ...results, uncompared: why };
}
