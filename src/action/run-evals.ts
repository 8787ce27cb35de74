/**
 * The results the Action reports on: the evals run in-process through the same pipeline as
 * `evals run` (`mode: run`), or an artifact an earlier job wrote (`mode: report`). Either way
 * the cases come as the reports read them (`reportedArtifact`), with the config's place in the
 * repository. A config or input mistake fails the step here, with annotations at its lines.
 */
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import * as core from '@actions/core';
import { parseRunArgs } from '../cli/run-args.ts';
import { resolveConfigArg } from '../pipeline/config-discovery.ts';
import type { CommandContext } from '../pipeline/context.ts';
import { executeRun, type RunArgs } from '../pipeline/run.ts';
import { runOutputs } from '../pipeline/output-paths.ts';
import { incompleteRun } from './incomplete-run.ts';
import { checkRunEnd, outputsBefore } from '../pipeline/written-check.ts';
import { UsageError, formatIssue } from '../shared/errors.ts';
import { checkoutRoot } from '../shared/checkout-root.ts';
import { openArtifactFile, readArtifact } from '../artifact/read.ts';
import { unknownFieldsNote } from '../artifact/unknown-fields.ts';
import { toolVersion } from '../shared/version.ts';
import type { Reporter } from '../report/reporter.ts';
import {
  REPORTED_WHOLE_CASES,
  reportedArtifact,
  type ReportedArtifact,
} from '../report/reported-cases.ts';
import { actionSecrets, envValuesRead } from '../config/secrets.ts';
import { declareSecret } from '../shared/secrets.ts';
import { createScrubber, secretsInEnv } from '../shared/secrets.ts';
import type { ResolvedBaseline } from './baseline.ts';
import { cut, refusedRun, type NotStarted } from './not-started.ts';
import type { ActionSettings } from './settings.ts';

/** What the reports are made from. */
export interface EvalResults {
  artifact: ReportedArtifact;
  /** The config file, repository-relative: the reports' title, where source-less cases point. */
  configPath: string;
  /** The config's folder, repository-relative, '' at the root: case sources are relative to it. */
  sourceRoot: string;
  /** The `evals run` arguments the results were made with; none in `mode: report`. */
  args: readonly string[];
  /**
   * The HTML report this run was to write, absolute: the `report` input's beside the results, or
   * the one a `--report` in `args` names; absent when none (`report: false`, `mode: report`).
   */
  report?: string;
  /**
   * Why the run's own files are incomplete, when they are: a results or report file that could
   * not be written (`evals run` exit 3), or a run interrupted by a signal (exit 130). The
   * reports still go out from what the run holds; the step fails with this message.
   */
  incomplete?: string;
  /**
   * Why the results were not compared with the baseline asked for (none found, unreadable, or no
   * case in common): the reports say so, so that no one takes them for a check of regressions.
   */
  uncompared?: string;
}

/**
 * Keeps `value` out of everything the Action leaves behind: masked in the log (`core.setSecret`)
 * and scrubbed from the results file, the reports, the PR comment, the check run and the job
 * summary (`declareSecret`). One set of secrets for both, so nothing masked in the log is posted.
 */
export function protectSecret(value: string): void {
  core.setSecret(value);
  declareSecret(value);
}

/**
 * The values of the environment variables the config reads (`${DEPLOY_PAT}`), whatever their
 * names, are secrets (see `actionSecrets` for the few left alone): a key echoed by user code or
 * an error message never shows in the log or in what the Action posts. Returns them.
 */
export async function maskReferencedSecrets(
  configPath: string,
  env: NodeJS.ProcessEnv,
): Promise<string[]> {
  const text = await readFile(configPath, 'utf8').catch(() => '');
  const secrets = actionSecrets(envValuesRead(text, env));
  for (const value of secrets) protectSecret(value);
  return secrets;
}

/**
 * The environment the evals run with: the step's, without the Action's inputs (`INPUT_*`). The
 * program under test must not get the write-scoped `github-token` (`INPUT_GITHUB-TOKEN`), no
 * more than a `run: npm test` step would; the inputs were read once, into the settings.
 */
export function evalEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !isActionInput(name)));
}

