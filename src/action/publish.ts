/**
 * Publishing the results: the job summary, the sticky PR comment and the check run with row
 * annotations, each rendered under GitHub's size limit for it (`report/github-limits.ts`).
 *
 * Publishing never changes the verdict: a 403 from a fork's read-only token, a 404 or a 5xx turns
 * into a warning, annotations the check run could not carry become workflow commands, and the
 * step still ends on the eval verdict.
 */
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import * as core from '@actions/core';
import * as github from '@actions/github';
import { publishCheckRun } from '../github/check-run.ts';
import { checkRunOrigin } from '../github/check-run-origin.ts';
import { jobName } from '../github/job-name.ts';
import {
  RUN_STAMP_MAX_CHARS,
  upsertStickyComment,
  type RunStamp,
  type StaleComment,
} from '../github/comment.ts';
import type { ReportingFailure } from '../github/errors.ts';
import type { Octokit } from '../github/octokit.ts';
import {
  type Annotation,
  buildAnnotations,
  countFailingRows,
  toWorkflowCommands,
  unannotatedText,
} from '../report/annotations.ts';
import { MAX_WORKFLOW_COMMAND_ANNOTATIONS, REPORT_MAX_BYTES } from '../report/github-limits.ts';
import { renderMarkdownReport } from '../report/markdown.ts';
import { notComparedSentence } from '../report/not-compared.ts';
import { goneSuitesPrefix } from '../report/labels.ts';
import { runTotals } from '../report/totals.ts';
import { formatCount } from '../shared/format-count.ts';
import { createScrubber } from '../shared/secrets.ts';
import type { ResultsArtifact } from '../types/index.ts';
import type { ChatOpsPullRequest } from './chatops.ts';
import {
  chatOpsDefaultBranch,
  eventSubject,
  forkPullRequest,
  forkTokenPossible,
  triggeringRun,
  type EventContext,
  type ForkPullRequest,
} from './event.ts';
import { reportIdentity } from './report-identity.ts';
import {
  escapeNote,
  staleSummaryNote,
  SUMMARY_NOTE_MAX_BYTES,
  unpostedSummaryNote,
} from './summary-notes.ts';
import type { EvalResults } from './run-evals.ts';
import { checkRunTarget } from './check-run-target.ts';
import type { ActionSettings } from './settings.ts';

/**
 * What the PR comment is rendered to, in UTF-8 bytes: GitHub's limit less the room the run stamp
 * takes, which `upsertStickyComment` writes under the marker line after rendering.
 */
export const COMMENT_REPORT_MAX_BYTES = REPORT_MAX_BYTES.comment - RUN_STAMP_MAX_CHARS;

/** What was published that the step's outputs name. */
export interface Published {
  /** The sticky comment's URL; '' when none was posted. */
  commentUrl: string;
}

/**
 * Writes the job summary, then (with a token) upserts the PR comment and creates the check run;
 * what could not be posted becomes a warning, and the failing rows the check run could not
 * carry become workflow-command annotations. `pullRequest`: an `issue_comment` run's pull
 * request, read at most once for the baseline and the check run's commit.
 */
