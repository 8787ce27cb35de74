/**
 * The load-time check of a `headers:` map, for every place that sends headers: a model or HTTP
 * target's, and a `judge:` block's (of `defaults` or an evaluator). A header fetch would refuse
 * is a config problem at its line, not a failure of every call at run time.
 */
import { headerProblem } from '../judge/header-problem.ts';
import { isRecord } from '../shared/is-record.ts';
import { sampleText } from '../shared/templates.ts';
import type { ConfigPath } from './types.ts';

/** Reports a problem of the config, at a path (or, with `key`, at that key of the mapping). */
export type AddProblem = (code: string, path: ConfigPath, message: string, key?: string) => void;

/**
 * Each header of `headers` (the map at `[...at, 'headers']`) that fetch would refuse (see
 * `headerProblem`), reported with `code`: a bad name at its key, a bad value at the value, which
 * is never quoted. A template in a value is checked per case, when it is sent; its place is
 * read as a plain word here.
 */
export function checkHeaders(
  headers: unknown,
  at: ConfigPath,
  code: string,
  add: AddProblem,
): void {
  if (!isRecord(headers)) return;
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== 'string') continue;
    // A template stands for a plain word that any header takes (`connection` takes only a few).
    const problem = headerProblem(name, sampleText(value, 'close'));
    if (problem === null) continue;
    if (headerProblem(name, 'close') !== null) add(code, [...at, 'headers'], problem, name);
    else add(code, [...at, 'headers', name], problem);
  }
}
