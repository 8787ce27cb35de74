/**
 * The GitHub Action: inputs once at the edge → the same `evals run` pipeline, in-process →
 * publish (job summary, sticky PR comment, check run with annotations) → outputs and verdict.
 *
 * Reporting never changes the verdict: a 403 from a fork's read-only token, a 404 or a 5xx turns
 * into a warning plus workflow-command annotations, and the step still ends on the eval verdict.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import * as core from '@actions/core';
import * as github from '@actions/github';
import { parseRunArgs } from '../cli/main.ts';
import type { CommandContext } from '../pipeline/context.ts';
import { executeRun, type RunArgs } from '../pipeline/run.ts';
import { UsageError, formatIssue } from '../shared/errors.ts';
import { comparableCase } from '../compare/comparable.ts';
import { renderComparisonMarkdown } from '../report/comparison.ts';
import type { Comparison } from '../types/comparison.ts';
import { downloadBaseline, findBaselineArtifact } from '../github/baseline.ts';
import { publishCheckRun } from '../github/check-run.ts';
import { upsertStickyComment } from '../github/comment.ts';
import type { ReportingFailure } from '../github/errors.ts';
import {
  buildAnnotations,
  countFailingRows,
  toWorkflowCommands,
  unannotatedText,
} from '../report/annotations.ts';
import { ArtifactReadError, openArtifactFile, readReducedArtifact } from '../artifact/read.ts';
import { renderMarkdownReport } from '../report/markdown.ts';
import type { Reporter } from '../report/reporter.ts';
import {
  REPORTED_WHOLE_CASES,
  reportedArtifact,
  type ReportedArtifact,
} from '../report/reported-cases.ts';
import type { ResultsArtifact } from '../types/index.ts';
import { readSettings, type ActionSettings } from './settings.ts';

/** GitHub's limits, held in UTF-8 bytes: a comment body, a check-run summary, the job summary. */
const COMMENT_LIMIT = 65_536;
const CHECK_SUMMARY_LIMIT = 65_535;
const JOB_SUMMARY_LIMIT = 1024 * 1024 - 1024;

