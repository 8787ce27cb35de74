/**
 * A configHash that covers files is the hash of its parts (`ConfigHashParts`: the config's data
 * hash and each covered file's digest), which artifacts record beside it. Two artifacts, or an
 * artifact and the config now, that record their parts can then say what changed between them
 * (a file, by kind and name, or the config's own data: which suite, key or environment value,
 * from the `ConfigDataParts` recorded beside them) where the hashes alone can only say
 * "something".
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../shared/canonical-json.ts';
import { OVERRIDES_FILE } from '../evaluators/judges/overrides.ts';
import type { ConfigDataParts, ConfigHashParts, ResultsArtifact } from '../types/index.ts';
import { describeDataChanges } from './config-data-parts.ts';

/** The configHash of these parts: the data's hash alone when no file is covered. */
export function hashOfParts(parts: ConfigHashParts): string {
  if (Object.keys(parts).length === 1) return parts.config;
  return createHash('sha256').update(canonicalJson(parts)).digest('hex');
}

/**
 * The parts an artifact records, when they are those of the configHash it records (a file
 * edited by hand, or written by another tool, may hold parts that hash to something else:
 * naming a change from them would mislead). Without parts (the hash covers no file), the data
 * hash alone, when `data` breaks it down: it can then be compared.
 */
export function recordedParts(
  configHash: string,
  parts: ConfigHashParts | undefined,
  data?: ConfigDataParts,
): ConfigHashParts | undefined {
  if (parts === undefined) return data?.of === configHash ? { config: configHash } : undefined;
  return hashOfParts(parts) === configHash ? parts : undefined;
}

/** The breakdown an artifact records of the data hash its trusted parts hold (see above). */
export function recordedDataParts(
  artifact: Pick<ResultsArtifact, 'configHash' | 'configHashParts' | 'configDataParts'>,
): ConfigDataParts | undefined {
  const { configHash, configHashParts, configDataParts: data } = artifact;
  const parts = recordedParts(configHash, configHashParts, data);
  return parts !== undefined && data?.of === parts.config ? data : undefined;
}

/** What else names a change precisely, when known (see {@link describeConfigChanges}). */
export interface ChangeContext {
  /** The breakdowns of both data hashes, to name the suite, key or variable that changed. */
  data?: { before: ConfigDataParts; after: ConfigDataParts };
  /** The config as the user named it; `the config` without. */
  configName?: string;
  /** The modules the config names now, as `modules` keys them: the others are imported. */
  namedModules?: readonly string[];
}

const KINDS = ['promptFiles', 'modules', 'scripts'] as const;

/** How many changed files a message lists before it says how many more. */
const LISTED = 8;

/**
 * What differs from `before` to `after`, one phrase each: the config's own data (which suite,
 * key or environment value, when `context.data` tells), then each covered file that changed,
 * is new, is no longer covered, or cannot be read, by its kind and its path from the config's
 * folder. Empty when the parts are the same.
 */
export function describeConfigChanges(
  before: ConfigHashParts,
  after: ConfigHashParts,
  context: ChangeContext = {},
): string[] {
  const changes: string[] = [];
  if (before.config !== after.config) {
    const name = context.configName ?? 'the config';
    const named =
      context.data !== undefined
        ? describeDataChanges(context.data.before, context.data.after, name)
        : [];
    changes.push(
      ...(named.length > 0
        ? named
        : [
            "the config's own data changed (a value or key of the file, or a non-secret environment variable it refers to)",
          ]),
    );
  }
  const files: string[] = [];
  for (const kind of KINDS) {
    const was = before[kind] ?? {};
    const now = after[kind] ?? {};
    const label = (path: string): string => fileLabel(kind, path, context.namedModules);
    for (const [path, digest] of Object.entries(now)) {
      if (!(path in was)) files.push(`${label(path)} is new (not covered then)`);
      else if (digest === null && was[path] !== null)
        files.push(`${label(path)} cannot be read now`);
      else if (digest !== was[path]) files.push(`${label(path)} changed`);
    }
    for (const path of Object.keys(was)) {
      if (!(path in now)) {
        files.push(`${label(path)} is no longer covered (not named or imported now)`);
      }
    }
  }
  changes.push(...files.slice(0, LISTED));
  if (files.length > LISTED) changes.push(`${files.length - LISTED} more files changed`);
  return changes;
}

/**
 * A covered file as a message names it: `the prompt file prompts/a.md`, `the module
 * app/answer.ts`, `the file app/lib/x.ts, imported by a module,`, `the command script agent.py`,
 * `the human overrides evals-overrides.jsonl`. Without `namedModules` (`evals merge` reads no
 * config), a module's file is `the module file …`.
 */
function fileLabel(
  kind: (typeof KINDS)[number],
  path: string,
  namedModules: readonly string[] | undefined,
): string {
  if (kind === 'promptFiles') {
    return path === OVERRIDES_FILE ? `the human overrides ${path}` : `the prompt file ${path}`;
  }
  if (kind === 'scripts') return `the command script ${path}`;
  if (namedModules === undefined) return `the module file ${path}`;
  return namedModules.includes(path)
    ? `the module ${path}`
    : `the file ${path}, imported by a module,`;
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
    artifact: Pick<ResultsArtifact, 'configHash' | 'configHashParts' | 'configDataParts'>;
  }[],
): string {
  const named = artifacts.map(({ name, artifact }) => ({
    name,
    parts: recordedParts(artifact.configHash, artifact.configHashParts, artifact.configDataParts),
    data: recordedDataParts(artifact),
  }));
  const [first, ...others] = named;
  const changes: string[] = [];
  for (const other of others) {
    if (first?.parts === undefined || other.parts === undefined) return COVERED;
    const data =
      first.data !== undefined && other.data !== undefined
        ? { data: { before: first.data, after: other.data } }
        : {};
    const what = describeConfigChanges(first.parts, other.parts, data);
    changes.push(`From ${first.name} to ${other.name}: ${what.join('; ')}`);
  }
  return changes.join('. ');
}

const COVERED =
  "The config's meaning, a prompt or message file it reads, or a non-secret environment variable it refers to, changed between them, or a module it loads (a function target, a module evaluator, a pass module, or a local file one of them imports) or the script a command target runs did (comments, formatting, key order, quoting and anchors do not count; an earlier evalgate recorded a hash of the file's text, and one before that did not cover modules and command scripts, so its shards differ from a later one's when the config names any)";