export async function publishResults(
  results: EvalResults,
  settings: ActionSettings,
  octokit: Octokit | null,
  env: NodeJS.ProcessEnv,
  pullRequest: ChatOpsPullRequest | null,
): Promise<Published> {
  const { artifact, configPath, sourceRoot } = results;
  const identity = reportIdentity({
    configPath,
    name: settings.name,
    args: results.args,
    job: env.GITHUB_JOB ?? '',
  });
  const title = `evals: ${identity.label}`;
  // A baseline is compared with before this (main.ts), in `mode: report` too: the report shows
  // the artifact's statistical comparison, or, when it has none, no baseline at all.
  const links = runLinks(env);
  // Said where it is only when this run wrote it (`mode: run`, `report: true` or a --report).
  const htmlReport = writtenReport(results);
  const htmlReportShown =
    htmlReport === null ? undefined : relative(settings.workingDirectory, htmlReport);
  const context = github.context;
  const subject = eventSubject(context, env);
  const { owner, repo } = context.repo;
  const prNumber = settings.prNumber ?? subject.pullRequest;
  const { commit, checkedOut } = await checkRunTarget(settings, env, pullRequest);
  if (commit.warning !== null) core.warning(`evalgate: ${commit.warning}`);
  if (commit.note !== null) core.info(`evalgate: ${commit.note}`);
  // A ChatOps job gets the default branch's code unless it checked the pull request out, whether
  // the pull request came from the comment or from `pr-number`: asked about the PR, it ran other
  // code, which is worth a warning on the PR itself.
  const otherCode = chatOpsDefaultBranch(context, settings.comment ? prNumber : null, checkedOut);
  if (otherCode !== null) core.warning(`evalgate: ${otherCode}`);
  const warnings = [commit.warning, otherCode].filter((warning) => warning !== null);
  // Blocks above the heading of every rendering: what the verdict is not about, or is about.
  const notes = [
    ...warnings.map((warning) => `> [!WARNING]\n> ${escapeNote(warning)}`),
    ...(results.uncompared !== undefined ? [uncomparedNote(results.uncompared)] : []),
    ...(commit.note !== null ? [`> [!NOTE]\n> ${escapeNote(commit.note)}`] : []),
    ...(artifact.shard !== undefined ? [shardNote(artifact.shard)] : []),
  ];
  const prefix = notes.map((note) => `${note}\n\n`).join('');
  const render = (marker: string, maxBytes: number, note = ''): string => {
    const head = `${marker === '' ? '' : `${marker}\n`}${note}${prefix}`;
    const room = maxBytes - Buffer.byteLength(head, 'utf8');
    return (
      head +
      withinBytes(
        (maxChars) =>
          renderMarkdownReport(artifact, {
            title,
            marker: '',
            maxChars,
            sourceRoot,
            links,
            ...(htmlReportShown !== undefined ? { htmlReport: htmlReportShown } : {}),
          }),
        room,
      )
    );
  };
  const annotationOptions = { sourceRoot, configPath };
  const annotations = buildAnnotations(artifact, annotationOptions);
  // Rows past the first failing cases of a run, kept without details, have no annotation.
  const failingRows = countFailingRows(artifact, annotationOptions);

  // A fork's pull_request (or review) run has a read-only token: its writes could only be
  // refused, so none is made, and the report goes to the job summary and the log instead.
  const fork =
    settings.checkRun || (settings.comment && prNumber !== null)
      ? forkPullRequest(context, env)
      : null;
  if (fork !== null) core.info(`evalgate: ${forkMessage(fork, settings.checkRun)}`);

  const failures: ReportingFailure[] = [];
  // The bytes of the notes appended to the job summary after the report (`SUMMARY_NOTE_MAX_BYTES`).
  let noteBytes = 0;
  try {
    const said = fork === null ? '' : escapeNote(forkMessage(fork, settings.checkRun));
    const note =
      said === '' ? '' : `> [!NOTE]\n> ${said.charAt(0).toUpperCase()}${said.slice(1)}\n\n`;
    await core.summary.addRaw(render('', REPORT_MAX_BYTES.jobSummary, note)).write();
  } catch (error) {
    core.warning(`evalgate: could not write the job summary: ${(error as Error).message}`);
  }

  const poster = fork === null ? octokit : null;
  let commentUrl = '';
  if (fork === null && octokit === null && (settings.comment || settings.checkRun)) {
    failures.push({
      code: 'github.forbidden',
      message: 'no github-token was given, so nothing could be posted to GitHub',
    });
  }
  if (settings.comment && prNumber === null && subject.mergeQueue) {
    core.info(
      'evalgate: in a merge queue there is no pull request to comment on; the check run and the job summary carry the report',
    );
  }
  if (poster && settings.comment && prNumber !== null) {
    const posted = await upsertStickyComment(
      poster,
      { owner, repo, issueNumber: prNumber },
      identity.marker,
      render(identity.marker, COMMENT_REPORT_MAX_BYTES),
      runStamp(env, context),
    );
    if (!posted.ok) failures.push(posted.failure);
    else if (posted.action === 'kept-newer') {
      commentUrl = posted.url;
      const { id, attempt } = posted.newer;
      core.info(
        `evalgate: left the PR comment ${posted.url} as it is: a later workflow run (${id}, attempt ${attempt}) reported there; this run's report is in the job summary${settings.checkRun ? ' and its check run' : ''}`,
      );
    } else {
      commentUrl = posted.url;
      core.info(`evalgate: ${posted.action} the PR comment ${posted.url}`);
    }
    if (posted.ok && posted.stale !== undefined) {
      noteBytes += await sayStale(posted.stale, posted.url);
    }
  }
  // The annotations a wanted check run does not carry: all of them without a token or on a
  // fork, those of a failed create, or those after the last update that went through. With
  // `check-run: false` none: the fork-safe pattern's untrusted half runs so, and its report
  // job's check run carries them.
  let undelivered: readonly Annotation[] = settings.checkRun ? annotations : [];
  if (poster && settings.checkRun) {
    // On a pull request the check belongs to the PR's head commit, not the merge commit; in a
    // merge queue, to the group's head commit, which the queue waits on; on a workflow_run, to
    // the triggering run's commit; and never on a commit whose code did not run (`commit`).
    const headSha = commit.sha;
    // The first rows in path and line order; the check run says how many more there are.
    const shown = annotations.slice(0, settings.maxAnnotations);
    // The leg a refused re-run compares with (`check-run-origin.ts`): GitHub's name of the job.
    const named = await jobName(poster, { owner, repo }, env);
    const published = await publishCheckRun(
      poster,
      { owner, repo },
      {
        name: title,
        headSha,
        conclusion: artifact.verdict === 'pass' ? 'success' : 'failure',
        title: shardHeadline(artifact),
        summary: render('', REPORT_MAX_BYTES.checkRunSummary),
        annotations: shown,
        ...(shown.length < failingRows ? { text: unannotatedText(shown.length, failingRows) } : {}),
        ...(links.run ? { detailsUrl: links.run } : {}),
        // Read back by a re-run of this job that could not start (`publish-not-started.ts`).
        origin: checkRunOrigin(env, settings.leg, named),
        forkPossible: forkTokenPossible(context, env),
      },
    );
    if (published.ok) {
      undelivered = [];
      core.info(`evalgate: check run ${published.url} with ${published.annotations} annotations`);
    } else {
      failures.push(published.failure);
      undelivered = shown.slice(published.partial?.annotations ?? 0);
    }
  }
  for (const failure of failures) core.warning(`evalgate: ${failure.message}`);
  const unposted = unpostedSummaryNote(failures, forkTokenPossible(context, env));
  if (Buffer.byteLength(unposted) + noteBytes <= SUMMARY_NOTE_MAX_BYTES) await addNote(unposted);
  annotateThroughWorkflowCommands(undelivered, willFailStep(artifact, settings));
  return { commentUrl };
}

