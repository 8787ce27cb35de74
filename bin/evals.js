#!/usr/bin/env node
// Thin launcher: the CLI is bundled into lib/cli.bundle.js by `npm run build` (run before packing by `prepack`).
import module from 'node:module';

// A signal that arrives while the CLI loads is held for it (not left to end the process with
// no word); the CLI handles it as soon as it runs.
const early = [];
const hold = (signal) => early.push(signal);
process.on('SIGINT', hold);
process.on('SIGTERM', hold);
process.on('SIGHUP', hold);

// Node >= 22.1 can cache compiled code between runs (the Action runs on Node 24); a no-op on 20.
module.enableCompileCache?.();

const { main } = await import('../lib/cli.bundle.js');
// `main` installs its own handlers before it first waits; only then are these let go (with no
// listener in between, Node would drop a signal that is pending now).
const running = main(process.argv.slice(2), early);
process.off('SIGINT', hold);
process.off('SIGTERM', hold);
process.off('SIGHUP', hold);
// `main` has set the process to end with its exit code once idle, or a second at most after
// (src/pipeline/late-exit.ts); the code is also set here for an exit that comes first.
process.exitCode = await running;
