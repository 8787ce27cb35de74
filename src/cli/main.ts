import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { CommandContext } from '../pipeline/context.ts';
import { EXIT, runCommand, type RunArgs } from '../pipeline/run.ts';
import { validateCommand } from './validate.ts';
import { UsageError, formatIssue, usageError } from '../shared/errors.ts';
import { parseShard } from '../plan/shard.ts';
import { toolVersion } from '../shared/version.ts';

const MAIN_HELP = `evals ${toolVersion} — declarative evaluations for LLM applications

Usage: evals <command> [options]

Commands:
  run [config]       Run the suites of a config and write the results artifact
  validate [config]  Check a config, its testsets and modules without running anything
  init [dir]         Write a working example project (evals.yaml, testset, function, evaluator)
  compare BASE HEAD  Compare two results artifacts: paired statistics per evaluator and pass rate
  merge FILES… -o F  Combine the artifacts of evals run --shard i/n into the whole run's artifact
  testset <command>  Versioned testsets: revision, show, diff, log, convert, pin (see evals testset --help)

Options:
  -h, --help         Show help (also after a command: evals run --help)
  -v, --version      Print the version

The config defaults to ./evals.yaml (or ./evals.yml).
Exit codes: 0 pass · 1 fail · 2 bad usage or config · 130 interrupted.
`;

const RUN_HELP = `Usage: evals run [config] [options]

Runs every suite of the config (default ./evals.yaml) and writes the JSON results artifact.

Options:
  -o, --output FILE     Results artifact path (default: evals-results.json)
      --suite ID        Run only this suite (repeatable)
      --grid KEY=VALUE  Run only grid points where KEY has VALUE (repeatable; values of one key are OR-ed)
      --tag TAG         Run only cases whose __tags__ include TAG (repeatable)
      --concurrency N   Cap cases in flight across the whole process
      --trials N        Run each case N times in every suite (overrides trials: in the config);
                        scores are averaged per case, cases passing some trials are marked flaky
      --junit FILE      Also write a JUnit XML report (one <testsuite> per suite and grid point)
      --baseline FILE   Compare with an earlier results artifact: the comparison is printed and
                        embedded in the artifact; gate.regressions decides if a regression fails
      --shard I/N       Run only shard I of N (1 ≤ I ≤ N): the cases whose identity hashes to it,
                        with every grid point and trial; combine the N artifacts with evals merge
      --resume FILE     Finish an interrupted run: run only the cases FILE (an artifact with
                        interrupted: true) has no result for, then write the combined artifact
      --no-cache        Send every judge and embedding call to the server (no cache read or write)
      --cache-dir DIR   Judge call cache (default: .evalgate/cache next to the config)
      --update-baselines
                        automatic-battle: record missing baselines and replace those that lost
  -h, --help            Show this help

Exit codes: 0 verdict pass · 1 verdict fail · 2 bad usage or config (nothing ran) ·
130 interrupted (the partial artifact is written first, with interrupted: true).
`;

const VALIDATE_HELP = `Usage: evals validate [config]

Checks the config (default ./evals.yaml) against the schema and the semantic rules, reads every
testset, checks revision pins and loads every module, without running any case.
Exit codes: 0 valid · 2 problems found (each printed as file:line:col).
`;

const INIT_HELP = `Usage: evals init [dir]

Writes a small working project into dir (default: the current folder): evals.yaml, a CSV testset,
a TypeScript function under test and a custom evaluator. Existing files are never overwritten.
`;

type Command = 'run' | 'validate' | 'init';

