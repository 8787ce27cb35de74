/**
 * The job cancelled while the Action runs. GitHub's runner sends the step's node process SIGINT,
 * then SIGTERM 7.5 s later if it is still running, then kills its process tree 2.5 s after that
 * (docs.github.com, "Workflow cancellation reference"). Node's default for either signal ends the
 * process at once, with nothing said and the check run not posted; so from the start of the run
 * the Action hears them itself: the run in progress stops as on Ctrl-C (`run-evals.ts`), every
 * wait for GitHub ends (`RetryBudget.cancelAll`), what is left of the report is posted without
 * retries, and the step fails, saying it was cancelled.
 */
import * as core from '@actions/core';
import type { RetryBudget } from '../github/retry-budget.ts';

/** The signals a runner cancels a step with. */
const CANCEL_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** What {@link watchCancel} reports while it listens. */
export interface CancelWatch {
  /** The first signal heard (`SIGTERM`), or null. */
  heard(): string | null;
  /** Stops listening (Node's defaults apply again). */
  stop(): void;
}

/** Listens for the runner's cancel signals; on the first, `budget` grants no more waits. */
export function watchCancel(budget: RetryBudget): CancelWatch {
  let heard: string | null = null;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (heard !== null) return;
    heard = signal;
    budget.cancelAll(`the job was cancelled (${signal})`);
    core.info(
      `evalgate: the job was cancelled (${signal}): finishing the report without waiting for GitHub`,
    );
  };
  for (const name of CANCEL_SIGNALS) process.on(name, onSignal);
  return {
    heard: () => heard,
    stop: () => {
      for (const name of CANCEL_SIGNALS) process.off(name, onSignal);
    },
  };
}