/** The Action's entry: never throws for user mistakes; sets outputs and the step's outcome. */
export async function run(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const workspace = env.GITHUB_WORKSPACE || process.cwd();
  const read = readSettings((name) => core.getInput(name), workspace);
  if (!read.ok) {
    for (const error of read.errors) core.error(error);
    core.setFailed(
      `evalgate: ${read.errors.length} invalid input${read.errors.length === 1 ? '' : 's'}`,
    );
    return;
  }
  const settings = read.settings;
  if (settings.token) core.setSecret(settings.token);
  await maskReferencedSecrets(resolve(settings.workingDirectory, settings.config), env);

  const octokit = settings.token ? github.getOctokit(settings.token) : null;
  const baselineFile =
    settings.mode === 'run' ? await resolveBaseline(settings, octokit, env) : null;
  const obtained =
    settings.mode === 'report'
      ? readResults(settings)
      : await runEvals(settings, workspace, env, baselineFile);
  if (obtained === null) return;
  const { artifact, configFile } = obtained;
  const configPath = toRepoPath(workspace, configFile);
  const sourceRoot = toRepoPath(workspace, dirname(configFile));
  const title = `evals: ${configPath}`;
  // With a comparison, the comment shows its statistics; the plain deltas would only repeat them.
  const preamble = artifact.comparison ? comparisonSection(artifact.comparison) : undefined;
  const baseline =
    preamble === undefined && settings.baseline.kind === 'file'
      ? readBaseline(settings.baseline.path)
      : null;
  const links = runLinks(env);
  const render = (marker: string, maxBytes: number): string =>
    withinBytes(
      (maxChars) =>
        renderMarkdownReport(artifact, {
          title,
          marker,
          maxChars,
          sourceRoot: sourceRoot === '.' ? '' : sourceRoot,
          baseline,
          links,
          ...(preamble !== undefined ? { preamble } : {}),
        }),
      maxBytes,
    );
  const annotationOptions = { sourceRoot: sourceRoot === '.' ? '' : sourceRoot, configPath };
  const annotations = buildAnnotations(artifact, annotationOptions);
  // Rows past the first failing cases of a run, kept without details, have no annotation.
  const failingRows = countFailingRows(artifact, annotationOptions);

  const failures: ReportingFailure[] = [];
  try {
    await core.summary.addRaw(render('', JOB_SUMMARY_LIMIT)).write();
  } catch (error) {
    core.warning(`evalgate: could not write the job summary: ${(error as Error).message}`);
  }

  const context = github.context;
  const { owner, repo } = context.repo;
  const pullRequest = context.payload.pull_request;
  const prNumber = settings.prNumber ?? pullRequest?.number ?? null;
  let commentUrl = '';
  if (octokit === null && (settings.comment || settings.checkRun)) {
    failures.push({
      code: 'github.forbidden',
      message: 'no github-token was given, so nothing could be posted to GitHub',
    });
  }
  if (octokit && settings.comment && prNumber !== null) {
    // One comment per config and job; the marker must stay one HTML comment whatever the names.
    const markerText = (text: string): string => text.replace(/[^\w./@ -]/g, '_');
    const marker = `<!-- evalgate-report config="${markerText(configPath)}" job="${markerText(env.GITHUB_JOB ?? '')}" -->`;
    const posted = await upsertStickyComment(
      octokit,
      { owner, repo, issueNumber: prNumber },
      marker,
      render(marker, COMMENT_LIMIT),
    );
    if (posted.ok) {
      commentUrl = posted.url;
      core.info(`evalgate: ${posted.action} the PR comment ${posted.url}`);
    } else failures.push(posted.failure);
  }
  if (octokit && settings.checkRun) {
    // On a pull request the check belongs to the PR's head commit, not the merge commit.
    const headSha =
      settings.headSha ?? (pullRequest?.head as { sha?: string } | undefined)?.sha ?? context.sha;
    // The first rows in path and line order; the check run says how many more there are.
    const shown = annotations.slice(0, settings.maxAnnotations);
    const published = await publishCheckRun(
      octokit,
      { owner, repo },
      {
        name: title,
        headSha,
        conclusion: artifact.verdict === 'pass' ? 'success' : 'failure',
        title: headline(artifact),
        summary: render('', CHECK_SUMMARY_LIMIT),
        annotations: shown,
        ...(shown.length < failingRows ? { text: unannotatedText(shown.length, failingRows) } : {}),
        ...(links.run ? { detailsUrl: links.run } : {}),
      },
    );
    if (published.ok)
      core.info(`evalgate: check run ${published.url} with ${published.annotations} annotations`);
    else failures.push(published.failure);
  }
  if (failures.length > 0) {
    for (const failure of failures) core.warning(`evalgate: ${failure.message}`);
    // Without the API, the failing rows still show up on the diff through workflow commands.
    for (const a of toWorkflowCommands(annotations)) {
      core.error(a.message, { file: a.file, startLine: a.line, title: a.title });
    }
  }

  const counts = totals(artifact);
  core.setOutput('verdict', artifact.verdict);
  core.setOutput('results', settings.results);
  core.setOutput('passed', counts.passed);
  core.setOutput('failed', counts.failed);
  core.setOutput('errored', counts.errored);
  core.setOutput('comment-url', commentUrl);
  if (artifact.verdict === 'fail' && settings.failOn === 'gate') {
    core.setFailed(`evals: ${headline(artifact)}`);
  }
}

