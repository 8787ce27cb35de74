/**
 * A testset's `tags:` that no row of it has: it keeps no row, so the suite runs nothing, and with
 * `allowEmpty: true` passes having checked nothing. Almost surely a typo, so the plan refuses it,
 * as it refuses a `--tag` no row has (tag-filter.ts). So is a tag of an evaluator's
 * `when: { tags }` that no row of the testset has: the evaluator never applies to the rows it
 * meant, and when another of its tags matches (`[smok, slow]`), nothing said so. Checked against
 * every row of the testset, not the ones `--tag` selects, which may leave an evaluator's rows
 * out on purpose. Pure.
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
  suite: Pick<SuiteConfig, 'index' | 'testset' | 'evaluators'>,
  rows: Iterable<{ meta: RowMeta }>,
): Issue[] {
  const tags = suite.testset.tags ?? [];
  const withWhen = suite.evaluators.filter((evaluator) => evaluator.when !== undefined);
  if (tags.length === 0 && withWhen.length === 0) return [];
  const known = tagsOf(rows);
  const at = suiteIssueAt(config, suite);
  const whenIssues = withWhen.flatMap((evaluator) =>
    (evaluator.when?.tags ?? []).flatMap((tag, i) =>
      known.includes(tag)
        ? []
        : [
            {
              ...at('evaluators', evaluator.index, 'when', 'tags', i),
              code: 'plan.unknown-tag',
              message: `when: no row of the testset has the tag ${shownTag(tag)} (${tagHint(tag, known)}), so ${evaluator.id} would evaluate no row for it; tag the rows, or remove it`,
            },
          ],
    ),
  );
  const testsetIssues = tags.flatMap((tag, i) =>
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
  return [...testsetIssues, ...whenIssues];
}
