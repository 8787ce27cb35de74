// The Action's entry point (bundled into dist/index.js): everything happens in run().
import * as core from '@actions/core';
import { run } from './main.ts';

await run().catch((error: unknown) =>
  core.setFailed(error instanceof Error ? (error.stack ?? error.message) : String(error)),
);
