/**
 * A configHash that covers files is the hash of its parts (`ConfigHashParts`: the config's data
 * hash and each covered file's digest), which artifacts record beside it. Two artifacts, or an
 * artifact and the config now, that record their parts can then say what changed between them
 * (a file, by name, or the config's own data) where the hashes alone can only say "something".
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../shared/canonical-json.ts';
import type { ConfigHashParts, ResultsArtifact } from '../types/index.ts';

/** The configHash of these parts: the data's hash alone when no file is covered. */
export function hashOfParts(parts: ConfigHashParts): string {
  if (Object.keys(parts).length === 1) return parts.config;
  return createHash('sha256').update(canonicalJson(parts)).digest('hex');
}

/**
 * The parts an artifact records, when they are those of the configHash it records (a file
 * edited by hand, or written by another tool, may hold parts that hash to something else:
 * naming a change from them would mislead).
 */
export function recordedParts(
  configHash: string,
  parts: ConfigHashParts | undefined,
): ConfigHashParts | undefined {
  return parts !== undefined && hashOfParts(parts) === configHash ? parts : undefined;
}

const KINDS = ['promptFiles', 'modules', 'scripts'] as const;

/** How many changed files a message lists before it says how many more. */
const LISTED = 8;

/**
 * What differs from `before` to `after`, one phrase each: the config's own data, then each
 * covered file that changed, is new, is no longer covered, or cannot be read (by its path from
 * the config's folder). Empty when the parts are the same.
 */
export function describeConfigChanges(before: ConfigHashParts, after: ConfigHashParts): string[] {
  const changes: string[] = [];
  if (before.config !== after.config) {
    changes.push(
      "the config's own data changed (a value or key of the file, or a non-secret environment variable it refers to)",
    );
  }
  const files: string[] = [];
  for (const kind of KINDS) {
    const was = before[kind] ?? {};
    const now = after[kind] ?? {};
    for (const [path, digest] of Object.entries(now)) {
      if (!(path in was)) files.push(`${path} is new (not covered then)`);
      else if (digest === null && was[path] !== null) files.push(`${path} cannot be read now`);
      else if (digest !== was[path]) files.push(`${path} changed`);
    }
    for (const path of Object.keys(was)) {
      if (!(path in now)) files.push(`${path} is no longer covered (not named or imported now)`);
    }
  }
  changes.push(...files.slice(0, LISTED));
  if (files.length > LISTED) changes.push(`${files.length - LISTED} more files changed`);
  return changes;
}

/**
 * Why artifacts recording different configHashes differ, for `evals merge` to refuse them: what
 * changed from the first one's config to each other one's, named from the parts they record
 * (`From shard-1.json to shard-2.json: app/answer.ts changed`); when one of them records none (an
 * earlier evalgate, or no file covered), what the hash covers.
 */
export function whyConfigsDiffer(
  artifacts: readonly {
    name: string;
    artifact: Pick<ResultsArtifact, 'configHash' | 'configHashParts'>;
  }[],
): string {
  const named = artifacts.map(({ name, artifact }) => ({
    name,
    parts: recordedParts(artifact.configHash, artifact.configHashParts),
  }));
  const [first, ...others] = named;
  const changes: string[] = [];
  for (const other of others) {
    if (first?.parts === undefined || other.parts === undefined) return COVERED;
    const what = describeConfigChanges(first.parts, other.parts);
    changes.push(`From ${first.name} to ${other.name}: ${what.join('; ')}`);
  }
  return changes.join('. ');
}

const COVERED =
  "The config's meaning, a prompt or message file it reads, or a non-secret environment variable it refers to, changed between them, or a module it loads (a function target, a module evaluator, a pass module, or a local file one of them imports) or the script a command target runs did (comments, formatting, key order, quoting and anchors do not count; an earlier evalgate recorded a hash of the file's text, and one before that did not cover modules and command scripts, so its shards differ from a later one's when the config names any)";