const OPTIONS = {
  run: {
    output: { type: 'string', short: 'o', default: 'evals-results.json' },
    suite: { type: 'string', multiple: true },
    grid: { type: 'string', multiple: true },
    tag: { type: 'string', multiple: true },
    concurrency: { type: 'string' },
    trials: { type: 'string' },
    junit: { type: 'string' },
    baseline: { type: 'string' },
    shard: { type: 'string' },
    resume: { type: 'string' },
    'no-cache': { type: 'boolean' },
    'cache-dir': { type: 'string' },
    'update-baselines': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
  validate: { help: { type: 'boolean', short: 'h' } },
  init: { help: { type: 'boolean', short: 'h' } },
} satisfies Record<Command, ParseArgsConfig['options']>;

const HELP: Record<Command, string> = { run: RUN_HELP, validate: VALIDATE_HELP, init: INIT_HELP };

/** Process-level wiring: real streams, environment and signals. Returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  const ctx: CommandContext = {
    cwd: process.cwd(),
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
  };
  const interrupt = new AbortController();
  let signals = 0;
  const onSignal = (): void => {
    signals += 1;
    if (signals === 1) {
      ctx.stderr.write(
        '\nstopping: no new cases start; writing the partial artifact with the cases that finished (press Ctrl-C again to quit now)\n',
      );
      interrupt.abort();
    } else {
      process.exit(EXIT.interrupted);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await cli(argv, ctx, interrupt.signal);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/**
 * Parses argv and dispatches. The one place where user mistakes become exit code 2 with a
 * plain message; anything else is a bug and keeps its stack trace.
 */
export async function cli(
  argv: string[],
  ctx: CommandContext,
  signal?: AbortSignal,
): Promise<number> {
  try {
    return await dispatch(argv, ctx, signal);
  } catch (error) {
    if (error instanceof UsageError) {
      const lines = error.issues.length > 0 ? error.issues.map(formatIssue) : [error.message];
      ctx.stderr.write(`${lines.map((l) => `error: ${l}`).join('\n')}\n`);
      if (error.issues.length > 1) ctx.stderr.write(`${error.issues.length} problems found\n`);
      return EXIT.usage;
    }
    throw error;
  }
}

async function dispatch(
  argv: string[],
  ctx: CommandContext,
  signal?: AbortSignal,
): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '-h' || first === '--help' || first === 'help') {
    ctx.stdout.write(MAIN_HELP);
    return first === undefined ? EXIT.usage : 0;
  }
  if (first === '-v' || first === '--version') {
    ctx.stdout.write(`${toolVersion}\n`);
    return 0;
  }
  // Commands other than run/validate load on demand: `evals run` starts faster without them.
  if (first === 'testset') return (await import('./testset.ts')).testsetCommand(rest, ctx);
  if (first === 'compare') return compare(rest, ctx);
  if (first === 'merge') return merge(rest, ctx);
  if (!(first in OPTIONS)) {
    throw usageError(
      'cli.unknown-command',
      `unknown command "${first}" (commands: run, validate, init, compare, merge, testset; see evals --help)`,
    );
  }
  const command = first as Command;
  const { values, positionals } = parse(command, rest);
  if (values.help === true) {
    ctx.stdout.write(HELP[command]);
    return 0;
  }
  if (positionals.length > 1) {
    throw usageError(
      'cli.extra-argument',
      `evals ${command} takes at most one argument, found: ${positionals.join(' ')}`,
    );
  }
  const target = positionals[0];
  switch (command) {
    case 'validate':
      return validateCommand(target, ctx);
    case 'init':
      return (await import('./init.ts')).initCommand(target, ctx);
    case 'run':
      return runCommand({ ...runArgs(values, target), ...(signal ? { signal } : {}) }, ctx);
  }
}

const COMPARE_HELP = `Usage: evals compare BASE.json HEAD.json [--format text|md|json]

Matches runs by suite and grid params and cases by identity, then reports for each evaluator the
base and head means, the change with a 95% bootstrap confidence interval (fixed seed) and a
p-value, and for the pass rate an exact McNemar test. Each row is improved, regressed, unchanged
(the interval includes zero: no detectable change) or "too few cases" (under 10 paired).
Also lists newly failing, fixed, added, removed, flaky and changed-row cases.
Exit codes: 0 no significant regression · 1 a regression · 2 bad input.
`;

async function compare(argv: string[], ctx: CommandContext): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        format: { type: 'string', default: 'text' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw usageError('cli.bad-option', `${(error as Error).message} (see evals compare --help)`);
  }
  if (parsed.values.help) {
    ctx.stdout.write(COMPARE_HELP);
    return 0;
  }
  const format = parsed.values.format;
  if (format !== 'text' && format !== 'md' && format !== 'json') {
    throw usageError('cli.bad-option', `--format: expected text, md or json, found "${format}"`);
  }
  const [base, head, ...extra] = parsed.positionals;
  if (base === undefined || head === undefined || extra.length > 0) {
    throw usageError('cli.arguments', `evals compare takes two results files\n${COMPARE_HELP}`);
  }
  return (await import('./compare.ts')).compareCommand(base, head, format, ctx);
}

