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
import { shownTag, tagHint } from './tag-filter.ts';

/** One issue per tag of `suite`'s testset `tags:` that `known` (every tag its rows have) lacks. */
export function configTagIssues(
  config: Pick<LoadedConfig, 'file' | 'locate'>,
  suite: Pick<SuiteConfig, 'index' | 'testset'>,
  known: readonly string[],
): Issue[] {
  const at = suiteIssueAt(config, suite);
  return (suite.testset.tags ?? []).flatMap((tag, i) =>
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