/** Runs the evals in-process; null (after failing the step) when the config or inputs are bad. */
async function runEvals(
  settings: ActionSettings,
  workspace: string,
  env: NodeJS.ProcessEnv,
  baselineFile: string | null,
): Promise<{ artifact: ReportedArtifact; configFile: string } | null> {
  const interrupt = new AbortController();
  const onSignal = (): void => interrupt.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const ctx: CommandContext = {
      cwd: settings.workingDirectory,
      env,
      stdout: process.stdout,
      stderr: process.stderr,
    };
    const args = runArgs(settings, workspace, interrupt.signal);
    // The PR comment, check-run annotations and job summary read the cases once the run is
    // over, from its case log: the first failing ones of each run whole, the others reduced.
    let reported: ReportedArtifact | undefined;
    const pullRequestCases: Reporter = {
      onRunEnd({ artifact, log }) {
        reported = reportedArtifact(artifact, (run) => log.cases(run), wholeCases(settings));
      },
    };
    const outcome = await executeRun(
      { ...args, ...(baselineFile ? { baseline: baselineFile } : {}) },
      ctx,
      [pullRequestCases],
    );
    return {
      artifact: reported ?? reportedArtifact(outcome.artifact, () => []),
      configFile: outcome.config.absPath,
    };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    reportUsageError(error, settings, workspace);
    return null;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/**
 * The baseline results file for this run: the `baseline` path, or for `auto` the newest results
 * artifact uploaded from the pull request's base branch, downloaded to a temporary file. No
 * baseline is not an error: the run goes on without a comparison, and says why.
 */
async function resolveBaseline(
  settings: ActionSettings,
  octokit: ReturnType<typeof github.getOctokit> | null,
  env: NodeJS.ProcessEnv,
): Promise<string | null> {
  if (settings.baseline.kind === 'none') return null;
  if (settings.baseline.kind === 'file') {
    if (existsSync(settings.baseline.path)) return settings.baseline.path;
    core.warning(
      `evalgate: the baseline ${settings.baseline.path} does not exist; running without a comparison`,
    );
    return null;
  }
  const pullRequest = github.context.payload.pull_request;
  const branch = (pullRequest?.base as { ref?: string } | undefined)?.ref ?? env.GITHUB_BASE_REF;
  if (!branch) {
    core.info(
      'evalgate: baseline: auto compares a pull request with its base branch; this event has none, so there is no comparison',
    );
    return null;
  }
  if (octokit === null) {
    core.warning('evalgate: baseline: auto needs a github-token; running without a comparison');
    return null;
  }
  const target = github.context.repo;
  const found = await findBaselineArtifact(octokit, target, {
    name: settings.artifactName,
    branch,
  });
  if (!found.ok) {
    core.warning(`evalgate: ${found.failure.message}; running without a comparison`);
    return null;
  }
  if (found.found === null) {
    core.info(
      `evalgate: no results artifact named ${settings.artifactName} from ${branch} yet; running without a comparison`,
    );
    return null;
  }
  const downloaded = await downloadBaseline(octokit, target, found.found.id);
  if (!downloaded.ok) {
    core.warning(`evalgate: ${downloaded.failure.message}; running without a comparison`);
    return null;
  }
  const dir = await mkdtemp(join(env.RUNNER_TEMP || tmpdir(), 'evalgate-baseline-'));
  const file = join(dir, 'baseline.json');
  await writeFile(file, downloaded.text);
  core.info(
    `evalgate: comparing with ${settings.artifactName} from ${branch} (${found.found.createdAt}, ${downloaded.entry})`,
  );
  return file;
}

/** The comparison for the comment: its full rendering when it is small, else the top rows only. */
function comparisonSection(comparison: Comparison): string {
  const full = renderComparisonMarkdown(comparison);
  if (full.length <= COMMENT_LIMIT / 3) return full;
  const short = renderComparisonMarkdown(comparison, { maxListedCases: 0 });
  if (short.length <= COMMENT_LIMIT / 3) return short;
  return '_The comparison with the baseline is too large for this comment: see `comparison` in the results artifact, or `evals compare`._';
}

/** `mode: report`: an artifact made by an earlier job; nothing of the PR's code runs here. */
function readResults(
  settings: ActionSettings,
): { artifact: ReportedArtifact; configFile: string } | null {
  // A merged artifact of a sharded suite can hold hundreds of thousands of cases: read it a case
  // at a time, keeping each as the reports read it (the first failing ones of each run whole,
  // the others reduced).
  const name = relative(settings.workingDirectory, settings.results);
  const artifact = readArtifact(() => {
    const file = openArtifactFile(settings.results, name);
    return reportedArtifact(file.frame, (run) => file.cases(run), wholeCases(settings));
  });
  if (!artifact.ok) {
    core.setOutput('verdict', 'error');
    core.setFailed(`evalgate (mode: report): ${artifact.message}`);
    return null;
  }
  return {
    artifact: artifact.value,
    configFile: resolve(settings.workingDirectory, settings.config),
  };
}

/** What `read` read from an artifact file, or why the file cannot be read. */
function readArtifact<T>(read: () => T): { ok: true; value: T } | { ok: false; message: string } {
  try {
    return { ok: true, value: read() };
  } catch (error) {
    if (error instanceof ArtifactReadError) return { ok: false, message: error.message };
    throw error;
  }
}

/**
 * How many cases of a run the reports keep whole: enough for every annotation asked for, and at
 * least `REPORTED_WHOLE_CASES` for the comment and job summary to list.
 */
function wholeCases(settings: ActionSettings): number {
  return Math.max(settings.maxAnnotations, REPORTED_WHOLE_CASES);
}

/** `evals run` arguments: the `args` input through the CLI's own parser, then the inputs. */
function runArgs(settings: ActionSettings, workspace: string, signal: AbortSignal): RunArgs {
  const parsed = parseRunArgs(settings.args);
  return {
    ...parsed,
    config: parsed.config ?? settings.config,
    output: settings.results,
    signal,
    loader: {
      tsxSearchFrom: [
        dirname(resolve(settings.workingDirectory, parsed.config ?? settings.config)),
        settings.workingDirectory,
        workspace,
      ],
    },
  };
}

/** Config problems: annotations at the config's lines, and a failed step. */
function reportUsageError(error: UsageError, settings: ActionSettings, workspace: string): void {
  for (const issue of error.issues) {
    const file = issue.file
      ? toRepoPath(workspace, resolve(settings.workingDirectory, issue.file))
      : undefined;
    core.error(issue.path ? `${issue.path}: ${issue.message}` : issue.message, {
      ...(file ? { file } : {}),
      ...(issue.line > 0 ? { startLine: issue.line, startColumn: issue.col || 1 } : {}),
      title: 'evalgate: invalid input',
    });
  }
  const lines = error.issues.length > 0 ? error.issues.map(formatIssue) : [error.message];
  core.setOutput('verdict', 'error');
  core.setFailed(`evalgate could not run:\n${lines.join('\n')}`);
}

/**
 * Values of the environment variables the config reads (`${OPENAI_API_KEY}`) are masked in the
 * log, so a key echoed by user code or an error message never shows.
 */
async function maskReferencedSecrets(configPath: string, env: NodeJS.ProcessEnv): Promise<void> {
  const text = await readFile(configPath, 'utf8').catch(() => '');
  for (const match of text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}/g)) {
    const value = env[match[1] ?? ''];
    if (value) core.setSecret(value);
  }
}