/**
 * What the runner hands an action and not a `run:` step, so not the code under test either:
 * its inputs (`INPUT_GITHUB-TOKEN`, `INPUT_CONFIG`, …) and the runtime's own credentials for
 * artifacts and caches (`ACTIONS_RUNTIME_TOKEN`, `ACTIONS_CACHE_URL`, …). The OIDC request
 * variables stay: a `run:` step with `id-token: write` has them too.
 */
export function isActionInput(name: string): boolean {
  return /^INPUT_/i.test(name) || /^ACTIONS_(RUNTIME_|CACHE_|RESULTS_)/i.test(name);
}

/**
 * The config file the Action reads, absolute: in `mode: run` the one the `args` input names
 * (`args: nightly.yaml`, the word `evals run` takes for its config) when it names one, else the
 * `config` input's; a folder stands for its `evals.yaml` (or `evals.yml`), as `evals run` reads
 * it. Its `${VAR}` values are the ones to mask, and its folder is where case sources are. Args the
 * CLI's parser refuses, or a config that cannot be found, give the path as named: nothing runs
 * then, and `runEvals` (or `readResults`) says why.
 */
export function runConfigPath(settings: ActionSettings): string {
  const cwd = settings.workingDirectory;
  let named: string | undefined;
  try {
    if (settings.mode === 'run') named = parseRunArgs(settings.args).config;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
  }
  const config = named ?? settings.config;
  try {
    const ctx: CommandContext = { cwd, env: {}, stdout: process.stdout, stderr: process.stderr };
    return resolve(cwd, resolveConfigArg(config, ctx));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return resolve(cwd, config);
  }
}

/**
 * Runs the evals in-process; when the config or inputs are bad, fails the step and says why
 * (`NotStarted`), for the check run and job summary to say too. `cancelled` already aborted
 * (the job was cancelled before the run began) stops the run before any case.
 */
