#!/usr/bin/env node
// Thin launcher: the CLI is bundled into lib/cli.bundle.js by `npm run build` (run on install by `prepare`).
import module from 'node:module';

// Node >= 22.1 can cache compiled code between runs (the Action runs on Node 24); a no-op on 20.
module.enableCompileCache?.();

const { main } = await import('../lib/cli.bundle.js');
const code = await main(process.argv.slice(2));
process.exitCode = code;
// User code may leave timers or sockets open (an abandoned call after an interrupt, an HTTP
// keep-alive agent). The run is over and its artifact written, so don't wait on them for long.
setTimeout(() => process.exit(code), 1000).unref();