const MERGE_HELP = `Usage: evals merge SHARD.json… [-o FILE] [--allow-partial]

Combines the artifacts of evals run --shard 1/N … N/N into the artifact of the whole run: cases
in testset order, each run's summary and gate recomputed, the verdict as an unsharded run's.
Refuses (exit 2) inputs of different configs or testset revisions, unsharded or overlapping
inputs, mixed shard counts, and, unless --allow-partial, missing shards or interrupted inputs.

Options:
  -o, --output FILE     Merged artifact path (default: evals-results.json)
      --allow-partial   Merge what is there; the result is marked interrupted and fails
  -h, --help            Show this help

Exit codes: 0 verdict pass · 1 verdict fail · 2 inputs refused.
`;

async function merge(argv: string[], ctx: CommandContext): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        output: { type: 'string', short: 'o', default: 'evals-results.json' },
        'allow-partial': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw usageError('cli.bad-option', `${(error as Error).message} (see evals merge --help)`);
  }
  if (parsed.values.help) {
    ctx.stdout.write(MERGE_HELP);
    return 0;
  }
  if (parsed.positionals.length === 0) {
    throw usageError('cli.arguments', `evals merge needs the shard results files\n${MERGE_HELP}`);
  }
  return (await import('./merge.ts')).mergeCommand(
    {
      inputs: parsed.positionals,
      output: parsed.values.output,
      allowPartial: parsed.values['allow-partial'] === true,
    },
    ctx,
  );
}

/**
 * `evals run` arguments (everything after `run`) as RunArgs; the Action passes its `args` input
 * through here so it accepts exactly what the CLI does.
 */
export function parseRunArgs(argv: string[]): RunArgs {
  const { values, positionals } = parse('run', argv);
  if (positionals.length > 1) {
    throw usageError(
      'cli.extra-argument',
      `evals run takes at most one argument, found: ${positionals.join(' ')}`,
    );
  }
  return runArgs(values, positionals[0]);
}

function runArgs(values: Record<string, unknown>, target: string | undefined): RunArgs {
  const v = values as {
    output: string;
    suite?: string[];
    grid?: string[];
    tag?: string[];
    concurrency?: string;
    trials?: string;
    junit?: string;
    baseline?: string;
    shard?: string;
    resume?: string;
    'no-cache'?: boolean;
    'cache-dir'?: string;
    'update-baselines'?: boolean;
  };
  const shard = v.shard === undefined ? undefined : parseShard(v.shard);
  if (shard && !shard.ok) throw usageError('cli.bad-option', shard.message);
  return {
    ...(target !== undefined ? { config: target } : {}),
    output: v.output,
    ...(v.junit !== undefined ? { junit: v.junit } : {}),
    ...(v.baseline !== undefined ? { baseline: v.baseline } : {}),
    ...(v.resume !== undefined ? { resume: v.resume } : {}),
    ...(v['no-cache'] ? { noCache: true } : {}),
    ...(v['cache-dir'] !== undefined ? { cacheDir: v['cache-dir'] } : {}),
    ...(v['update-baselines'] ? { updateBaselines: true } : {}),
    ...(v.concurrency !== undefined
      ? { concurrency: positiveInt('--concurrency', v.concurrency) }
      : {}),
    ...(v.trials !== undefined ? { trials: positiveInt('--trials', v.trials) } : {}),
    filters: {
      ...(v.suite ? { suites: v.suite } : {}),
      ...(v.tag ? { tags: v.tag } : {}),
      ...(v.grid ? { grid: parseGridFilters(v.grid) } : {}),
      ...(shard?.ok ? { shard: shard.shard } : {}),
    },
  };
}

function parse(
  command: Command,
  args: string[],
): { values: Record<string, unknown>; positionals: string[] } {
  try {
    return parseArgs({ args, options: OPTIONS[command], allowPositionals: true, strict: true });
  } catch (error) {
    // parseArgs reports unknown or malformed flags with a stable code and a readable message.
    const message = error instanceof Error ? error.message : String(error);
    throw usageError('cli.bad-option', `${message} (see evals ${command} --help)`);
  }
}

function positiveInt(flag: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) {
    throw usageError(
      'cli.bad-option',
      `${flag}: expected a whole number of at least 1, found "${text}"`,
    );
  }
  return n;
}

/** `['model=large', 'model=small', 't=0']` → `{ model: ['large', 'small'], t: ['0'] }` */
export function parseGridFilters(items: string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const item of items) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw usageError('cli.bad-option', `--grid: expected KEY=VALUE, found "${item}"`);
    (out[item.slice(0, eq)] ??= []).push(item.slice(eq + 1));
  }
  return out;
}
