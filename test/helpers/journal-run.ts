/**
 * Runs of the built CLI killed for real, for the recovery-journal tests: a project whose
 * function logs its calls, a run started as a child, and what its journal holds.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import type { ResultsArtifact } from '../../src/types/index.ts';
import { STALE_MS } from '../../src/artifact/journal-read.ts';
import { evalsBin, functionProject, runCli } from './cli.ts';
import { waitUntil } from './wait-until.ts';

export const ROWS = 8;

/** A project whose function logs each call to `calls` and answers "x" after `delayMs`. */
export function project(delayMs = 150): string {
  return functionProject(
    {
      'fn.ts': `import { appendFileSync, existsSync, readFileSync } from 'node:fs';
const journaled = (file: string): string => (existsSync(file) ? readFileSync(file, 'utf8') : '');
export async function fn(input: { testCase: { n: string } }): Promise<string> {
  const n = input.testCase.n;
  appendFileSync('calls', n + '\\n');
  if (process.env.ABORT_AT === n) {
    // Once the journal holds a case (bounded): what is journaled is what --resume recovers.
    const until = Date.now() + 5000;
    while (Date.now() < until && !/^ {8}\\{/m.test(journaled('.r.json.journal.' + process.pid + '.d/run-0.jsonl'))) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    process.abort();
  }
  await new Promise((resolve) => setTimeout(resolve, ${delayMs}));
  return 'x';
}
`,
    },
    ['concurrency: 2'],
    ROWS,
  );
}

export const journalOf = (dir: string, output = 'r.json'): string =>
  join(dir, `.${output}.journal`);
/** The folders of the journal writing `output` (one per process that wrote it, of this run one). */
export function casesFolders(dir: string, output = 'r.json'): string[] {
  const stem = basename(journalOf(dir, output));
  return readdirSync(dir)
    .filter((name) => name.startsWith(`${stem}.`) && /\.\d+\.d$/.test(name))
    .map((name) => join(dir, name));
}
/** The file in the journal's folder that holds run `run`'s case lines. */
export function casesFileOf(dir: string, output = 'r.json', run = 0): string {
  const [folder] = casesFolders(dir, output);
  assert.ok(folder !== undefined, `the journal of ${output} has a folder`);
  return join(folder, `run-${run}.jsonl`);
}
/** What a run's journal holds: the journal's lines, then its case files' (every run's). */
export function journalText(dir: string, output = 'r.json'): string {
  const journal = journalOf(dir, output);
  if (!existsSync(journal)) return '';
  const files = casesFolders(dir, output).flatMap((folder) =>
    readdirSync(folder)
      .sort()
      .map((name) => join(folder, name)),
  );
  return [journal, ...files].map((file) => readFileSync(file, 'utf8')).join('');
}
export const calls = (dir: string): number =>
  existsSync(join(dir, 'calls'))
    ? readFileSync(join(dir, 'calls'), 'utf8').split('\n').length - 1
    : 0;
