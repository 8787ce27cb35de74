/**
 * What the `evals testset` commands share: FILE[@REF] arguments, how rows are identified
 * (`--hash`, `--id`, or the suite of a config that reads the file) and reading one version of
 * a testset with its cases and revision.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfigFile } from '../../config/load.ts';
import { builtinEvaluators } from '../../evaluators/registry.ts';
import { describeIdentity } from '../../report/testset-table.ts';
import { UsageError, type Issue } from '../../shared/errors.ts';
import { realPath } from '../../shared/real-path.ts';
import type { IdentityOptions } from '../../testsets/history.ts';
import { formatFromPath } from '../../testsets/formats.ts';
import { defaultTestsetId, prepareCases } from '../../testsets/identity.ts';
import { readTestset, type TestsetLocation } from '../../testsets/read-file.ts';
import type { PreparedCase, TestsetRow } from '../../types/index.ts';
import type { CommandContext } from '../../pipeline/context.ts';
import { resolveConfigArg } from '../../pipeline/config-discovery.ts';
import { optionError } from '../args.ts';
import type { CommandSpec } from '../command-spec.ts';
import { quotedValue } from '../../shared/shown-value.ts';

/** The identity options of `revision`, `show`, `diff` and `log`, checked. */
export interface IdentityArgs {
  /** `--hash a,b`: the fields that identify a row. */
  hash?: string[];
  /** `--id ID`: the testset id mixed into content ids. */
  id?: string;
  /** `--config FILE`: the config whose suite that reads the file gives hash and id. */
  config?: string;
}

/** `--hash`, `--id` and `--config` as parsed for `spec`, checked (`--hash` names fields). */
export function identityArgs(
  spec: CommandSpec,
  values: { hash?: string; id?: string; config?: string },
): IdentityArgs {
  return {
    ...(values.hash !== undefined ? { hash: splitFields(spec, values.hash) } : {}),
    ...(values.id !== undefined ? { id: values.id } : {}),
    ...(values.config !== undefined ? { config: values.config } : {}),
  };
}

function splitFields(spec: CommandSpec, text: string): string[] {
  const fields = text
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  if (fields.length === 0) {
    throw optionError(spec, '--hash', 'field names such as question,locale', quotedValue(text));
  }
  return fields;
}

/**
 * `testsets/qa.csv@main` → the file and the ref. A path that exists as written wins, so a file
 * whose name holds `@` still works. Otherwise both sides may hold an `@`: a path (`data@v2/qa.csv`)
 * and a ref (`HEAD@{1}`, `@{upstream}`, a branch `me@feature`), so the `@` that splits them is
 * one whose path side names a testset file (`.csv`, `.json`, …), that file in the working tree
 * first; never the `@` of `@{`, which git's revision syntax keeps (a refname cannot hold `@{`),
 * unless nothing names the ref before it (`qa.csv@{1}`, the current branch's reflog).
 */
export function parseLocation(arg: string, cwd: string): TestsetLocation {
  const whole = { absPath: resolve(cwd, arg), displayPath: arg };
  if (existsSync(whole.absPath)) return whole;
  const splits: number[] = [];
  for (let at = arg.indexOf('@', 1); at !== -1; at = arg.indexOf('@', at + 1)) {
    if (at < arg.length - 1 && arg[at + 1] !== '{') splits.push(at);
  }
  const named = splits.filter((at) => formatFromPath(arg.slice(0, at)) !== null);
  const at = named.find((i) => existsSync(resolve(cwd, arg.slice(0, i)))) ?? named[0];
  if (at !== undefined) return split(at, at + 1);
  // `qa.csv@{1}`: a reflog entry of the current branch, whose `@{` starts the ref itself.
  const brace = arg.indexOf('@{', 1);
  if (brace !== -1 && formatFromPath(arg.slice(0, brace)) !== null) return split(brace, brace);
  return splits[0] === undefined ? whole : split(splits[0], splits[0] + 1);

  function split(pathEnd: number, refStart: number): TestsetLocation {
    const path = arg.slice(0, pathEnd);
    return { absPath: resolve(cwd, path), displayPath: path, ref: arg.slice(refStart) };
  }
}

/** The location as the user wrote it: `FILE` or `FILE@REF`. */
export function shown(location: TestsetLocation): string {
  return location.ref === undefined
    ? location.displayPath
    : `${location.displayPath}@${location.ref}`;
}

