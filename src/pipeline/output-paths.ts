/**
 * The files a command writes at its end (`run`'s `-o`, `--junit` and `--report`, `merge`'s and
 * `report`'s `-o` and `--junit`, `testset convert`'s output, `init`'s folder), checked before it
 * starts, so a path that can never be written is a usage error (exit 2) instead of a command
 * that does its whole work and then cannot keep it. What is there is judged as the writer
 * (shared/write-file-atomic.ts) will treat it: links followed, devices and FIFOs written into.
 */
import { accessSync, constants, lstatSync, statSync, type Stats } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { LoadedConfig } from '../config/types.ts';
import { realPath } from '../shared/real-path.ts';
import { UsageError, usageError, type Issue } from '../shared/errors.ts';
import { outputTarget, type OutputTarget } from '../shared/write-file-atomic.ts';

/** One output file: the flag that names it, and the path as given. */
export interface OutputPath {
  flag: string;
  path: string;
}

/** The files `evals run` writes, by the flag that names each (with no `-o`, `--resume` names it). */
export function runOutputs(args: {
  output: string;
  resume?: string | undefined;
  junit?: string | undefined;
  report?: string | undefined;
}): OutputPath[] {
  return [
    { flag: args.output === args.resume ? '--resume' : '-o', path: args.output },
    ...(args.junit !== undefined ? [{ flag: '--junit', path: args.junit }] : []),
    ...(args.report !== undefined ? [{ flag: '--report', path: args.report }] : []),
  ];
}

/**
 * What `run` has not done when one of its outputs (`flag`) is refused: the file it names. An `-o`
 * left out when resuming is the `--resume` file itself, which the combined results replace.
 */
function nothingRun(flag: string): string {
  if (flag === '--resume') {
    return 'so the combined results could not replace it (give -o FILE to write them elsewhere); nothing was run';
  }
  const what =
    flag === '--report'
      ? 'the HTML report'
      : flag === '--junit'
        ? 'the JUnit report'
        : 'the results';
  return `so ${what} could not be written; nothing was run`;
}

/**
 * Refuses an output that is a folder, a block device or a socket, one under a file, one in a
 * folder that cannot be written to, a symbolic link to a folder that does not exist, and two
 * outputs that are one file (also through links). A missing parent folder is fine (it is
 * created). A link is judged by what it leads to, as the writer follows it; a character device
 * or a FIFO is written into as it is. `consequence` ends the message: what the refusal spared
 * (by default, a run, naming the file refused: the results, the JUnit or the HTML report).
 * Every output is checked: the problems of all of them are refused together, one issue each.
 */
export function checkOutputPaths(
  outputs: readonly OutputPath[],
  cwd: string,
  consequence?: string,
): void {
  const issues: Issue[] = [];
  const problem = (message: string): void => {
    issues.push({ code: 'cli.output', file: '', line: 0, col: 0, path: '', message });
  };
  const seen = new Map<string, string>();
  for (const { flag, path } of outputs) {
    if (path === DASH && flag !== '--resume') {
      problem(dashRefusal(flag, 'file', consequence ?? nothingRun(flag)));
      continue;
    }
    const target = outputTarget(resolve(cwd, path));
    // A character device takes any number of writes (`-o /dev/null --junit /dev/null`, or
    // `/dev/stdout` and `/dev/stderr` on one terminal); a file or a FIFO is one output's.
    if (target.stats?.isCharacterDevice() !== true) {
      const key = target.stats ? `${target.stats.dev}:${target.stats.ino}` : target.path;
      const other = seen.get(key);
      if (other !== undefined) {
        problem(`${flag} ${path}: the same file as ${other}; give each its own path`);
        continue;
      }
      seen.set(key, `${flag} ${path}`);
    }
    // `--resume FOLDER` with no `-o`: the folder is what `--resume` names, not a place to write.
    if (flag === '--resume' && target.kind === 'folder') {
      problem(
        `--resume ${path}: is a folder, not a results file (--resume names the file an interrupted run wrote); nothing was run`,
      );
      continue;
    }
    const why = outputProblem(target);
    if (why !== undefined) problem(refusal(flag, path, why, consequence ?? nothingRun(flag)));
  }
  if (issues.length > 0) throw new UsageError(issues);
}

/**
 * Refuses an output of `evals run` that is one of the files the run reads: the config, a
 * testset file, or a file its hash covers (a module or a file one imports, a prompt file, a
 * command script). `-o evals.yaml` for `-c evals.yaml`, or a completed name, would otherwise
 * replace the config, data or code with the results once the run is done. Checked once the
 * config is loaded, before any case runs.
 */
export function checkOutputsNotInputs(
  outputs: readonly OutputPath[],
  config: LoadedConfig,
  cwd: string,
): void {
  const inputs = new Map<string, string>([[realPath(config.absPath), 'the config itself']]);
  for (const suite of config.suites) {
    if (suite.testset.kind !== 'file') continue;
    const path = realPath(resolve(config.dir, suite.testset.path));
    if (!inputs.has(path)) inputs.set(path, `the testset of suite ${suite.id}`);
  }
  const parts = config.hashParts ?? { config: '' };
  const covered = [
    ['a prompt or message file of the config', parts.promptFiles],
    ['a module the config loads (or a file it imports)', parts.modules],
    ['a script a command target runs', parts.scripts],
  ] as const;
  for (const [what, files] of covered) {
    for (const name of Object.keys(files ?? {})) {
      const path = realPath(join(config.dir, name));
      if (!inputs.has(path)) inputs.set(path, what);
    }
  }
  for (const { flag, path } of outputs) {
    const input = inputs.get(realPath(resolve(cwd, path)));
    if (input !== undefined) {
      throw usageError(
        'cli.output',
        `${flag} ${path}: ${input}, which the run reads; name another file (nothing was run)`,
      );
    }
  }
}

