/**
 * Where a report's check run goes: the commit the event (or `head-sha`) names, moved to the
 * commit whose code ran when the checkout is another one (`event.ts`, `chatops.ts`).
 */
import { dirname } from 'node:path';
import * as github from '@actions/github';
import { readGitInfo } from '../pipeline/git-info.ts';
import {
  gitParents,
  reportedCommit,
  type ChatOpsPullRequest,
  type ReportedCommit,
} from './chatops.ts';
import { eventSubject } from './event.ts';
import { runConfigPath } from './run-evals.ts';
import type { ActionSettings } from './settings.ts';

/**
 * The commit the check run goes on (`reportedCommit`), and the checkout's HEAD: in `mode: run`
 * the evals ran (or were to run) the checkout, which need not be the event's commit: the one
 * holding the config (with actions/checkout's `path:` the workspace is no repository).
 * `wiringRefused`: the run was refused for its inputs before it read anything of the checkout,
 * so no code of it was judged; on the events that name the commit a required check waits on
 * (`pull_request_target`: the head; `workflow_run`: the triggering run's) the failure goes there
 * rather than on a checkout of the base or default branch, which would leave that check waiting.
 */
export async function checkRunTarget(
  settings: ActionSettings,
  env: NodeJS.ProcessEnv,
  pullRequest: ChatOpsPullRequest | null,
  wiringRefused = false,
): Promise<{ commit: ReportedCommit; checkedOut: string | null }> {
  const context = github.context;
  const subject = eventSubject(context, env);
  const checkoutIgnored = wiringRefused && NAMES_ITS_COMMIT.includes(context.eventName);
  const checkedOut =
    settings.mode === 'run' && !checkoutIgnored
      ? ((await readGitInfo(dirname(runConfigPath(settings)), {}))?.sha ?? null)
      : null;
  const commit = await reportedCommit({
    context,
    subjectSha: settings.headSha ?? subject.headSha,
    headShaInput: settings.headSha !== null,
    checkedOut,
    pullRequest,
    parentsOf: gitParents(dirname(runConfigPath(settings))),
  });
  return { commit, checkedOut };
}

/**
 * The events whose payload names the commit the report is about while `actions/checkout` checks
 * out another one by default (`checkRunCommit`): a refusal of the wiring goes on the former.
 */
const NAMES_ITS_COMMIT: readonly string[] = ['pull_request_target', 'workflow_run'];
