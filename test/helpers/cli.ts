/**
 * End-to-end helpers: run the real `bin/evals.js` (the compiled CLI) as a child process in a
 * scratch copy of a fixture project, or load and prepare a project's suites in-process.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CommandContext } from '../../src/pipeline/context.ts';
import { loadAndPrepare, type PrepareOverrides } from '../../src/pipeline/load.ts';
import type { RunFilters } from '../../src/plan/types.ts';
import type { SuiteSpec } from '../../src/run/types.ts';
import { tempFolder } from './temp.ts';

export { besideScratch, tempFolder } from './temp.ts';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const evalsBin = join(repoRoot, 'bin', 'evals.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * A fresh temp folder holding a copy of `test/fixtures/e2e/<name>` (or nothing). It is removed
 * when the test process (one per test file) exits, so runs leave no folders behind;
 * `EVALGATE_KEEP_SCRATCH=1` keeps them, to look into a failure.
 */
export function scratch(fixture?: string): string {
  const dir = tempFolder('evalgate-e2e-');
  if (fixture) cpSync(join(repoRoot, 'test', 'fixtures', 'e2e', fixture), dir, { recursive: true });
  return dir;
}

/** Writes `files` (relative path → text) under `dir`. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}

/**
 * A scratch project whose evals.yaml has one suite, `s`, over `rows.csv` (holding `csv`), with
 * `settings` (YAML lines of the suite, indented as its keys) added to it.
 */
export function oneSuiteProject(csv: string, settings: string[]): string {
  const dir = scratch();
  const suite = [
    '  - id: s',
    '    testset: { path: rows.csv }',
    ...settings.map((l) => `    ${l}`),
  ];
  writeFiles(dir, {
    'evals.yaml': ['version: 1', 'suites:', ...suite, ''].join('\n'),
    'rows.csv': csv,
  });
  return dir;
}

/**
 * A scratch project whose suite `s` runs `fn.ts#fn` over rows n = 1..`rows`, checked by an
 * `ok` evaluator expecting "x", with `settings` added to the suite and `files` (at least `fn.ts`)
 * written beside it.
 */
export function functionProject(
  files: Record<string, string>,
  settings: string[] = [],
  rows = 4,
): string {
  const csv = ['n', ...Array.from({ length: rows }, (_, i) => String(i + 1)), ''].join('\n');
  const dir = oneSuiteProject(csv, [
    'function: ./fn.ts#fn',
    ...settings,
    'evaluators:',
    '  - { id: ok, use: is-equals, with: { expected: "x" } }',
  ]);
  writeFiles(dir, files);
  return dir;
}

/**
 * The suites `evals run` would run in `dir` (its evals.yaml), prepared in this process: with
 * their cases held unless `overrides` says `stream` (as `evals run` itself does).
 */
export async function preparedSuites(
  dir: string,
  filters: RunFilters = {},
  overrides: PrepareOverrides = {},
): Promise<SuiteSpec[]> {
  const quiet = { write: () => true };
  const ctx: CommandContext = { cwd: dir, env: {}, stdout: quiet, stderr: quiet };
  return (await loadAndPrepare(undefined, ctx, filters, {}, overrides)).suites;
}

export interface RunOptions {
  cwd: string;
  env?: Record<string, string | undefined>;
  /** Called once with the child, e.g. to send a signal. */
  onSpawn?: (child: ReturnType<typeof spawn>) => void;
  /** Kill the child after this long (default 60 s) so a hung run fails the test instead of CI. */
  timeoutMs?: number;
}

/** Runs `node bin/evals.js ...args` and collects its output. */
export function runCli(args: string[], options: RunOptions): Promise<CliResult> {
  return runNode([evalsBin, ...args], options);
}

/** Runs `node ...args` and collects its output. */
export function runNode(args: string[], options: RunOptions): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: options.cwd,
      env: { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: '', CI: '', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    options.onSpawn?.(child);
  });
}
