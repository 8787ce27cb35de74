/**
 * The secrets of the `evals testset` commands: the run's (docs/config.md#secrets), the
 * environment's and those of the config that would run the testset, so a cell that holds a key
 * is shown as `evals run` would record it, `[redacted]`. What the commands print is cut to a
 * terminal's width, so the rows are scrubbed before they are rendered, not after; the files
 * `convert` writes keep the data as it is, since they are the testset itself.
 */
import { configSecretsOf } from '../../pipeline/config-secrets.ts';
import type { CommandContext } from '../../pipeline/context.ts';
import { scrubbedError } from '../../pipeline/load.ts';
import { UsageError } from '../../shared/errors.ts';
import { createScrubber, secretsInEnv, type Scrubber } from '../../shared/secrets.ts';
import type { RowChange, TestsetDiff } from '../../testsets/diff.ts';
import type { PreparedCase } from '../../types/index.ts';

/**
 * The scrubber `evals run` would use with the config `configArg` names (or the one found by
 * default): the environment's secrets and the config's, also when the config is refused (its
 * own secrets are known before it is valid); only the environment's when there is none.
 */
export async function testsetScrubber(
  configArg: string | undefined,
  ctx: CommandContext,
): Promise<Scrubber> {
  return createScrubber([...(await configSecretsOf(configArg, ctx)), ...secretsInEnv(ctx.env)]);
}

/**
 * Runs a testset command with `scrubber`: what it prints goes through it (a safety net: the
 * rows themselves are to be scrubbed before they are cut to width, see {@link scrubbedCases}),
 * and so does every usage error it throws.
 */
export async function scrubbingTestset(
  scrubber: Scrubber,
  ctx: CommandContext,
  work: (ctx: CommandContext) => Promise<number>,
): Promise<number> {
  if (scrubber.empty) return work(ctx);
  const { stdout, stderr } = ctx;
  const scrubbedCtx: CommandContext = {
    ...ctx,
    stdout: {
      write: (text: string) => stdout.write(scrubber.text(text)),
      get isTTY() {
        return stdout.isTTY;
      },
      get columns() {
        return stdout.columns;
      },
    },
    // Warnings and errors are short, and may quote a value cut short: `json` also removes the
    // start of a secret before an ellipsis.
    stderr: {
      write: (text: string) => stderr.write(scrubber.json(text)),
      get isTTY() {
        return stderr.isTTY;
      },
    },
  };
  try {
    return await work(scrubbedCtx);
  } catch (error) {
    throw error instanceof UsageError ? scrubbedError(error, scrubber) : error;
  }
}

/** `value` (a row's data or metadata) with the secrets of its strings removed, keys included. */
export function scrubbedValue<T>(value: T, scrubber: Scrubber): T {
  if (scrubber.empty || value === undefined) return value;
  const text = JSON.stringify(value);
  const clean = scrubber.json(text);
  return clean === text ? value : (JSON.parse(clean) as T);
}

/** `cases` as they may be shown: data and metadata scrubbed, ids and lines as they are. */
export function scrubbedCases(cases: readonly PreparedCase[], scrubber: Scrubber): PreparedCase[] {
  return cases.map((c) => scrubbedCase(c, scrubber));
}

/** One case as it may be shown (see {@link scrubbedCases}). */
export function scrubbedCase(c: PreparedCase, scrubber: Scrubber): PreparedCase {
  return { ...c, data: scrubbedValue(c.data, scrubber), meta: scrubbedValue(c.meta, scrubber) };
}

/**
 * `diff` as it may be shown: its rows and changed values scrubbed. It is computed on the rows as
 * written first, so a change inside a secret still counts, and names its field.
 */
export function scrubbedDiff(diff: TestsetDiff, scrubber: Scrubber): TestsetDiff {
  if (scrubber.empty) return diff;
  const change = (c: RowChange): RowChange => ({
    before: scrubbedCase(c.before, scrubber),
    after: scrubbedCase(c.after, scrubber),
    fields: c.fields.map((f) => ({
      field: scrubber.text(f.field),
      before: scrubbedValue(f.before, scrubber),
      after: scrubbedValue(f.after, scrubber),
    })),
  });
  return {
    ...diff,
    added: scrubbedCases(diff.added, scrubber),
    removed: scrubbedCases(diff.removed, scrubber),
    changed: diff.changed.map(change),
    metadataOnly: diff.metadataOnly.map(change),
    moved: diff.moved.map((m) => ({
      before: scrubbedCase(m.before, scrubber),
      after: scrubbedCase(m.after, scrubber),
    })),
  };
}
