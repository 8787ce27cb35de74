/**
 * The `--tag` filter a run records in each run's `testset.tagFilter`, so the pieces of one run
 * (the shards `evals merge` combines, the partial `--resume` finishes) can be checked to cover
 * the same cases. `--suite` and `--grid` need no record of their own: the runs an artifact holds
 * are the suites and grid points it ran. Pure.
 */
import type { TestsetInfo } from '../types/index.ts';
import type { RowMeta } from '../types/testset.ts';
import { closestMatch } from '../config/did-you-mean.ts';
import { quotedValue, shownValue } from '../shared/shown-value.ts';
import type { RunFilters } from './types.ts';

/** Tags a message lists at most, so a testset of thousands cannot flood the terminal. */
const LISTED_TAGS = 20;

/**
 * Why each `--tag` that no row of the selected suites' testsets carries is refused: such a tag is
 * almost surely a typo, and it selects nothing, so a suite with `allowEmpty: true` would pass
 * having run nothing. The rows counted are all of each testset, before its `tags:` and `--shard`
 * narrow them, so every shard (and a `--resume`) of one run decides alike. Each message names
 * the tag and the nearest tag the rows have, or lists them.
 */
export function unknownTagProblems(
  tags: readonly string[] | undefined,
  rows: Iterable<{ meta: RowMeta }>,
): string[] {
  const known = tagsOf(rows);
  return [...new Set(tags ?? [])]
    .filter((tag) => !known.includes(tag))
    .map(
      (tag) =>
        `--tag ${shownTag(tag)}: no row of the selected suites' testsets has this tag (${tagHint(tag, known)})`,
    );
}

/** Every tag `rows` carry, sorted. */
export function tagsOf(rows: Iterable<{ meta: RowMeta }>): string[] {
  const known = new Set<string>();
  for (const row of rows) {
    const tags = row.meta.tags;
    if (tags !== undefined) for (const tag of tags) known.add(tag);
  }
  return [...known].sort();
}

/** `did you mean smoke? their tags: a, smoke`, or `they have no __tags__`, for a tag not in `known`. */
export function tagHint(tag: string, known: readonly string[]): string {
  if (known.length === 0) return 'they have no __tags__';
  const near = closestMatch(tag, known);
  const listed = known.slice(0, LISTED_TAGS).map(shownTag).join(', ');
  const more = known.length > LISTED_TAGS ? `, … ${known.length - LISTED_TAGS} more` : '';
  return `${near === undefined ? '' : `did you mean ${shownTag(near)}? `}their tags: ${listed}${more}`;
}

/**
 * What a run records of `filters.tags`: the tags sorted and each once (their order and repeats
 * select the same rows), `[]` for a shard run without `--tag`, and nothing for an unsharded run
 * without it. A shard always records one so that `evals merge` can tell "no `--tag`" from a shard
 * written by an older evalgate, which recorded none; an unsharded run has no need, and so keeps
 * the artifact of a plain `evals run` as it was.
 */
export function recordedTagFilter(filters: RunFilters): string[] | undefined {
  const tags = [...new Set(filters.tags ?? [])].sort();
  return tags.length > 0 || filters.shard !== undefined ? tags : undefined;
}

/** `info` with the tag filter a run with `filters` records (see {@link recordedTagFilter}). */
export function withTagFilter<T extends Omit<TestsetInfo, 'cases'>>(
  info: T,
  filters: RunFilters,
): T {
  const tagFilter = recordedTagFilter(filters);
  return tagFilter === undefined ? info : { ...info, tagFilter };
}

/** Whether two recorded tag filters select the same rows (absent: no `--tag`). */
export function sameTagFilter(
  a: readonly string[] | undefined,
  b: readonly string[] | undefined,
): boolean {
  return tagFilterKey(a) === tagFilterKey(b);
}

/** A recorded tag filter as one comparable string: `[]` and absent alike mean no `--tag`. */
export function tagFilterKey(tags: readonly string[] | undefined): string {
  return JSON.stringify([...new Set(tags ?? [])].sort());
}

/** How a run with a recorded tag filter ran: `with --tag a --tag b`, or `without --tag`. */
export function describeTagFilter(tags: readonly string[] | undefined): string {
  if (tags === undefined || tags.length === 0) return 'without --tag';
  const quoted = tags.map((tag) => (/^[\w@%+=:,./-]+$/.test(tag) ? tag : JSON.stringify(tag)));
  return `with ${quoted.map((tag) => `--tag ${tag}`).join(' ')}`;
}

/**
 * A tag in a message: a plain word as it is, any other (a blank, a comma, an empty tag) quoted,
 * so `--tag "we ird"` and a list of tags read as what they are; a long one cut.
 */
export function shownTag(tag: string): string {
  return /^[\w@%+=:./-]+$/.test(tag) ? shownValue(tag) : quotedValue(tag);
}

/** One shard by name, and the tag filter each of its runs records (`undefined`: none). */
export interface ShardTagFilters {
  name: string;
  tagFilters: readonly (readonly string[] | undefined)[];
}

/** How {@link checkShardTagFilters} groups a shard whose runs record no filter, or differ. */
const UNRECORDED = 'unrecorded';
const MIXED = 'mixed';

/**
 * Why shards cannot be merged for their `--tag` filters, and what is worth a warning. Shards run
 * with different filters hold cases of different selections, which no single run would have:
 * refused, as other `--suite` or `--grid` are. Older evalgate versions recorded no filter, so a
 * shard without one may have run with any `--tag` (its absence does not mean "no `--tag`"): next
 * to shards that record one it is refused; when no shard records one (all older), nothing can be
 * checked, and the merge goes on as those versions did, with a warning that says so.
 */
export function checkShardTagFilters(shards: readonly ShardTagFilters[]): {
  problems: string[];
  warnings: string[];
} {
  const groups = new Map<string, { names: string[]; tags: readonly string[] | undefined }>();
  for (const shard of shards) {
    const keys = new Set(
      shard.tagFilters.map((t) => (t === undefined ? UNRECORDED : tagFilterKey(t))),
    );
    // Runs of one shard that disagree (an edited file) form a group of their own, never matched.
    const key = keys.size > 1 ? `${MIXED}:${shard.name}` : ([...keys][0] ?? tagFilterKey([]));
    const group = groups.get(key) ?? { names: [], tags: shard.tagFilters[0] };
    group.names.push(shard.name);
    groups.set(key, group);
  }
  const unrecorded = groups.get(UNRECORDED);
  if (groups.size <= 1) {
    const which = unrecorded?.names.join(', ');
    const verb = unrecorded?.names.length === 1 ? 'records' : 'record';
    return {
      problems: [],
      warnings: unrecorded
        ? [
            `${which} ${verb} no --tag filter (written by an older evalgate), so the merge cannot check that every shard ran the same cases; if any ran with --tag, run every shard again with this version`,
          ]
        : [],
    };
  }
  const listed = [...groups].map(([key, { names, tags }]) => {
    const what =
      key === UNRECORDED
        ? `${names.length === 1 ? 'records' : 'record'} no --tag filter (written by an older evalgate)`
        : key.startsWith(MIXED)
          ? 'has runs with different --tag filters'
          : `ran ${describeTagFilter(tags)}`;
    return `${names.join(', ')} ${what}`;
  });
  return {
    problems: [
      `the shards ran different --tag filters: ${listed.join('; ')}. Every shard must run the same cases: run them again with the same --tag`,
    ],
    warnings: [],
  };
}
