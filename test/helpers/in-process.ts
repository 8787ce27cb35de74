/**
 * Runs the CLI in this process (`cli` with collected output), for end-to-end tests that need
 * neither a fresh process nor the built `lib/`: config-only suites, targets, validation.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../../src/cli/main.ts';
import { scratch, writeFiles } from './cli.ts';

export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `evals ...argv` in `cwd`, with `env` over this process's environment (PATH kept). */
export async function runInProcess(
  argv: string[],
  cwd: string,
  env: Record<string, string | undefined> = {},
): Promise<InProcessResult> {
  let stdout = '';
  let stderr = '';
  const code = await cli(argv, {
    cwd,
    env: { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: '', CI: '', ...env },
    stdout: { write: (text: string) => ((stdout += text), true) },
    stderr: { write: (text: string) => ((stderr += text), true) },
  });
  return { code, stdout, stderr };
}

/** A case of a results artifact, as the tests read it. */
export interface ArtifactCase {
  id: string;
  data: Record<string, unknown>;
  output?: unknown;
  error?: string;
  passed: boolean;
  durationMs: number;
  usage?: Record<string, number>;
  evaluations: {
    evaluator: string;
    score: number | null;
    passed: boolean | null;
    error: string | null;
  }[];
}

/** The cases of every run of the artifact at `dir/file`, with each run's params. */
export function artifactCases(
  dir: string,
  file = 'results.json',
): { params: Record<string, unknown>; cases: ArtifactCase[] }[] {
  const artifact = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
    runs: { params: Record<string, unknown>; cases: ArtifactCase[] }[];
  };
  return artifact.runs.map((run) => ({ params: run.params, cases: run.cases }));
}

/**
 * A scratch project whose evals.yaml has one suite, `s`, over `rows.jsonl` (one line per row),
 * with `suite` (YAML lines of the suite, indented as its keys) added to it, `files` beside it
 * and `top` (YAML lines such as `defaults:`) before `suites:`.
 */
export function jsonlProject(
  rows: readonly Record<string, unknown>[],
  suite: readonly string[],
  files: Record<string, string> = {},
  top: readonly string[] = [],
): string {
  const dir = scratch();
  writeFiles(dir, {
    'evals.yaml': [
      'version: 1',
      ...top,
      'suites:',
      '  - id: s',
      '    testset: { path: rows.jsonl }',
      ...suite.map((line) => `    ${line}`),
      '',
    ].join('\n'),
    'rows.jsonl': rows.map((row) => JSON.stringify(row)).join('\n') + '\n',
    ...files,
  });
  return dir;
}

/**
 * The project of the baseline tests: `rows` rows `{ id: "c0" }`, `{ id: "c1" }`, … through the
 * function `fn` that `module` (the text of m.mjs) exports, one `is-equals ok` evaluator, and a
 * gate that passes any pass rate but blocks on a significant regression. `concurrency: 1` runs
 * the cases in row order, for a test that stops the run at a given row.
 */
export function regressionProject(
  module: string,
  options: { rows?: number; concurrency?: number } = {},
): string {
  const { rows = 24, concurrency } = options;
  return jsonlProject(
    Array.from({ length: rows }, (_, n) => ({ id: `c${n}` })),
    [
      'hash: [id]',
      ...(concurrency === undefined ? [] : [`concurrency: ${concurrency}`]),
      'function: ./m.mjs#fn',
      'evaluators:',
      '  - { id: eq, use: is-equals, with: { expected: ok } }',
      'gate: { minPassRate: 0, regressions: block }',
    ],
    { 'm.mjs': module },
  );
}

/** Every file under `dir`, recursively, as one text (to search what a run wrote anywhere). */
export function allText(dir: string): string {
  let text = '';
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    text += statSync(path).isDirectory() ? allText(path) : readFileSync(path, 'utf8');
  }
  return text;
}

/**
 * `evals ...argv` in `dir`, in this process, interrupted as a Ctrl-C would be when the suite's
 * code calls `globalThis[stopKey]()` (if it does); its exit code and stderr.
 */
export async function stoppableRun(
  stopKey: string,
  argv: string[],
  dir: string,
): Promise<{ code: number; stderr: string }> {
  const controller = new AbortController();
  let stderr = '';
  (globalThis as Record<string, unknown>)[stopKey] = () => controller.abort();
  try {
    const code = await cli(
      argv,
      {
        cwd: dir,
        env: { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: '', CI: '' },
        stdout: { write: () => true },
        stderr: { write: (text: string) => ((stderr += text), true) },
      },
      controller.signal,
    );
    return { code, stderr };
  } finally {
    delete (globalThis as Record<string, unknown>)[stopKey];
  }
}

/** {@link stoppableRun} that must be interrupted (exit 130); its stderr. */
export async function interruptedRun(
  stopKey: string,
  argv: string[],
  dir: string,
): Promise<string> {
  const { code, stderr } = await stoppableRun(stopKey, argv, dir);
  assert.equal(code, 130, stderr);
  return stderr;
}
