/**
 * Results artifacts named on the command line, opened as the commands that read them need them:
 * `evals compare` and `--baseline` (every case reduced to what a comparison reads), `evals merge`
 * and `--resume` (a case at a time). Problems with the files are usage errors naming them.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { NamedArtifact } from '../artifact/merge.ts';
import {
  ArtifactReadError,
  notJson,
  openArtifactFile,
  placedProblems,
  readReducedArtifact,
  unreadable,
  type ArtifactFile,
} from '../artifact/read.ts';
import type { DroppedComparison } from '../artifact/damaged-comparison.ts';
import type { FoundProblems, UnknownProperties } from '../artifact/schema.ts';
import { unknownFieldsNote, type UnknownFields } from '../artifact/unknown-fields.ts';
import { comparableCases } from '../compare/comparable.ts';
import { usageError } from '../shared/errors.ts';
import { createScrubber, secretsInEnv } from '../shared/secrets.ts';
import type { CaseResult, ResultsArtifact, RunResult } from '../types/index.ts';
import { toolVersion } from '../shared/version.ts';
import type { CommandContext } from './context.ts';

/** A results file opened by {@link openResultsFile}. */
export interface ResultsFile extends NamedArtifact {
  /**
   * Writes, once, the note on the properties this evalgate does not know that were ignored so
   * far (see {@link noteUnknownFields}); for a command that read what it needs of the file.
   */
  noteUnknown(): void;
  /**
   * A damaged `comparison` left out (`dropDamagedComparison`), if one was: its problems, and the
   * baseline it still names or why it does not.
   */
  droppedComparison?: DroppedComparison;
  /**
   * True when its `comparison` was in the shape of an evalgate before 2026-11-26 and was left out
   * (`old-comparison.ts`): that shape names no baseline file.
   */
  oldComparison?: true;
}

const refusedForUnknown = new WeakMap<Error, { writtenBy: string; fields: string }>();

/**
 * When `error` is {@link openResultsFile}'s refusal of a file only for fields this evalgate does
 * not know (`refuse`): the version the file says wrote it, and those fields as listed.
 */
export function unknownFieldsRefusal(
  error: unknown,
): { writtenBy: string; fields: string } | undefined {
  return error instanceof Error ? refusedForUnknown.get(error) : undefined;
}

/**
 * Opens a results artifact for reading a case at a time, as a merge or resume input named by
 * `path`. Refuses a missing file, non-JSON and anything the schema rejects (`what` names the
 * flag); a case found invalid while it is read throws the same usage error. `unknown`: what
 * becomes of properties this evalgate does not know, `ignore`d (noted by `noteUnknown`) by a
 * command that only reads the file, `refuse`d by one that writes an artifact from it (`evals
 * merge`, `--resume`), which would lose them.
 */
export function openResultsFile(
  path: string,
  ctx: CommandContext,
  what: string,
  unknown: UnknownProperties = 'ignore',
  options: { dropDamagedComparison?: boolean } = {},
): ResultsFile {
  const asUsageError = (error: unknown): unknown => {
    if (!(error instanceof ArtifactReadError)) return error;
    const code = {
      unreadable: 'compare.unreadable',
      'not-json': 'compare.not-json',
      invalid: 'merge.invalid',
    }[error.kind];
    const usage = usageError(
      code,
      error.kind === 'invalid' ? `${what} ${error.message}` : error.message,
      path,
    );
    if (error.unknownFields !== undefined) refusedForUnknown.set(usage, error.unknownFields);
    return usage;
  };
  let file: ArtifactFile;
  try {
    file = openArtifactFile(resolve(ctx.cwd, path), path, {
      scrub: quoteScrub(ctx),
      unknown,
      ...options,
    });
  } catch (error) {
    throw asUsageError(error);
  }
  let noted = false;
  return {
    noteUnknown() {
      if (noted) return;
      noted = true;
      noteUnknownFields(ctx, path, file.frame.tool.version, file.unknown);
    },
    name: path,
    artifact: file.frame,
    ...(file.droppedComparison !== undefined && { droppedComparison: file.droppedComparison }),
    ...(file.unknown.oldComparison === true && { oldComparison: true }),
    caseCounts: file.caseCounts,
    *cases(run) {
      try {
        yield* file.cases(run);
      } catch (error) {
        throw asUsageError(error);
      }
    },
  };
}

