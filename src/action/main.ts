/**
 * The GitHub Action: inputs once at the edge (`settings.ts`) → the same `evals run` pipeline,
 * in-process, or an earlier job's artifact (`run-evals.ts`), compared with a baseline when asked
 * (`baseline.ts`) → publish the job summary, sticky PR comment and check run (`publish.ts`) →
 * outputs and verdict. Reporting never changes the verdict.
 */
import { statSync } from 'node:fs';
import * as core from '@actions/core';
import * as github from '@actions/github';
import { createOctokit } from '../github/octokit.ts';
import { RetryBudget } from '../github/retry-budget.ts';
import { runTotals } from '../report/totals.ts';
import { createScrubber, secretsInEnv, type Scrubber } from '../shared/secrets.ts';
import { toolVersion } from '../shared/version.ts';
import { NO_BASELINE, comparedResults, resolveBaseline } from './baseline.ts';
import { publishNotStarted } from './publish-not-started.ts';
import { publishResults, shardHeadline, willFailStep, writtenReport } from './publish.ts';
import {
  isActionInput,
  maskReferencedSecrets,
  protectSecret,
  readResults,
  runConfigPath,
  runEvals,
  type EvalResults,
} from './run-evals.ts';
import { chatOpsPullRequest } from './chatops.ts';
import { eventSubject, workflowRunMismatch } from './event.ts';
import { readSettings } from './settings.ts';

/** The Action's entry: never throws for user mistakes; sets outputs and the step's outcome. */
export async function run(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const workspace = env.GITHUB_WORKSPACE || process.cwd();
  const read = readSettings((name) => core.getInput(name), workspace, env);
  if (!read.ok) {
    for (const error of read.errors) core.error(error);
    // As for an invalid config: nothing ran, and a later step can tell (`verdict == 'error'`).
    core.setOutput('verdict', 'error');
    core.setFailed(
      `evalgate: ${read.errors.length} invalid input${read.errors.length === 1 ? '' : 's'}`,
    );
    return;
  }
  const settings = read.settings;
  if (!isFolder(settings.workingDirectory)) {
    // Else the config "is not found" in a folder that is not there, annotated on no file.
    const message = `input working-directory: there is no folder ${settings.workingDirectory}`;
    core.error(message);
    core.setOutput('verdict', 'error');
    core.setFailed(`evalgate: ${message}`);
    return;
  }
  const forged = workflowRunMismatch(settings, github.context);
  if (forged !== null) {
    core.error(forged);
    core.setOutput('verdict', 'error');
    core.setFailed(`evalgate: ${forged}`);
    return;
  }
  if (settings.token) protectSecret(settings.token);
  // The config that is read: in mode: run, the one `args` names when it names one.
  await maskReferencedSecrets(runConfigPath(settings), env);
  // The inputs are read: JS functions run in this process, and must not find the token in
  // process.env either (command targets get `evalEnvironment`, see run-evals.ts).
  for (const name of Object.keys(process.env)) if (isActionInput(name)) delete process.env[name];

  // One budget for the whole run: the baseline search and download, the comment, the check run.
  const budget = new RetryBudget(undefined, settings.retryScale);
  const octokit = settings.token
    ? createOctokit(settings.token, {
        userAgent: `evalgate/${toolVersion}`,
        budget,
        log: (message) => core.info(`evalgate: ${message}`),
      })
    : null;
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
  // An earlier job's artifact was scrubbed of that job's secrets; this one's are removed too,
  // from the comparison with a baseline file as well (it names cases of both).
  const results =
    settings.mode === 'report'
      ? scrubbedResults(
          await comparedResults(readResults(settings, workspace), settings, baseline),
          createScrubber(secretsInEnv(env)),
        )
      : await runEvals(settings, workspace, env, baseline);
  if (results === null) return;
  if ('kind' in results) {
    // Nothing ran: the step has failed; a required check must still be told (`not-started.ts`).
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

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
