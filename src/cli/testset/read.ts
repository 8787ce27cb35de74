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
import { defaultTestsetId, prepareCases } from '../../testsets/identity.ts';
import { readTestset, type TestsetLocation } from '../../testsets/read-file.ts';
import type { PreparedCase, TestsetRow } from '../../types/index.ts';
import type { CommandContext } from '../../pipeline/context.ts';
import { resolveConfigArg } from '../../pipeline/load.ts';
import { optionError } from '../args.ts';
import type { CommandSpec } from '../command-spec.ts';

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
    throw optionError(spec, '--hash', 'field names such as question,locale', JSON.stringify(text));
  }
  return fields;
}

/**
 * `testsets/qa.csv@main` → the file and the ref. A path that exists as written wins, so a file
 * whose name holds `@` still works; otherwise the last `@` splits path and ref.
 */
export function parseLocation(arg: string, cwd: string): TestsetLocation {
  const at = arg.lastIndexOf('@');
  if (existsSync(resolve(cwd, arg)) || at <= 0 || at === arg.length - 1) {
    return { absPath: resolve(cwd, arg), displayPath: arg };
  }
  const path = arg.slice(0, at);
  return { absPath: resolve(cwd, path), displayPath: path, ref: arg.slice(at + 1) };
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
  const fromConfig =
    args.hash === undefined || args.id === undefined
      ? await suiteSettings(location, args, ctx)
      : {};
  const hash = args.hash ?? fromConfig.hash;
  return {
    testsetId: args.id ?? fromConfig.id ?? defaultTestsetId(location.absPath),
    ...(hash ? { hash } : {}),
  };
}

async function suiteSettings(
  location: TestsetLocation,
  args: IdentityArgs,
  ctx: CommandContext,
): Promise<{ hash?: string[]; id?: string }> {
  let file: string;
  try {
    file = resolveConfigArg(args.config, ctx);
  } catch {
    return {}; // no config here: defaults
  }
  const loaded = await loadConfigFile(file, {
    cwd: ctx.cwd,
    env: ctx.env,
    builtins: builtinEvaluators,
  });
  if (!loaded.ok) {
    // A config the user named must be valid; one found by default is only a hint.
    if (args.config !== undefined) throw new UsageError(loaded.issues);
    return {};
  }
  const target = realPath(location.absPath);
  for (const suite of loaded.config.suites) {
    if (
      suite.testset.kind === 'file' &&
      realPath(resolve(loaded.config.dir, suite.testset.path)) === target
    ) {
      return {
        ...(suite.hash ? { hash: suite.hash } : {}),
        ...(suite.testset.id !== undefined ? { id: suite.testset.id } : {}),
      };
    }
  }
  return {};
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

/** Reads and identifies one version; any problem is a usage error (exit 2) naming file and line or ref. */
export async function load(
  location: TestsetLocation,
  identity: IdentityOptions,
): Promise<TestsetVersion> {
  const read = await readTestset(location);
  if (!read.ok) throw new UsageError(read.issues);
  const prepared = prepareCases(read.rows, {
    ...identity,
    file: location.displayPath,
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