/**
 * A results file for a comparison. A valid artifact is read a case at a time
 * (`openArtifactFile`), each case reduced to what a comparison reads (`comparableCases`, or the
 * reducer `reducer` gives for its run), so two 100,000-case artifacts are never in memory as
 * text or as full cases. Anything else comes back as its JSON value, parsed whole, for the
 * validation to say what is wrong with it, with its schema problems placed at their lines and
 * columns (`placedProblems`). A missing or unparsable file is a usage error naming it.
 */
export async function readComparable(
  path: string,
  ctx: CommandContext,
  reducer: (index: number, run: RunResult) => (result: CaseResult) => CaseResult = (_, run) =>
    comparableCases(run),
): Promise<
  | { ok: true; artifact: ResultsArtifact }
  | { ok: false; value: unknown; problems: FoundProblems<string> }
> {
  try {
    const read = readReducedArtifact(resolve(ctx.cwd, path), path, reducer, {
      scrub: quoteScrub(ctx),
    });
    noteUnknownFields(ctx, path, read.artifact.tool.version, read.unknown);
    return { ok: true, artifact: read.artifact };
  } catch (error) {
    if (!(error instanceof ArtifactReadError)) throw error;
    if (error.kind === 'unreadable') throw usageError('compare.unreadable', error.message, path);
    if (error.kind === 'not-json') throw usageError('compare.not-json', error.message, path);
  }
  const { text, value } = await readJsonText(path, ctx);
  return { ok: false, value, problems: placedProblems(text, value) };
}

/** A results file as JSON, and its text; a missing or unparsable file is a usage error naming it. */
async function readJsonText(
  path: string,
  ctx: CommandContext,
): Promise<{ text: string; value: unknown }> {
  let text: string;
  try {
    text = await readFile(resolve(ctx.cwd, path), 'utf8');
  } catch (error) {
    throw usageError('compare.unreadable', unreadable(path, error).message, path);
  }
  try {
    return { text, value: JSON.parse(text) as unknown };
  } catch (error) {
    throw usageError(
      'compare.not-json',
      notJson(path, error, text, 1, quoteScrub(ctx)).message,
      path,
    );
  }
}

/**
 * What removes secrets from the piece of a results file a "not JSON" message quotes, before it is
 * cut short: the environment's secrets, those the CLI scrubs every problem of these commands with
 * (`cli/main.ts`), the config's when the file is read before it (`ctx.secrets`), and the values
 * the Action declared (`declareSecret`).
 */
function quoteScrub(ctx: CommandContext): (text: string) => string {
  return createScrubber([...secretsInEnv(ctx.env), ...(ctx.secrets ?? [])]).text;
}

/**
 * Says on stderr, in one line, that the results file `name` (written by evalgate `writtenBy`)
 * held properties this evalgate does not know, `unknown`, and that they were ignored: what a
 * newer evalgate of the same schemaVersion added. Nothing when there were none.
 */
export function noteUnknownFields(
  ctx: CommandContext,
  name: string,
  writtenBy: string,
  unknown: UnknownFields,
): void {
  const scrub = quoteScrub(ctx);
  // The version the file says is cut to 40 characters in the note: scrubbed before that.
  const note = unknownFieldsNote(name, scrub(writtenBy), toolVersion, unknown);
  // A key of the file is quoted whole (a long one only by its length): scrubbed all the same.
  if (note !== null) ctx.stderr.write(`note: ${scrub(note)}\n`);
}
