/**
 * The one argument parser of the CLI. Every command and every `evals testset` sub-command is
 * parsed by {@link parseCommandArgs} against its spec in src/cli/commands.ts, with node:util
 * parseArgs, into typed values. A mistake becomes one UsageError (exit 2, no stack trace) whose
 * message names the flag or argument, what was expected and what was found, and where the help is.
 */
import { parseArgs } from 'node:util';
import { closestMatch } from '../config/did-you-mean.ts';
import { usageError, type UsageError } from '../shared/errors.ts';
import type { CommandContext } from '../pipeline/context.ts';
import type { CommandSpec } from './command-spec.ts';
import { renderHelp } from './help.ts';
import { quotedValue, shownValue } from '../shared/shown-value.ts';

/**
 * The values of `S`'s options as parseArgs types them: `string`, `string[]` (repeatable) or
 * `boolean`; optional unless the option has a default.
 */
export type OptionValues<S extends CommandSpec> = ReturnType<
  typeof parseArgs<{ options: S['options']; strict: true; allowPositionals: true }>
>['values'];

/** A command's argv, parsed and checked against its spec. */
export interface ParsedArgs<S extends CommandSpec> {
  values: OptionValues<S>;
  positionals: string[];
  /** `-h`/`--help` was given; the positional arguments were then not checked. */
  help: boolean;
}

/**
 * Parses `argv` (what follows the command's name) against `spec`: unknown options, a missing
 * value, a value given to a switch and a wrong number of positional arguments are UsageErrors.
 * An option of one value given twice takes the last, as in most command-line tools, so a script
 * can add to a command that already names one. `-o=FILE` reads as `--output=FILE`.
 * The values themselves (numbers, `KEY=VALUE`) are the caller's to check, with
 * {@link optionError} or {@link positiveInt} for the message.
 */
export function parseCommandArgs<S extends CommandSpec>(
  spec: S,
  argv: readonly string[],
): ParsedArgs<S> {
  const args = shortOptionValues(spec, argv);
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args, options: spec.options, allowPositionals: true, strict: true });
  } catch (error) {
    if (!isParseArgsError(error)) throw error;
    // parseArgs' own message names neither the command nor its help: the argument at fault is
    // found again, without `strict`, to say what it should have been.
    throw (
      explainOptionError(spec, args) ??
      usageError('cli.bad-option', `${error.message} (${seeHelp(spec)})`)
    );
  }
  // `evals run a b --help` shows the help: asking for it is never wrong.
  const help = parsed.values.help === true;
  if (!help) {
    const empty = emptyPathOption(spec, args);
    if (empty !== undefined) throw empty;
    checkPositionals(spec, parsed.positionals);
  }
  return { values: parsed.values as OptionValues<S>, positionals: parsed.positionals, help };
}

/**
 * Parses `argv` for `spec` and, when help was asked for, prints it (exit 0); otherwise hands
 * the parsed arguments to `handler`. Every command runs through here.
 */
export async function withArgs<S extends CommandSpec>(
  spec: S,
  argv: readonly string[],
  ctx: CommandContext,
  handler: (args: ParsedArgs<S>) => Promise<number> | number,
): Promise<number> {
  const args = parseCommandArgs(spec, argv);
  if (args.help) {
    ctx.stdout.write(renderHelp(spec));
    return 0;
  }
  return handler(args);
}

/**
 * The positional argument at `index`, which the spec's rule (its `min`) guarantees is there:
 * a missing one is a bug, not a usage error.
 */
export function positional(positionals: readonly string[], index: number): string {
  const value = positionals[index];
  if (value === undefined) throw new Error(`positional argument ${index} was not checked`);
  return value;
}

/** `--trials: expected a whole number of at least 1, found "0" (see evals run --help)` */
export function optionError(
  spec: CommandSpec,
  flag: string,
  expected: string,
  found: string,
): UsageError {
  return badOption(spec, `${flag}: expected ${expected}, found ${found}`);
}

/** A problem with an option's value, `message` already saying which and why, plus the help hint. */
export function badOption(spec: CommandSpec, message: string): UsageError {
  return usageError('cli.bad-option', `${message} (${seeHelp(spec)})`);
}

/** `text`, the value of `flag`, as a whole number ≥ 1 (`--concurrency 8`). */
export function positiveInt(spec: CommandSpec, flag: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) {
    throw optionError(spec, flag, 'a whole number of at least 1', quotedValue(text));
  }
  return n;
}

/** `see evals run --help` */
export function seeHelp(spec: CommandSpec): string {
  return `see ${spec.name} --help`;
}

function isParseArgsError(error: unknown): error is Error {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

/**
 * The first option of `argv` that strict parseArgs refuses, described; undefined if none is
 * found (the caller then falls back on parseArgs' own message). The checks are parseArgs'
 * own, made on its tokens.
 */
function explainOptionError(spec: CommandSpec, argv: readonly string[]): UsageError | undefined {
  const tokens = optionTokens(spec, argv);
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const flag = token.rawName;
    const option = Object.hasOwn(spec.options, token.name) ? spec.options[token.name] : undefined;
    if (option === undefined) return unknownOption(spec, token.rawName, token.name);
    if (option.type === 'boolean') {
      if (token.value !== undefined) {
        return optionError(spec, flag, 'no value', quotedValue(token.value));
      }
    } else if (token.value === undefined) {
      return optionError(spec, flag, `a value (${option.value})`, 'nothing');
    } else if (!token.inlineValue && token.value.length > 1 && token.value.startsWith('-')) {
      // As parseArgs decides: `-o --junit` is more likely a forgotten value than a file named
      // "--junit"; the `=` form says it is meant.
      return optionError(
        spec,
        flag,
        `a value (${option.value})`,
        `the option ${JSON.stringify(token.value)}; to pass it as the value, write --${token.name}=${token.value}`,
      );
    }
  }
  return undefined;
}

