/**
 * The GitHub Action: inputs once at the edge (`settings.ts`) → the same `evals run` pipeline,
 * in-process, or an earlier job's artifact (`run-evals.ts`), compared with a baseline when asked
 * (`baseline.ts`) → publish the job summary, sticky PR comment and check run (`publish.ts`) →
 * outputs and verdict. Reporting never changes the verdict.
 */
import { statSync } from 'node:fs';
import * as core from '@actions/core';
import * as github from '@actions/github';
import { createOctokit, type Octokit } from '../github/octokit.ts';
import { RetryBudget } from '../github/retry-budget.ts';
import { runTotals } from '../report/totals.ts';
import { createScrubber, secretsInEnv, type Scrubber } from '../shared/secrets.ts';
import { toolVersion } from '../shared/version.ts';
import {
  NO_BASELINE,
  comparedResults,
  resolveBaseline,
  type ResolvedBaseline,
} from './baseline.ts';
import { refusedRun, type NotStarted } from './not-started.ts';
import { publishNotStarted } from './publish-not-started.ts';
import { publishResults, shardHeadline, willFailStep, writtenReport } from './publish.ts';
import {
  isActionInput,
  maskReferencedSecrets,
  notStartedConfigPath,
  protectSecret,
  readResults,
  runConfigPath,
  runEvals,
  type EvalResults,
} from './run-evals.ts';
import { watchCancel } from './cancel.ts';
import { chatOpsPullRequest } from './chatops.ts';
import { eventSubject, workflowRunMismatch } from './event.ts';
import { readSettings, type ActionSettings } from './settings.ts';

/** The Action's entry: never throws for user mistakes; sets outputs and the step's outcome. */
export async function run(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const workspace = env.GITHUB_WORKSPACE || process.cwd();
  const read = readSettings((name) => core.getInput(name), workspace, env);
  const settings = read.ok ? read.settings : read.fallback;
  // Refused before anything runs: the inputs, a working-directory that is not there, a
  // workflow_run's head-sha. The step fails (`verdict == 'error'`), and the report's check run
  // says why, as for an invalid config: else a required check would wait for it for good.
  // Masked and scrubbed before anything is said, a refusal included.
  if (settings.token) protectSecret(settings.token);
  const refusal = read.ok
    ? startRefusal(settings, workspace, env)
    : inputRefusal(read.errors, settings, workspace, env);
  if (refusal !== null) {
    core.setOutput('verdict', 'error');
    const { octokit } = client(settings);
    const pullRequest = chatOpsPullRequest(
      settings.prNumber ?? eventSubject(github.context, env).pullRequest,
      octokit,
      () => github.context.repo,
    );
    // Refused for the wiring: no code was read, so the checkout does not place the check run.
    await publishNotStarted(refusal.run, refusal.settings, octokit, env, pullRequest, true);
    return;
  }
  // The config that is read: in mode: run, the one `args` names when it names one.
  await maskReferencedSecrets(runConfigPath(settings), env);
  // The inputs are read: JS functions run in this process, and must not find the token in
  // process.env either (command targets get `evalEnvironment`, see run-evals.ts).
  for (const name of Object.keys(process.env)) if (isActionInput(name)) delete process.env[name];

  const { octokit, budget } = client(settings);
  // Heard from here on: a cancel must not end the step with nothing said (`cancel.ts`).
  const cancel = watchCancel(budget);
  try {
    await runAndPublish(settings, workspace, env, octokit, budget);
  } finally {
    cancel.stop();
    const signal = cancel.heard();
    if (signal !== null) {
      core.setFailed(
        `evals: the job was cancelled (${signal}): the results and the job summary are written as far as the run got, and the PR comment and check run were posted without waiting for GitHub (a warning above names any that failed)`,
      );
    }
  }
}

/** Runs the evals (or reads the results), then publishes them: the step after its refusals. */
async function runAndPublish(
  settings: ActionSettings,
  workspace: string,
  env: NodeJS.ProcessEnv,
  octokit: Octokit | null,
  budget: RetryBudget,
): Promise<void> {
  // On `issue_comment` the payload names the pull request but none of its commits, nor its base
  // branch, and `pr-number` on another event names only its number: one read of it (when needed)
  // serves `baseline: auto` and the check run's commit (`chatops.ts`).
  const pullRequest = chatOpsPullRequest(
    settings.prNumber ?? eventSubject(github.context, env).pullRequest,
    octokit,
    () => github.context.repo,
  );
  if (settings.mode === 'report' && settings.baseline.kind === 'auto') {
    core.info(
      'evalgate: baseline: auto is not used in mode: report (the comparison belongs to the run that made the results: give that job baseline: auto, or give this one a baseline file)',
    );
  }
  const baseline =
    settings.mode === 'run' || settings.baseline.kind === 'file'
      ? await resolveBaseline(settings, octokit, env, budget, pullRequest)
      : NO_BASELINE;
  const results =
    settings.mode === 'report'
      ? await reportedResults(settings, workspace, baseline, env)
      : await runEvals(settings, workspace, env, baseline, budget.cancelled);
  if ('kind' in results) {
    // Nothing ran: a required check must still be told (`not-started.ts`); then the step fails.
    await publishNotStarted(results, settings, octokit, env, pullRequest);
    return;
  }

  const { commentUrl } = await publishResults(results, settings, octokit, env, pullRequest);

  const { artifact } = results;
  const counts = runTotals(artifact.runs);
  core.setOutput('verdict', artifact.verdict);
  core.setOutput('results', settings.results);
  core.setOutput('report-path', writtenReport(results) ?? '');
  core.setOutput('passed', counts.passed);
  core.setOutput('failed', counts.failed);
  core.setOutput('errored', counts.errored);
  core.setOutput('comment-url', commentUrl);
  if (results.incomplete !== undefined) {
    // The verdict may be a pass, but the step promised files it could not leave behind.
    core.setFailed(`evals: ${results.incomplete}`);
  } else if (willFailStep(artifact, settings)) {
    core.setFailed(`evals: ${shardHeadline(artifact)}`);
  }
}

