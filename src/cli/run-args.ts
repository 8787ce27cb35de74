/**
 * `evals run`'s argv as RunArgs: parsed by the shared parser against RUN, then the values
 * checked and converted (numbers, `KEY=VALUE`, `I/N`). The Action parses its `args` input here
 * too, so it accepts exactly what the CLI does.
 */
import { parseArgs } from 'node:util';
import type { RunArgs } from '../pipeline/run.ts';
import { parseShard } from '../plan/shard.ts';
import {
  badOption,
  parseCommandArgs,
  positiveInt,
  shortOptionValues,
  type OptionValues,
  gridFilters,
} from './args.ts';
import { RUN } from './commands.ts';
import { resumeCommandLine } from '../report/show-gate.ts';
import { notOption } from '../shared/shell-word.ts';

/**
 * `evals run` arguments (everything after `run`) as RunArgs; the Action passes its `args` input
 * through here so it accepts exactly what the CLI does. `--help` is not acted on here.
 */
export function parseRunArgs(argv: string[]): RunArgs {
  const { values, positionals } = parseCommandArgs(RUN, argv);
  return runArgs(values, positionals[0]);
}

/** The parsed values of `evals run` (and its config argument) as RunArgs. */
export function runArgs(values: OptionValues<typeof RUN>, config: string | undefined): RunArgs {
  const shard = values.shard === undefined ? undefined : parseShard(values.shard);
  if (shard && !shard.ok) throw badOption(RUN, shard.message);
  return {
    ...(config !== undefined ? { config } : {}),
    output: outputOf(values),
    ...(values.junit !== undefined ? { junit: values.junit } : {}),
    ...(values.report !== undefined ? { report: values.report } : {}),
    ...(values.baseline !== undefined ? { baseline: values.baseline } : {}),
    ...(values.resume !== undefined ? { resume: values.resume } : {}),
    ...(values['no-cache'] ? { noCache: true } : {}),
    ...(values['cache-dir'] !== undefined ? { cacheDir: values['cache-dir'] } : {}),
    ...(values['update-baselines'] ? { updateBaselines: true } : {}),
    ...(values['dry-run'] ? { dryRun: true } : {}),
    ...(values['ignore-pin'] ? { ignorePin: true } : {}),
    ...(values.concurrency !== undefined
      ? { concurrency: positiveInt(RUN, '--concurrency', values.concurrency) }
      : {}),
    ...(values.trials !== undefined ? { trials: positiveInt(RUN, '--trials', values.trials) } : {}),
    filters: {
      ...(values.suite ? { suites: values.suite } : {}),
      ...(values.tag ? { tags: values.tag } : {}),
      ...(values.grid ? { grid: gridFilters(values.grid, RUN) } : {}),
      ...(shard?.ok ? { shard: shard.shard } : {}),
    },
  };
}

/** Where the artifact goes: `-o`, else the artifact `--resume` finishes, else the default. */
function outputOf(values: OptionValues<typeof RUN>): string {
  return values.output ?? values.resume ?? DEFAULT_OUTPUT;
}

/** `-o`'s default. */
export const DEFAULT_OUTPUT = 'evals-results.json';

/**
 * The command that finishes an interrupted run of `argv` (what followed `evals run`): the same
 * arguments, its own `-o` and `--resume` left out, resuming the artifact it writes (which a
 * resumed run then writes back to), or `from`, where its partial results were kept when that
 * artifact could not be written (the finished results then go to the run's own `-o`); with
 * `--baseline BASELINE` first when `argv` names none (a resumed run compared with the baseline
 * its partial recorded). With `beside` (the run wrote beside its files because another run
 * holds them: pipeline/journal-takeover.ts), `from` is resumed into itself and each `--junit`
 * and `--report` file is the one `beside` names (left out where it names none): the other
 * run's files are never written.
 * Quoted for a POSIX shell.
 */
export function resumeCommand(
  argv: readonly string[],
  from?: string,
  baseline?: string,
  beside?: (file: string) => string | undefined,
): string {
  const { values, tokens } = parseArgs({
    // As parseCommandArgs read them: `-o=x.json` is x.json.
    args: shortOptionValues(RUN, argv),
    options: RUN.options,
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  const kept: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'positional') kept.push(token.value);
    else if (token.kind === 'option-terminator') kept.push('--');
    else if (token.name === 'output' || token.name === 'resume' || token.name === 'help') continue;
    else if (token.value === undefined) kept.push(token.rawName);
    else {
      const report = token.name === 'junit' || token.name === 'report';
      const value = beside !== undefined && report ? beside(token.value) : token.value;
      if (value === undefined) continue;
      if (token.inlineValue === true) kept.push(`${token.rawName}=${value}`);
      else kept.push(token.rawName, value);
    }
  }
  const output = outputOf(values as OptionValues<typeof RUN>);
  // First: after a `--` it would be read as the config. As `./-b.json` when it starts with `-`:
  // `--baseline -b.json` reads it as an option, not as the value.
  if (baseline !== undefined && values.baseline === undefined) {
    kept.unshift('--baseline', notOption(baseline));
  }
  if (from === undefined) return resumeCommandLine(kept, output);
  return beside === undefined
    ? resumeCommandLine(kept, from, output)
    : resumeCommandLine(kept, from);
}
