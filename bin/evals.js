#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in lib/ (built by `npm run build`, run on install by `prepare`).
import { main } from '../lib/cli.js';

const code = await main(process.argv.slice(2));
process.exitCode = code;
// User code may leave timers or sockets open (an abandoned call after an interrupt, an HTTP
// keep-alive agent). The run is over and its artifact written, so don't wait on them for long.
setTimeout(() => process.exit(code), 1000).unref();