/**
 * How rows of this file are identified: `--hash`/`--id`, else the settings of the suite in the
 * config that reads this file (so `diff` and `log` agree with `evals run`), else the defaults.
 */
export async function identityFor(
  location: TestsetLocation,
  args: IdentityArgs,
  ctx: CommandContext,
): Promise<IdentityOptions> {
  return identityOf([location], args, ctx);
}

/**
 * How rows of any of `locations` are identified, all alike: `--hash`/`--id`, else the settings
 * of the suite that reads the first of them a suite reads, else the first one's defaults. `diff`
 * matches both sides by one identity; when only B is read by a suite (A being its name before a
 * rename, say), rows are matched as that suite matches them, not by A's defaults.
 */
export async function identityOf(
  locations: readonly [TestsetLocation, ...TestsetLocation[]],
  args: IdentityArgs,
  ctx: CommandContext,
): Promise<IdentityOptions> {
  const suites =
    args.hash === undefined || args.id === undefined ? await configSuites(args, ctx) : [];
  const readers = locations.map((l) => suites.find((suite) => suite.path === realPath(l.absPath)));
  const at = Math.max(
    0,
    readers.findIndex((suite) => suite !== undefined),
  );
  const read = readers[at];
  // A suite without `testset.id` uses the default id of the file it reads.
  const location = locations[at] ?? locations[0];
  const hash = args.hash ?? read?.hash;
  return {
    testsetId: args.id ?? read?.id ?? defaultTestsetId(location.absPath),
    ...(hash ? { hash } : {}),
  };
}

/** What a suite of the config reads (the file's real path) and how it identifies its rows. */
interface SuiteIdentity {
  path: string;
  hash?: string[];
  id?: string;
}

/** The suites of `--config` (or the config found by default) that read a file, in config order. */
async function configSuites(args: IdentityArgs, ctx: CommandContext): Promise<SuiteIdentity[]> {
  let file: string;
  try {
    file = resolveConfigArg(args.config, ctx);
  } catch {
    return []; // no config here: defaults
  }
  const loaded = await loadConfigFile(file, {
    cwd: ctx.cwd,
    env: ctx.env,
    builtins: builtinEvaluators,
  });
  if (!loaded.ok) {
    // A config the user named must be valid; one found by default is only a hint.
    if (args.config !== undefined) throw new UsageError(loaded.issues);
    return [];
  }
  const { dir } = loaded.config;
  return loaded.config.suites.flatMap((suite) =>
    suite.testset.kind === 'file'
      ? [
          {
            path: realPath(resolve(dir, suite.testset.path)),
            ...(suite.hash ? { hash: suite.hash } : {}),
            ...(suite.testset.id !== undefined ? { id: suite.testset.id } : {}),
          },
        ]
      : [],
  );
}

/** One version of a testset, read and identified. */
export interface TestsetVersion {
  rows: TestsetRow[];
  cases: PreparedCase[];
  revision: string;
  /** The commit it was read at (FILE@REF), else null. */
  commit: string | null;
  /** Exact duplicate rows collapsed into one case, each naming both lines. */
  warnings: Issue[];
}

/**
 * Reads and identifies one version; any problem is a usage error (exit 2) naming file and line or
 * ref. `scrub` removes secrets from what a problem quotes of the file, before it is cut short.
 */
export async function load(
  location: TestsetLocation,
  identity: IdentityOptions,
  scrub?: (text: string) => string,
): Promise<TestsetVersion> {
  const read = await readTestset(location, scrub);
  if (!read.ok) throw new UsageError(read.issues);
  const prepared = prepareCases(read.rows, {
    ...identity,
    file: location.displayPath,
    ...(scrub !== undefined ? { scrub } : {}),
  });
  if (!prepared.ok) {
    throw new UsageError(prepared.issues.map((i) => ({ ...i, file: shown(location) })));
  }
  return {
    rows: read.rows,
    cases: prepared.cases,
    revision: prepared.revision,
    commit: read.commit,
    warnings: (prepared.warnings ?? []).map((w) => ({ ...w, file: shown(location) })),
  };
}

/** `dedup id`, `hash fields a, b` or `content` (a mix when only some rows have dedup ids). */
export function identityMode(cases: PreparedCase[], identity: IdentityOptions): string {
  return describeIdentity(cases, Array.isArray(identity.hash) ? identity.hash : []);
}
