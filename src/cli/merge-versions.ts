/**
 * `evals merge` of shards written by different evalgate versions (docs/artifact.md, "Artifacts
 * across evalgate versions"). The merging evalgate computes the merged artifact's summaries and
 * gates and records its own version as its `tool.version`, so it must be the newest among the
 * shards': an older one would compute them by rules older than some cases were scored by, record
 * a version older than those, and lose the fields it does not know. So shards of a newer evalgate
 * are refused, naming each and the version to merge with; shards of older ones are merged, with
 * a warning that says which version wrote which.
 */
import { openResultsFile, unknownFieldsRefusal } from '../pipeline/artifact-files.ts';
import type { ResultsFile } from '../pipeline/artifact-files.ts';
import type { CommandContext } from '../pipeline/context.ts';
import { isNewerVersion } from '../artifact/unknown-fields.ts';
import type { NamedArtifact } from '../artifact/merge.ts';
import { usageError } from '../shared/errors.ts';
import { printable } from '../shared/text-table.ts';
import { toolVersion } from '../shared/version.ts';

/** Who wrote a shard, and the fields it holds that this evalgate does not know, if any. */
interface Writer {
  name: string;
  version: string;
  fields?: string;
}

/**
 * Opens the shards `names` (each read a case at a time, refusing fields this evalgate does not
 * know). Throws a usage error naming every shard a newer evalgate wrote when there is one, else
 * the first shard's problem.
 */
export function openShards(names: readonly string[], ctx: CommandContext): ResultsFile[] {
  const opened: ResultsFile[] = [];
  const writers: Writer[] = [];
  let refused: Error | undefined;
  for (const name of names) {
    try {
      const file = openResultsFile(name, ctx, 'evals merge:', 'refuse');
      opened.push(file);
      writers.push({ name, version: file.artifact.tool.version });
    } catch (error) {
      // Fields this evalgate does not know: a newer one's, which the version check names.
      const unknown = unknownFieldsRefusal(error);
      if (unknown === undefined || !(error instanceof Error)) throw error;
      refused ??= error;
      writers.push({ name, version: unknown.writtenBy, fields: unknown.fields });
    }
  }
  const newer = writers.filter((writer) => isNewerVersion(writer.version, toolVersion));
  if (newer.length > 0) throw newerShards(newer);
  if (refused !== undefined) throw refused;
  return opened;
}

function newerShards(newer: readonly Writer[]): Error {
  const newest = newer.reduce((a, b) => (isNewerVersion(b.version, a.version) ? b : a)).version;
  const listed = newer.map((w) => `${printable(w.name)} by evalgate ${printable(w.version)}`);
  const lost = newer
    .filter((w) => w.fields !== undefined)
    .map((w) => `${printable(w.name)} has fields this one does not know: ${w.fields}`);
  return usageError(
    'merge.newer-shards',
    `evals merge: ${newer.length === 1 ? 'a shard was' : 'shards were'} written by a newer evalgate than this one (${toolVersion}): ${listed.join(', ')}; merging needs the newest evalgate that wrote a shard, which computes the merged summaries and gates by rules as new as the cases' and records its version${lost.length > 0 ? ` (${lost.join('; ')})` : ''}: merge them with evalgate ${printable(newest)} or newer`,
  );
}

/**
 * The warning for shards written by different evalgate versions, all of them this one's or
 * older (else {@link openShards} refused them); undefined when one version wrote them all.
 */
export function mixedVersionsWarning(inputs: readonly NamedArtifact[]): string | undefined {
  const byVersion = new Map<string, string[]>();
  for (const input of inputs) {
    const version = input.artifact.tool.version;
    byVersion.set(version, [...(byVersion.get(version) ?? []), printable(input.name)]);
  }
  if (byVersion.size < 2) return undefined;
  const listed = [...byVersion].map(
    ([version, names]) => `${names.join(', ')} by ${printable(version)}`,
  );
  return `the shards were written by different evalgate versions (${listed.join('; ')}): each scored its own cases; the merged summaries, gates and tool.version (${toolVersion}) are this evalgate's, which merged them`;
}