/**
 * Earlier reports of this identity's that another token wrote, which this one could not edit:
 * a warning, and a note at the end of the job summary, say which comment is current.
 */
async function sayStale(stale: readonly StaleComment[], current: string): Promise<number> {
  for (const comment of stale) {
    const state = comment.hidden
      ? 'hidden it as outdated'
      : `could not hide it${comment.why === undefined ? '' : ` (${comment.why})`}`;
    core.warning(
      `evalgate: an earlier report on this pull request, ${comment.url}, was written by another identity (${comment.author}), which this token may not edit: it is out of date, and this run ${state}. The current report is ${current}. To have one comment again, delete the old one`,
    );
  }
  const note = staleSummaryNote(stale, current);
  await addNote(note);
  return Buffer.byteLength(note);
}

/** Appends `note` (when there is one) to the job summary after the report. */
async function addNote(note: string): Promise<void> {
  if (note === '') return;
  try {
    await core.summary.addRaw(note).write();
  } catch (error) {
    core.warning(`evalgate: could not write the job summary: ${(error as Error).message}`);
  }
}

/**
 * `mode: run` with `args: --shard I/N` reports one shard (docs/action.md#sharded-runs-one-merged-comment):
 * said above the verdict, which covers only this shard's cases.
 */
function shardNote({ index, count }: { index: number; count: number }): string {
  return `> [!NOTE]\n> Shard ${index} of ${count} (\`--shard ${index}/${count}\`): this report and its verdict cover only this shard's cases. The whole run's verdict needs every shard, merged with \`evals merge\` and reported with \`mode: report\`.`;
}

/**
 * A baseline was asked for and the results were not compared with it: said above the verdict,
 * which then says nothing about regressions (a green report is not "no regressions").
 */
function uncomparedNote(why: string): string {
  // It may name grid values of the run, whose cases are scrubbed of the declared secrets: so is it.
  return `> [!WARNING]\n> ${escapeNote(notComparedSentence(createScrubber([]).text(why)))}`;
}

/**
 * What is not posted on a fork's pull request, and why: said once in the log and at the top of
 * the job summary, in place of the two 403 warnings the writes would get.
 */
