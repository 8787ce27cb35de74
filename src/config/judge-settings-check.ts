/**
 * The rules of a `judge:` block, of `defaults` or of an evaluator (built-in or module): no
 * credentials in its `baseUrl`'s user part, headers fetch can send, and no templates in any of
 * its settings.
 */
import { isRecord } from '../shared/is-record.ts';
import { judgeTemplateProblems } from './template-check.ts';
import { checkHeaders, type AddProblem } from './header-check.ts';
import type { ConfigPath } from './types.ts';
import { checkUrlCredentials, checkUrlPort } from './url-credentials.ts';

/** Reports each problem of the `judge:` block `judge` at `path` through `add`. */
export function checkJudgeSettings(judge: unknown, path: ConfigPath, add: AddProblem): void {
  if (!isRecord(judge)) return;
  checkUrlCredentials(judge.baseUrl, [...path, 'baseUrl'], 'api-key', add);
  checkUrlPort(judge.baseUrl, [...path, 'baseUrl'], add);
  checkHeaders(judge.headers, path, 'judge.header', add);
  for (const [valuePath, message] of judgeTemplateProblems(judge, path)) {
    add('judge.template', valuePath, message);
  }
}