/**
 * Refuses a folder that files are to be written into (`flag` names it) when it is a file, lies
 * under a file, or cannot be written to. A missing folder is fine (it is created).
 */
export function checkOutputFolder(
  flag: string,
  path: string,
  cwd: string,
  consequence: string,
): void {
  if (path === DASH) throw usageError('cli.output', dashRefusal(flag, 'folder', consequence));
  const absolute = resolve(cwd, path);
  const own = statOf(absolute);
  const problem =
    own === undefined
      ? parentProblem(absolute)
      : own.isDirectory()
        ? writeProblem(absolute)
        : 'is a file, not a folder';
  if (problem !== undefined) {
    throw usageError('cli.output', refusal(flag, path, problem, consequence));
  }
}

/**
 * `-`, which many tools read as standard output. No command of evals reads it so (`evals show -`
 * looks for a file named `-`, and `evals run` prints its summary on stdout, where results would
 * mix with it), and a file or folder named `-` surprises whoever expected the stream (`evals
 * init -` would then say `cd -`, which goes back to the previous folder): each output refuses it.
 */
const DASH = '-';

function dashRefusal(flag: string, what: 'file' | 'folder', consequence: string): string {
  const stream = what === 'file' ? 'name /dev/stdout to write to standard output, or ' : 'name ';
  return `${flag} -: "-" names no ${what} here; ${stream}./- for a ${what} named "-", ${consequence}`;
}

/**
 * Refuses `-` as the output file `flag` names (see DASH), before anything else is checked of
 * it; {@link checkOutputPaths} refuses it too, among the other problems of the outputs.
 */
export function checkNotDash(flag: string, path: string, consequence: string): void {
  if (path === DASH) throw usageError('cli.output', dashRefusal(flag, 'file', consequence));
}

function refusal(flag: string, path: string, problem: string, consequence: string): string {
  return `${flag} ${path}: ${problem}, ${consequence}`;
}

/** Why `target` cannot be written as a file, or undefined when it can. */
function outputProblem(target: OutputTarget): string | undefined {
  switch (target.kind) {
    case 'folder':
      return 'is a folder, not a file (name a file in it)';
    case 'other':
      return `is ${target.what}, not a file (name a regular file, a FIFO or a character device)`;
    case 'stream':
      return accessProblem(target.path, 'cannot write to it');
    case 'file':
      // A link that leads nowhere is written where it points, into a folder that must exist:
      // creating folders a link names would be guessing.
      return target.linked && !target.exists
        ? linkFolderProblem(target.path)
        : parentProblem(target.path);
  }
}

/** Why the file `path`, which a dangling link names, cannot be created. */
function linkFolderProblem(path: string): string | undefined {
  const folder = dirname(path);
  const stats = statOf(folder);
  if (stats === undefined) return `is a symbolic link to ${path}, whose folder does not exist`;
  if (!stats.isDirectory()) return `${folder} is a file, not a folder`;
  return writeProblem(folder);
}

/**
 * Why nothing can be created at `path` (which does not exist yet, or is a file to replace):
 * the nearest folder that exists above it is a file or cannot be written to.
 */
function parentProblem(path: string): string | undefined {
  let at = dirname(path);
  for (let depth = 0; depth < 4096; depth++) {
    const stats = statOf(at);
    if (stats !== undefined) {
      if (!stats.isDirectory()) return `${at} is a file, not a folder`;
      return writeProblem(at);
    }
    // A link that leads nowhere cannot become the folder: creating folders stops at it.
    if (isSymbolicLink(at)) return `${at} is a symbolic link to a folder that does not exist`;
    const parent = dirname(at);
    if (parent === at) return undefined;
    at = parent;
  }
  return undefined;
}

function isSymbolicLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Why files cannot be created in the folder `at`, or undefined when they can. */
function writeProblem(at: string): string | undefined {
  return accessProblem(at, `cannot write in ${at}`);
}

/** `what` and the reason when `path` cannot be written to, or undefined when it can. */
function accessProblem(path: string, what: string): string | undefined {
  try {
    accessSync(path, constants.W_OK);
    return undefined;
  } catch (error) {
    return `${what} (${(error as NodeJS.ErrnoException).code ?? 'denied'})`;
  }
}

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Refuses an output that is the `--baseline` file (also through a link): the command reads it,
 * and a report written there would replace those results with a page or XML. Only the reports'
 * flags are passed by `run` and `merge`, whose `-o` over the baseline is a rolling baseline.
 */
export function checkNotBaseline(
  outputs: readonly OutputPath[],
  baseline: string | undefined,
  cwd: string,
): void {
  if (baseline === undefined) return;
  const read = realPath(resolve(cwd, baseline));
  for (const { flag, path } of outputs) {
    if (realPath(resolve(cwd, path)) === read) {
      throw usageError(
        'cli.output',
        `${flag} ${path}: the baseline (--baseline ${baseline}); name another file`,
      );
    }
  }
}