export function forkMessage(fork: ForkPullRequest, checkRun: boolean): string {
  const from =
    fork.head === null
      ? `a fork of ${fork.base} that has since been deleted`
      : `the fork ${fork.head}, not ${fork.base}`;
  const rows = checkRun ? ', and the failing rows are annotated from the job log' : '';
  return `this pull request comes from ${from}: GitHub gives a fork's ${fork.event} run a read-only token, so no PR comment or check run is posted (GitHub would refuse them). The report is in the job summary${rows}. To post them, use the fork-safe workflow (docs/action.md#pull-requests-from-forks-safely)`;
}

/**
 * The workflow run the comment's run line names: on `workflow_run` the triggering run, whose
 * results are reported (`triggeringRun`); else the run this step belongs to (GITHUB_RUN_ID,
 * GITHUB_RUN_ATTEMPT), when Actions says.
 */
export function runStamp(env: NodeJS.ProcessEnv, context: EventContext): RunStamp | undefined {
  const triggering = triggeringRun(context);
  if (triggering !== null) return triggering;
  const id = Number(env.GITHUB_RUN_ID);
  const attempt = Number(env.GITHUB_RUN_ATTEMPT ?? '1');
  return Number.isSafeInteger(id) && id > 0 && Number.isSafeInteger(attempt) && attempt > 0
    ? { id, attempt }
    : undefined;
}

/** The HTML report the run wrote (absolute), or null when it was to write none or could not. */
export function writtenReport(results: Pick<EvalResults, 'report'>): string | null {
  return results.report !== undefined && existsSync(results.report) ? results.report : null;
}

/** Whether `run` ends the step with the verdict line, `core.setFailed`: one error annotation. */
export function willFailStep(artifact: ResultsArtifact, settings: ActionSettings): boolean {
  return artifact.verdict === 'fail' && settings.failOn === 'gate';
}

/**
 * The failing rows no check run carries, on the diff through `::error file=…` commands. GitHub
 * shows 10 error annotations a step and drops the rest; the verdict line that fails the step is
 * one of them, so it keeps its place and the rows get the others.
 */
function annotateThroughWorkflowCommands(
  annotations: readonly Annotation[],
  verdictLineFollows: boolean,
): void {
  const room = MAX_WORKFLOW_COMMAND_ANNOTATIONS - (verdictLineFollows ? 1 : 0);
  for (const a of toWorkflowCommands(annotations).slice(0, room)) {
    core.error(a.message, { file: a.file, startLine: a.line, title: a.title });
  }
}

/**
 * {@link headline}, preceded by `shard 1 of 2 · ` when the run was one shard (`--shard 1/2`):
 * the check run's title and the line that fails the step.
 */
export function shardHeadline(artifact: ResultsArtifact): string {
  const { shard } = artifact;
  return shard === undefined
    ? headline(artifact)
    : `shard ${shard.index} of ${shard.count} · ${headline(artifact)}`;
}

/**
 * `fail: 1 of 4 runs failed · 38 passed, 2 failed, 0 errored`, after `1 suite of the baseline
 * gone · ` when suites gone from the config failed the run (no run of theirs counts them).
 */
export function headline(artifact: ResultsArtifact): string {
  const t = runTotals(artifact.runs);
  const state = artifact.interrupted ? 'interrupted' : artifact.verdict;
  const n = formatCount;
  const suites = goneSuitesPrefix(artifact.missingSuites?.length ?? 0);
  return `${state}: ${suites}${n(t.failedRuns)} of ${n(t.runs)} runs failed · ${n(t.passed)} passed, ${n(t.failed)} failed, ${n(t.errored)} errored`;
}

/** The workflow run's page, when the runner says where it is. */
export function runLinks(env: NodeJS.ProcessEnv): { run?: string } {
  const server = env.GITHUB_SERVER_URL;
  const repo = env.GITHUB_REPOSITORY;
  const id = env.GITHUB_RUN_ID;
  return server && repo && id ? { run: `${server}/${repo}/actions/runs/${id}` } : {};
}

/**
 * The renderer budgets characters; GitHub counts bytes, and user text (CJK, emoji) can take up
 * to four bytes a character. Shrink the budget until the bytes fit (bounded tries).
 */
function withinBytes(render: (maxChars: number) => string, maxBytes: number): string {
  let budget = maxBytes;
  for (let attempt = 0; attempt < 4; attempt++) {
    const text = render(budget);
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes <= maxBytes) return text;
    budget = Math.floor((budget * maxBytes * 0.97) / bytes);
  }
  return render(Math.floor(maxBytes / 4));
}
