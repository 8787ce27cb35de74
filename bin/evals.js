#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in lib/ (built by `npm run build`, run on install by `prepare`).
import { main } from '../lib/cli.js';

process.exitCode = await main(process.argv.slice(2));