export async function runEvals(
  settings: ActionSettings,
  workspace: string,
  env: NodeJS.ProcessEnv,
  baseline: ResolvedBaseline,
  cancelled?: AbortSignal,
): Promise<EvalResults | NotStarted> {
  const interrupt = new AbortController();
  const onSignal = (): void => interrupt.abort();
  // Cancelled before the run (while the baseline was fetched): it stops before any case.
  if (cancelled?.aborted === true) interrupt.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const ctx: CommandContext = {
      cwd: settings.workingDirectory,
      env: evalEnvironment(env),
      stdout: process.stdout,
      stderr: process.stderr,
    };
    const args = runArgs(settings, workspace, interrupt.signal);
    // The PR comment, check-run annotations and job summary read the cases once the run is
    // over, from its case log: the first failing ones of each run whole, the others reduced.
    let reported: ReportedArtifact | undefined;
    const pullRequestCases: Reporter = {
      onRunEnd({ artifact, log }) {
        reported = reportedArtifact(artifact, (run) => log.cases(run), wholeCases(settings));
      },
    };
    const outputs = outputsBefore(runOutputs(args), ctx.cwd);
    const outcome = await executeRun(
      {
        ...args,
        ...(baseline.file !== null && { baseline: baseline.file, baselineName: baseline.shown }),
        ...(baseline.file === null &&
          baseline.missing !== null && { baselineMissing: baseline.missing }),
      },
      ctx,
      [pullRequestCases],
    );
    // Said on stderr by the run; a warning here, and in the reports (`uncompared`).
    if (outcome.uncompared !== undefined) {
      core.warning(
        `evalgate: ${outcome.uncompared}; no comparison, so regressions were not checked`,
      );
    }
    const uncompared = baseline.file === null ? baseline.missing : (outcome.uncompared ?? null);
    // As `evals run` ends (pipeline/written-check.ts): the step must not pass on results that
    // code under test kept from being written, or wrote through built-ins it replaced.
    const { lines } = checkRunEnd(outputs, {
      exitCode: outcome.exitCode,
      interrupted: outcome.artifact.interrupted,
      failed: outcome.unwritten,
    });
    for (const line of lines) ctx.stderr.write(`error: ${line}\n`);
    const incomplete =
      incompleteRun(outcome, args.output) ?? (lines.length > 0 ? lines.join('; ') : undefined);
    return {
      ...located(
        workspace,
        reported ?? reportedArtifact(outcome.artifact, () => []),
        outcome.config.absPath,
      ),
      args: settings.args,
      ...(args.report !== undefined && { report: resolve(settings.workingDirectory, args.report) }),
      ...(incomplete !== undefined && { incomplete }),
      ...(uncompared !== null && { uncompared }),
    };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return reportUsageError(error, settings, workspace);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** `mode: report`: an artifact made by an earlier job; nothing of the PR's code runs here. */
export function readResults(
  settings: ActionSettings,
  workspace: string,
  env: NodeJS.ProcessEnv,
): EvalResults | NotStarted {
  // A merged artifact of a sharded suite can hold hundreds of thousands of cases: read it a case
  // at a time, keeping each as the reports read it (the first failing ones of each run whole,
  // the others reduced).
  const name = relative(settings.workingDirectory, settings.results);
  const artifact = readArtifact(() => {
    // A quote of text that is not JSON is scrubbed before it is cut (see `baselineProblem`).
    const scrub = createScrubber(secretsInEnv(env)).text;
    const file = openArtifactFile(settings.results, name, { scrub });
    const reported = reportedArtifact(file.frame, (run) => file.cases(run), wholeCases(settings));
    // Written by a newer evalgate: what it added is ignored, and the log says so.
    const note = unknownFieldsNote(name, scrub(file.frame.tool.version), toolVersion, file.unknown);
    if (note !== null) core.info(`note: ${scrub(note)}`);
    return reported;
  });
  // One shard's verdict covers only its cases: reported under the config's name it would be a
  // green required check for a run whose other shards may fail. A shard is reported by the job
  // that ran it (`args: --shard I/N`, docs/action.md#sharded-runs-one-merged-comment).
  // Results of a run that let a stale testset pin through are refused, as `--ignore-pin` is in
  // `mode: run`: a pull request is gated on the pinned testsets, whichever job ran them.
  const refused = !artifact.ok
    ? artifact.message
    : artifact.value.shard !== undefined
      ? unmergedShard(name, artifact.value.shard)
      : artifact.value.pinIgnored === true
        ? pinIgnoredResults(name)
        : null;
  if (!artifact.ok || refused !== null) {
    // The report's check run says so too (failed), or a required check would wait for good.
    core.setOutput('verdict', 'error');
    return refusedRun({
      reason: 'the results file was refused (mode: report)',
      messages: [refused ?? ''],
      configPath: notStartedConfigPath(settings, workspace),
      args: [],
      failure: `evalgate (mode: report): ${refused ?? ''}`,
      logged: false,
      scrub: createScrubber(secretsInEnv(env)).text,
    });
  }
  // Results whose run was not compared with the baseline it was given: the reports say so.
  const why = artifact.value.notCompared?.why;
  return {
    ...located(workspace, artifact.value, runConfigPath(settings)),
    args: [],
    ...(why !== undefined && artifact.value.comparison === undefined && { uncompared: why }),
  };
}

/** Why `mode: report` refuses the artifact `name` of one shard of a run. */
export function unmergedShard(name: string, shard: { index: number; count: number }): string {
  return `${name} is shard ${shard.index} of ${shard.count}: merge the shards with evals merge first (evals merge SHARD_FILES… -o merged.json, then results: merged.json); one shard's verdict covers only its own cases, not the whole config (docs/sharding.md)`;
}

/** Why `mode: report` refuses the artifact `name` of a run made with `--ignore-pin`. */
export function pinIgnoredResults(name: string): string {
  return `${name} was run with --ignore-pin (pinIgnored: true): a testset did not match its pinned revision, and a pull request is gated on the pinned testsets, as mode: run refuses --ignore-pin; pin the testset as it is now (evals testset pin) or undo its change, then run again without --ignore-pin`;
}

/**
 * How many cases of a run the reports keep whole: enough for every annotation asked for, and at
 * least `REPORTED_WHOLE_CASES` for the comment and job summary to list.
 */
function wholeCases(settings: ActionSettings): number {
  return Math.max(settings.maxAnnotations, REPORTED_WHOLE_CASES);
}

/** `evals run` arguments: the `args` input through the CLI's own parser, then the inputs. */
function runArgs(settings: ActionSettings, workspace: string, signal: AbortSignal): RunArgs {
  const parsed = parseRunArgs(settings.args);
  return {
    ...parsed,
    config: parsed.config ?? settings.config,
    output: settings.results,
    // The `args` input may name its own --report; else the `report` input's file.
    ...(parsed.report === undefined && settings.report !== null ? { report: settings.report } : {}),
    signal,
    loader: {
      tsxSearchFrom: [
        dirname(resolve(settings.workingDirectory, parsed.config ?? settings.config)),
        settings.workingDirectory,
        workspace,
      ],
    },
  };
}

/**
 * Config problems, for the check run and job summary, each scrubbed of the declared secrets, then
 * cut short; and for the step's errors at the config's lines, which `publishNotStarted` logs
 * (without the lines the check run annotates) before it fails the step.
 */
function reportUsageError(
  error: UsageError,
  settings: ActionSettings,
  workspace: string,
): NotStarted {
  const scrub = createScrubber([]).text;
  const problems: NotStarted['problems'][number][] = [];
  for (const issue of error.issues) {
    const path = issue.file ? resolve(settings.workingDirectory, issue.file) : undefined;
    const file = path ? toRepoPath(repositoryRoot(dirname(path), workspace), path) : undefined;
    const message = issue.path ? `${issue.path}: ${issue.message}` : issue.message;
    // A check-run annotation needs a line of a file in the repository.
    const inRepository = file !== undefined && file !== '.' && !isAbsolute(file);
    problems.push({
      text: cut(scrub(formatIssue(issue))),
      message: cut(scrub(message)),
      ...(inRepository && issue.line > 0 && { at: { path: file, line: issue.line } }),
      log: {
        message,
        properties: {
          ...(file ? { file } : {}),
          ...(issue.line > 0 ? { startLine: issue.line, startColumn: issue.col || 1 } : {}),
          title: 'evalgate: invalid input',
        },
      },
    });
  }
  const lines = error.issues.length > 0 ? error.issues.map(formatIssue) : [error.message];
  // Said now, for the outputs a later step reads; the step fails once the check run is out.
  core.setOutput('verdict', 'error');
  if (problems.length === 0) {
    const text = cut(scrub(error.message));
    problems.push({ text, message: text });
  }
  return {
    kind: 'not-started',
    reason: 'the config or the args input is invalid',
    configPath: repoConfigPath(workspace, runConfigPath(settings)),
    // As the results would have named the report (`args` is read in mode: run only).
    args: settings.args,
    problems,
    failure: `evalgate could not run:\n${lines.join('\n')}`,
  };
}

/** The config file, repository-relative, as the reports name it, whether or not it is there. */
export function notStartedConfigPath(settings: ActionSettings, workspace: string): string {
  return repoConfigPath(workspace, runConfigPath(settings));
}

/** The config file, repository-relative, as {@link located} names it. */
function repoConfigPath(workspace: string, configFile: string): string {
  return toRepoPath(repositoryRoot(dirname(configFile), workspace), configFile);
}

/** The results with their config's place in the repository. */
function located(
  workspace: string,
  artifact: ReportedArtifact,
  configFile: string,
): Omit<EvalResults, 'args'> {
  const root = repositoryRoot(dirname(configFile), workspace);
  const sourceRoot = toRepoPath(root, dirname(configFile));
  return {
    artifact,
    configPath: toRepoPath(root, configFile),
    sourceRoot: sourceRoot === '.' ? '' : sourceRoot,
  };
}

/**
 * The root of the git checkout holding `dir`: the nearest folder at or above it with a `.git`
 * (a folder, or a file in a worktree or submodule). GitHub places annotations by
 * repository-relative path, and `actions/checkout` with `path:` puts the repository below
 * `GITHUB_WORKSPACE`, so paths relative to the workspace would miss (`repo/testsets/qa.csv`).
 * The workspace when there is no checkout around `dir`.
 */
export function repositoryRoot(dir: string, workspace: string): string {
  return checkoutRoot(dir) ?? workspace;
}

/** A repository-relative POSIX path for annotations; absolute when outside the repository. */
function toRepoPath(root: string, path: string): string {
  const rel = relative(root, path);
  if (rel === '') return '.';
  return rel.startsWith('..') || isAbsolute(rel) ? path : rel.split(sep).join('/');
}