/** A case line of a journal: the artifact's own line (indented JSON and a comma). */
export const CASE_LINE = /^ {8}\{/;
/** The case lines journaled, once the journal has its frame (without which none is recovered). */
export function caseLines(dir: string, output = 'r.json'): number {
  const lines = journalText(dir, output).split('\n');
  return lines.some((line) => line.startsWith('F '))
    ? lines.filter((line) => CASE_LINE.test(line)).length
    : 0;
}
export const artifactAt = (path: string): ResultsArtifact =>
  JSON.parse(readFileSync(path, 'utf8')) as ResultsArtifact;

/**
 * `evals run ...args` in `dir`, as a child that the test kills or stops; `gone` resolves when
 * it is gone, `ended` with its exit code (null when a signal ended it) and what it wrote to stderr.
 */
export function start(
  dir: string,
  args: string[],
  env: Record<string, string> = {},
): {
  child: ChildProcess;
  gone: Promise<void>;
  ended: Promise<{ code: number | null; stderr: string }>;
} {
  const child = spawn(process.execPath, [evalsBin, 'run', ...args], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: '', CI: '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const ended = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stderr })),
  );
  return { child, gone: ended.then(() => undefined), ended };
}

/** Starts a run to r.json, waits (bounded) until `cases` case lines are journaled, kills it. */
export async function killedRun(
  dir: string,
  cases = 3,
  env: Record<string, string> = {},
): Promise<void> {
  const { child, gone } = start(dir, ['-o', 'r.json'], env);
  assert.ok(await waitUntil(() => caseLines(dir) >= cases, 100), 'cases reached the journal');
  child.kill('SIGKILL');
  await gone;
}

/** What an uninterrupted run and a finished one must agree on. */
export function essence(artifact: ResultsArtifact): unknown {
  return {
    verdict: artifact.verdict,
    interrupted: artifact.interrupted,
    runs: artifact.runs.map((run) => ({
      verdict: run.verdict,
      gate: run.gate,
      summary: { ...run.summary },
      cases: run.cases.map((c) => ({ id: c.id, output: c.output, passed: c.passed })),
    })),
  };
}

/**
 * Starts run A (`-o r.json`, then `args`; `firstArgs` before them for A alone), stops it once
 * `cases` case lines are journaled, makes its journal stale and starts run B (`-o r.json`,
 * then `args`), which takes that journal over; resolves once it has.
 */
export async function takenOver(
  dir: string,
  args: string[] = [],
  { firstArgs = [], cases = 2 }: { firstArgs?: string[]; cases?: number } = {},
): Promise<{ first: ReturnType<typeof start>; second: ReturnType<typeof start> }> {
  const first = start(dir, [...firstArgs, '-o', 'r.json', ...args]);
  // 30 s at most: a run's start under a loaded CI machine took more than 10 s (CI131).
  const journaled = await waitUntil(() => caseLines(dir) >= cases, 300);
  // A run left stopped would outlive the test: killed when a wait fails.
  if (!journaled) first.child.kill('SIGKILL');
  assert.ok(journaled, 'the first run journaled');
  first.child.kill('SIGSTOP');
  // Untouched for longer than a live writer leaves it: the next run takes it as left behind.
  const past = new Date(Date.now() - STALE_MS - 5_000);
  utimesSync(journalOf(dir), past, past);
  const second = start(dir, ['-o', 'r.json', ...args]);
  const secondsJournal = () =>
    existsSync(journalOf(dir)) &&
    readFileSync(journalOf(dir), 'utf8').includes(`"pid":${second.child.pid},`);
  const took = await waitUntil(secondsJournal, 300);
  if (!took) for (const run of [first, second]) run.child.kill('SIGKILL');
  assert.ok(took, 'the second run took the journal over');
  return { first, second };
}

/**
 * A copy of `project(delayMs)` in `dir/a` whose `.git/HEAD` is a FIFO nobody writes: a run of
 * `a/evals.yaml` (`config`) reads it once its cases are done, so it waits there, between its
 * last case and its artifact, until `release` writes it. `unhold` makes it a plain file again
 * (for the runs after). Runs of `dir`'s own config are not held.
 */
export function heldProject(dir: string, delayMs = 150) {
  const git = join(dir, 'a', '.git');
  cpSync(project(delayMs), join(dir, 'a'), { recursive: true });
  mkdirSync(git);
  execFileSync('mkfifo', [join(git, 'HEAD')]);
  return {
    config: ['a/evals.yaml'],
    release: () => writeFileSync(join(git, 'HEAD'), 'ref: refs/heads/main\n'),
    unhold: () => rmSync(git, { recursive: true }),
  };
}

/**
 * Lets `first` (stopped, its journal taken over, held by `held` after its last case) go on and
 * quits it with two Ctrl-Cs: the first at once, the second once it says it is stopping; the hold
 * is released once it quits (Node waits at exit for its file reads, the FIFO's included). Its end.
 */
export function quitTwice(
  first: ReturnType<typeof start>,
  held: { release(): void },
): ReturnType<typeof start>['ended'] {
  let stderr = '';
  let signals = 0;
  first.child.stderr?.on('data', (text: string) => {
    stderr += text;
    if (signals === 1 && stderr.includes('stopping:')) {
      signals++;
      first.child.kill('SIGINT');
    }
    if (stderr.includes('quit at the second signal')) held.release();
  });
  first.child.kill('SIGCONT');
  signals++;
  first.child.kill('SIGINT');
  return first.ended;
}

/** A run to r.json comparing with base.json, killed once two cases are journaled: its project. */
export async function killedComparedRun(): Promise<string> {
  const dir = project();
  const base = await runCli(['run', '-o', 'base.json'], { cwd: dir });
  assert.equal(base.code, 0, base.stderr);
  const { child, gone } = start(dir, ['-o', 'r.json', '--baseline', 'base.json']);
  assert.ok(await waitUntil(() => caseLines(dir) >= 2, 100), 'cases reached the journal');
  child.kill('SIGKILL');
  await gone;
  return dir;
}
