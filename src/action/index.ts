// The Action's entry point (bundled into dist/index.js): everything happens in run().
import * as core from '@actions/core';
import { endAfterCommand, watchUnfinished } from '../pipeline/late-exit.ts';
import { run } from './main.ts';

// The cases' code runs in this process and may leave timers behind: one that ends the process
// must not end the step as if it had finished, nor may one that never ends hold the job.
const unwatch = watchUnfinished(process.stderr, 'the Action');
await run().catch((error: unknown) =>
  core.setFailed(error instanceof Error ? (error.stack ?? error.message) : String(error)),
);
unwatch();
endAfterCommand(Number(process.exitCode ?? 0), process.stderr);