/** The baseline for the plain deltas: only pass statuses are compared, so cases are reduced. */
function readBaseline(path: string): ResultsArtifact | null {
  const baseline = readArtifact(() => readReducedArtifact(path, path, comparableCase));
  if (baseline.ok) return baseline.value;
  core.warning(`evalgate: the baseline ${baseline.message}; comparing against nothing`);
  return null;
}

function runLinks(env: NodeJS.ProcessEnv): { run?: string } {
  const server = env.GITHUB_SERVER_URL;
  const repo = env.GITHUB_REPOSITORY;
  const id = env.GITHUB_RUN_ID;
  return server && repo && id ? { run: `${server}/${repo}/actions/runs/${id}` } : {};
}

/** `fail: 1 of 4 runs failed · 38 passed, 2 failed, 0 errored` */
function headline(artifact: ResultsArtifact): string {
  const failedRuns = artifact.runs.filter((r) => r.verdict === 'fail').length;
  const t = totals(artifact);
  const state = artifact.interrupted ? 'interrupted' : artifact.verdict;
  return `${state}: ${failedRuns} of ${artifact.runs.length} runs failed · ${t.passed} passed, ${t.failed} failed, ${t.errored} errored`;
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

/** Cases passed, failed and errored over every run. */
function totals(artifact: ResultsArtifact): { passed: number; failed: number; errored: number } {
  const t = { passed: 0, failed: 0, errored: 0 };
  for (const r of artifact.runs) {
    t.passed += r.summary.passed;
    t.failed += r.summary.failed;
    t.errored += r.summary.errored;
  }
  return t;
}

/** A repository-relative POSIX path for annotations; absolute when outside the workspace. */
function toRepoPath(workspace: string, path: string): string {
  const rel = relative(workspace, path);
  if (rel === '') return '.';
  return rel.startsWith('..') || isAbsolute(rel) ? path : rel.split(sep).join('/');
}