/** `argv` as parseArgs reads it without refusing anything: the tokens its checks are made on. */
function optionTokens(spec: CommandSpec, argv: readonly string[]) {
  return parseArgs({
    args: argv,
    options: spec.options,
    allowPositionals: true,
    strict: false,
    tokens: true,
  }).tokens;
}

/**
 * `argv` with each short option written with `=` as a long one is (`-o=x.json`, `-o=`) turned
 * into what that means (`-ox.json`, `-o ''`). parseArgs, as getopt, would read `-o=x.json` as the
 * value `=x.json`, so `-o=` wrote a file named `=` while `--output=` is refused as an empty name.
 * A switch given a value that way (`-h=x`) is refused as `--help=x` is. Only arguments parseArgs
 * reads as options are touched: not a value (`--junit -o=x`) nor anything after `--`.
 */
export function shortOptionValues(spec: CommandSpec, argv: readonly string[]): string[] {
  const firstAt = new Map<number, { name: string; rawName: string }>();
  for (const token of optionTokens(spec, argv)) {
    if (token.kind === 'option' && !firstAt.has(token.index)) firstAt.set(token.index, token);
  }
  return argv.flatMap((arg, index) => {
    const token = firstAt.get(index);
    if (token === undefined || token.rawName.startsWith('--')) return [arg];
    if (!arg.startsWith(`${token.rawName}=`)) return [arg];
    const option = Object.hasOwn(spec.options, token.name) ? spec.options[token.name] : undefined;
    // An unknown letter is left for parseArgs to refuse, as `-x` alone is.
    if (option === undefined) return [arg];
    const value = arg.slice(token.rawName.length + 1);
    if (option.type === 'boolean') {
      throw optionError(spec, token.rawName, 'no value', quotedValue(value));
    }
    return value === '' ? [token.rawName, ''] : [`${token.rawName}${value}`];
  });
}

/** What an empty value of a path option (`-o ''`) lacks, by the option's value name. */
const PATH_VALUES: Readonly<Record<string, string>> = { FILE: 'a file name', DIR: 'a folder name' };

/**
 * `-o needs a file name` for the first path option given an empty value (`-o ''`, `--junit=`),
 * which would otherwise name the current folder; undefined when there is none.
 */
function emptyPathOption(spec: CommandSpec, argv: readonly string[]): UsageError | undefined {
  const tokens = optionTokens(spec, argv);
  for (const token of tokens) {
    if (token.kind !== 'option' || token.value !== '') continue;
    const option = Object.hasOwn(spec.options, token.name) ? spec.options[token.name] : undefined;
    const needs = option?.type === 'string' ? PATH_VALUES[option.value] : undefined;
    if (needs !== undefined) return badOption(spec, `${token.rawName} needs ${needs}`);
  }
  return undefined;
}

function unknownOption(spec: CommandSpec, rawName: string, name: string): UsageError {
  const names = Object.keys(spec.options);
  // A typo (`--tirals`), or the start of a longer name (`--allow` for `--allow-partial`).
  const prefixed = names.filter((long) => long.startsWith(name));
  const guess = !rawName.startsWith('--')
    ? undefined
    : (closestMatch(name, names) ?? (prefixed.length === 1 ? prefixed[0] : undefined));
  const known = Object.entries(spec.options).map(([long, option]) =>
    option.short !== undefined ? `-${option.short}/--${long}` : `--${long}`,
  );
  const expected =
    guess !== undefined ? `did you mean --${guess}?` : `expected ${known.join(', ')}`;
  return badOption(spec, `unknown option ${shownValue(rawName)} for ${spec.name}: ${expected}`);
}

function checkPositionals(spec: CommandSpec, positionals: readonly string[]): void {
  const { min, max, names, what } = spec.positionals;
  const count = positionals.length;
  if (count >= min && count <= max) return;
  const found = count === 0 ? 'none' : `${count}: ${positionals.join(' ')}`;
  throw usageError(
    'cli.arguments',
    `${spec.name} ${count < min ? 'needs' : 'takes'} ${what} (${names}), found ${found} (${seeHelp(spec)})`,
  );
}

/**
 * `--grid` values as filters: `['model=large', 'model=small', 't=0']` → `{ model: ['large',
 * 'small'], t: ['0'] }`. A null-prototype object, so that a grid parameter named like a member
 * of every object (`constructor`, `toString`, `__proto__`) is a key like any other.
 */
export function gridFilters(items: readonly string[], spec: CommandSpec): Record<string, string[]> {
  const out = Object.create(null) as Record<string, string[]>;
  for (const item of items) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw optionError(spec, '--grid', 'KEY=VALUE', quotedValue(item));
    (out[item.slice(0, eq)] ??= []).push(item.slice(eq + 1));
  }
  return out;
}
