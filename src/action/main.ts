/**
 * The GitHub Action: inputs once at the edge (`settings.ts`) → the same `evals run` pipeline,
 * in-process, or an earlier job's artifact (`run-evals.ts`), compared with a baseline when asked
 * (`baseline.ts`) → publish the job summary, sticky PR comment and check run (`publish.ts`) →
 * outputs and verdict. Reporting never changes the verdict.
 */
import { resolve } from 'node:path';
import * as core from '@actions/core';
import * as github from '@actions/github';
import { createOctokit } from '../github/octokit.ts';
import { RetryBudget } from '../github/retry-budget.ts';
import { runTotals } from '../report/totals.ts';
import { toolVersion } from '../shared/version.ts';
import { resolveBaseline } from './baseline.ts';
import { headline, publishResults, willFailStep } from './publish.ts';
import { maskReferencedSecrets, readResults, runEvals } from './run-evals.ts';
import { workflowRunMismatch } from './event.ts';
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
  const forged = workflowRunMismatch(settings, github.context);
  if (forged !== null) {
    core.error(forged);
    core.setOutput('verdict', 'error');
    core.setFailed(`evalgate: ${forged}`);
    return;
  }
  if (settings.token) core.setSecret(settings.token);
  await maskReferencedSecrets(resolve(settings.workingDirectory, settings.config), env);

  // One budget for the whole run: the baseline search and download, the comment, the check run.
  const budget = new RetryBudget(undefined, settings.retryScale);
  const octokit = settings.token
    ? createOctokit(settings.token, {
        userAgent: `evalgate/${toolVersion}`,
        budget,
        log: (message) => core.info(`evalgate: ${message}`),
      })
    : null;
  if (settings.mode === 'report' && settings.baseline.kind === 'auto') {
    core.info(
      'evalgate: baseline: auto is not used in mode: report (the comparison belongs to the run that made the results: give that job baseline: auto, or give this one a baseline file)',
    );
  }
  const baselineFile =
    settings.mode === 'run' ? await resolveBaseline(settings, octokit, env) : null;
  const results =
    settings.mode === 'report'
      ? readResults(settings, workspace)
      : await runEvals(settings, workspace, env, baselineFile);
  if (results === null) return;

  const { commentUrl } = await publishResults(results, settings, octokit, env);

  const { artifact } = results;
  const counts = runTotals(artifact.runs);
  core.setOutput('verdict', artifact.verdict);
  core.setOutput('results', settings.results);
  core.setOutput('passed', counts.passed);
  core.setOutput('failed', counts.failed);
  core.setOutput('errored', counts.errored);
  core.setOutput('comment-url', commentUrl);
  if (results.incomplete !== undefined) {
    // The verdict may be a pass, but the step promised files it could not leave behind.
    core.setFailed(`evals: ${results.incomplete}`);
  } else if (willFailStep(artifact, settings)) {
    core.setFailed(`evals: ${headline(artifact)}`);
  }
}
