/**
 * The name GitHub shows for the job this step runs in: the job's `name:` with its matrix values
 * filled in, or `<job id> (<matrix values>)` by default (`evals (small, ubuntu-latest)`). It is
 * the one thing the runner lets an Action learn that tells the legs of a matrix apart and stays
 * the same in every attempt of the workflow run; the environment holds no matrix value, and
 * `${{ job.check_run_id }}` is an expression that names each attempt's job anew. Read from the
 * jobs API, which needs `actions: read`: the job of this attempt whose runner is this one
 * (`RUNNER_NAME`) and that is running.
 */
import type { Octokit } from './octokit.ts';

/** Pages of 100 jobs read at most: a matrix has at most 256 legs. */
const MAX_PAGES = 5;

/**
 * This job's name, or '' when it cannot be told: outside a runner, without `actions: read`,
 * GitHub not answering, or not exactly one running job of this attempt on this runner.
 */
export async function jobName(
  octokit: Octokit,
  { owner, repo }: { owner: string; repo: string },
  env: NodeJS.ProcessEnv,
): Promise<string> {
  const runner = env.RUNNER_NAME ?? '';
  const runId = Number(env.GITHUB_RUN_ID);
  const attempt = Number(env.GITHUB_RUN_ATTEMPT);
  if (runner === '' || !Number.isSafeInteger(runId) || !Number.isSafeInteger(attempt)) return '';
  if (runId < 1 || attempt < 1) return '';
  try {
    const mine: string[] = [];
    let pages = 0;
    for await (const { data } of octokit.paginate.iterator(
      octokit.rest.actions.listJobsForWorkflowRunAttempt,
      { owner, repo, run_id: runId, attempt_number: attempt, per_page: 100 },
    )) {
      for (const job of data) {
        if (job.runner_name === runner && job.status === 'in_progress') mine.push(job.name);
      }
      if (++pages >= MAX_PAGES) break;
    }
    return mine.length === 1 ? (mine[0] ?? '') : '';
  } catch {
    return '';
  }
}
