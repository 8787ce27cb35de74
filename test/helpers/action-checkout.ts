/**
 * For the Action's tests of where the check run of a run that could not start goes: a workspace
 * that is a git checkout of one commit on branch main (the base or default branch's, as
 * actions/checkout leaves it on pull_request_target and workflow_run), one whose evals.yaml is
 * invalid, and the event of a completed workflow run.
 */
import { ONE_FAILING, REPOSITORY, suiteFiles, workspace, type Workspace } from './action-run.ts';
import { commitAll, git } from './git.ts';

/** The commit of the workflow run that triggered the job, in {@link workflowRunEvent}. */
export const TRIGGERING = 'd'.repeat(40);

/** A workspace of `files` (default: one failing suite) committed once on branch main; its sha. */
export function mainCheckout(files = suiteFiles(ONE_FAILING)): { ws: Workspace; sha: string } {
  const ws = workspace(files);
  git(ws.dir, 'init', '-q', '-b', 'main');
  return { ws, sha: commitAll(ws.dir, 'base') };
}

/** A {@link mainCheckout} whose evals.yaml has an unknown key on line 6, `colour: blue`. */
export function badConfigCheckout(): { ws: Workspace; sha: string } {
  const files = suiteFiles(ONE_FAILING);
  const config = (files['evals.yaml'] ?? '').replace(
    '    function: ./app/answer.mjs\n',
    '    function: ./app/answer.mjs\n    colour: blue\n',
  );
  return mainCheckout({ ...files, 'evals.yaml': config });
}

/**
 * The event of workflow run 41, completed on commit `headSha`, as JSON: triggered by `event`, a
 * fork's pull request (whose `pull_requests` GitHub leaves empty) or a push to a branch, which
 * has none.
 */
export function workflowRunEvent(headSha: string, event = 'pull_request'): string {
  return JSON.stringify({
    action: 'completed',
    workflow_run: {
      id: 41,
      event,
      pull_requests: [],
      head_sha: headSha,
      head_branch: event === 'push' ? 'release' : 'feature',
    },
    repository: REPOSITORY,
  });
}

/** The environment of a job on `event` whose checkout is commit `sha` of branch main. */
export function onMain(event: string, sha: string): Record<string, string> {
  return { GITHUB_EVENT_NAME: event, GITHUB_SHA: sha, GITHUB_REF: 'refs/heads/main' };
}