/**
 * `results` with every secret of `scrubber` removed from its runs and cases, a case at a time
 * (`json`: a value cut short with `…` may end inside a secret); null stays null.
 */
export function scrubbedResults(
  results: EvalResults | null,
  scrubber: Scrubber,
): EvalResults | null {
  if (results === null || scrubber.empty) return results;
  const clean = <T>(value: T): T => {
    const text = JSON.stringify(value);
    const scrubbed = scrubber.json(text);
    return scrubbed === text ? value : (JSON.parse(scrubbed) as T);
  };
  const { runs, ...frame } = results.artifact;
  const artifact = {
    ...clean(frame),
    runs: runs.map(({ cases, ...run }) => ({ ...clean(run), cases: cases.map(clean) })),
  };
  return { ...results, artifact };
}

/** The one client of the run and its one retry budget (the baseline, the comment, the check run). */
function client(settings: ActionSettings): { octokit: Octokit | null; budget: RetryBudget } {
  const budget = new RetryBudget(undefined, settings.retryScale);
  const octokit = settings.token
    ? createOctokit(settings.token, {
        userAgent: `evalgate/${toolVersion}`,
        budget,
        log: (message) => core.info(`evalgate: ${message}`),
        // Every request and its status, when the step's debug logging is on (RUNNER_DEBUG=1,
        // which the ACTIONS_STEP_DEBUG secret or variable, or a re-run with debug logging, sets).
        ...(core.isDebug() && { debug: (message: string) => core.debug(`evalgate: ${message}`) }),
      })
    : null;
  return { octokit, budget };
}

/** `mode: report`: the results file, refused or compared with a baseline file, scrubbed. */
async function reportedResults(
  settings: ActionSettings,
  workspace: string,
  baseline: ResolvedBaseline,
  env: NodeJS.ProcessEnv,
): Promise<EvalResults | NotStarted> {
  const read = readResults(settings, workspace, env);
  if ('kind' in read) return read;
  // An earlier job's artifact was scrubbed of that job's secrets; this one's are removed too,
  // from the comparison with a baseline file as well (it names cases of both).
  const compared = (await comparedResults(read, settings, baseline)) ?? read;
  return scrubbedResults(compared, createScrubber(secretsInEnv(env))) ?? compared;
}

/** A refusal before anything runs: what to publish, and the settings to publish it with. */
interface StartRefusal {
  run: NotStarted;
  settings: ActionSettings;
}

/** Bad inputs of the Action: each an error of the step, and a problem of the check run. */
function inputRefusal(
  errors: readonly string[],
  settings: ActionSettings,
  workspace: string,
  env: NodeJS.ProcessEnv,
): StartRefusal {
  // The head-sha is checked here too: in a workflow_run it may come from the untrusted run's
  // artifact, beside another input that is bad, and the failed check run must not go on it.
  const forged = workflowRunMismatch(settings, github.context);
  const messages = forged === null ? errors : [...errors, forged];
  const n = messages.length;
  const failure = `evalgate: ${n} invalid input${n === 1 ? '' : 's'}`;
  const run = inputProblems(messages, failure, settings, workspace, env);
  return { run, settings: reportedOn(settings, forged) };
}

/** Inputs that are each valid but cannot run here: no such working-directory, a forged head-sha. */
function startRefusal(
  settings: ActionSettings,
  workspace: string,
  env: NodeJS.ProcessEnv,
): StartRefusal | null {
  const refused = (message: string): NotStarted =>
    inputProblems([message], `evalgate: ${message}`, settings, workspace, env);
  if (!isFolder(settings.workingDirectory)) {
    // Else the config "is not found" in a folder that is not there, annotated on no file.
    const message = `input working-directory: there is no folder ${settings.workingDirectory}`;
    return { run: refused(message), settings };
  }
  const forged = workflowRunMismatch(settings, github.context);
  if (forged === null) return null;
  return { run: refused(forged), settings: reportedOn(settings, forged) };
}

/**
 * The settings a refusal is published with: after a `workflow_run` head-sha refused (`forged`),
 * the check run goes on the triggering run's commit, never on the head-sha; when the event names
 * none, there is no commit of the pull request's to post on at all.
 */
function reportedOn(settings: ActionSettings, forged: string | null): ActionSettings {
  if (forged === null) return settings;
  return settings.headSha !== null
    ? { ...settings, headSha: null }
    : { ...settings, checkRun: false, comment: false };
}

/** The problems of a refusal of the inputs, for the check run, the summary and the step. */
function inputProblems(
  messages: readonly string[],
  failure: string,
  settings: ActionSettings,
  workspace: string,
  env: NodeJS.ProcessEnv,
): NotStarted {
  return refusedRun({
    reason: "the Action's inputs are invalid",
    messages,
    configPath: notStartedConfigPath(settings, workspace),
    args: settings.mode === 'run' ? settings.args : [],
    failure,
    logged: true,
    scrub: createScrubber(secretsInEnv(env)).text,
  });
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
