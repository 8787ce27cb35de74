/**
 * A testset's `tags:` that no row of it has: it keeps no row, so the suite runs nothing, and with
 * `allowEmpty: true` passes having checked nothing. Almost surely a typo, so the plan refuses it,
 * as it refuses a `--tag` no row has (tag-filter.ts). An evaluator's `when: { tags }` that matches
 * no row is not refused here: the run says so (`evaluated none of the cases`) and, when no
 * evaluator judged any case, fails its `judged` condition. Pure.
 */
import { suiteIssueAt } from '../config/config-path.ts';
import type { LoadedConfig, SuiteConfig } from '../config/types.ts';
import type { Issue } from '../shared/errors.ts';
import type { RowMeta } from '../types/testset.ts';
import { shownTag, tagHint, tagsOf } from './tag-filter.ts';

/**
 * One issue per tag of `suite`'s testset `tags:` that no row of `rows` (all of its testset's)
 * has. The rows' tags are gathered only for a suite that has `tags:`.
 */
export function configTagIssues(
  config: Pick<LoadedConfig, 'file' | 'locate'>,
  suite: Pick<SuiteConfig, 'index' | 'testset'>,
  rows: Iterable<{ meta: RowMeta }>,
): Issue[] {
  const tags = suite.testset.tags ?? [];
  if (tags.length === 0) return [];
  const known = tagsOf(rows);
  const at = suiteIssueAt(config, suite);
  return tags.flatMap((tag, i) =>
    known.includes(tag)
      ? []
      : [
          {
            ...at('testset', 'tags', i),
            code: 'plan.unknown-tag',
            message: `testset tags: no row of the testset has the tag ${shownTag(tag)} (${tagHint(tag, known)}); tag the rows, or remove it`,
          },
        ],
  );
}
