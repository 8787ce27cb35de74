/**
 * A grid key that nothing of a model or http suite reads. Such a target sends only what its
 * templates name, so each value of the key sends the very same requests: `grid: { temperature:
 * [0, 0.7] }` beside a model target runs twice at the target's one temperature, and the matrix
 * shows two runs that differ in a label only. A function, a command (which gets the grid point
 * on its stdin), a module evaluator and a `pass:` module are given the grid point itself, so a
 * suite with any of them is not checked.
 */
import { resolve } from 'node:path';
import { suiteIssueAt } from '../config/config-path.ts';
import { evaluatorTemplateStrings, promptFileRefs } from '../config/template-check.ts';
import { targetTemplateStrings } from '../config/target.ts';
import type { LoadedConfig, SuiteConfig } from '../config/types.ts';
import type { Issue } from '../shared/errors.ts';
import { readRegularFileSync } from '../shared/regular-file.ts';
import { parseTemplatePath, templateExpressions } from '../shared/templates.ts';
import { expandGrid } from '../plan/grid.ts';

/**
 * One issue per grid key of `suite` that no template of its target, its prompt and message
 * files or its built-in evaluators reads, at the key. The files are those of every point of the
 * suite's whole grid, not only of the points a `--grid` filter selects: a config is valid or not
 * whatever slice a matrix job runs (a key read only in `b.txt` is read, also in the job of
 * `prompt=a.txt`).
 */
export function unreadGridKeyIssues(config: LoadedConfig, suite: SuiteConfig): Issue[] {
  const { target } = suite;
  if (target.kind !== 'model' && target.kind !== 'http') return [];
  if (suite.pass !== 'all' && suite.pass !== 'any') return [];
  if (suite.evaluators.some((evaluator) => evaluator.kind === 'module')) return [];
  const keys = Object.keys(suite.grid);
  if (keys.length === 0) return [];

  const texts = [
    ...targetTemplateStrings(target).map(([, text]) => text),
    ...evaluatorTemplateStrings(suite).map(([, text]) => text),
  ];
  if (target.kind === 'model') {
    for (const { content } of target.messages) if ('file' in content) texts.push(content.file);
    for (const ref of promptFileRefs(target, expandGrid(suite.grid))) {
      try {
        const file = resolve(config.dir, ref.file);
        texts.push(readRegularFileSync(file, Number.MAX_SAFE_INTEGER).toString('utf8'));
      } catch {
        // A file that cannot be read is reported by the target: it may read the key for all
        // that is known here.
        return [];
      }
    }
  }
  const read = paramsRead(texts);
  if (read === 'all') return [];
  const at = suiteIssueAt(config, suite);
  const where =
    target.kind === 'model'
      ? "the model target's model, prompt or messages (or their files) nor in an evaluator's with: (a model target's temperature and other settings are not templates)"
      : "the http target's url, headers or body nor in an evaluator's with:";
  return keys
    .filter((key) => !read.has(key))
    .map((key) => ({
      ...at('grid', key),
      code: 'grid.unread-key',
      message: `nothing reads this grid key: no {{ params.${key} }} in ${where}, so each of its ${suite.grid[key]?.length ?? 0} values would send the same requests; read it in a template, or remove it (to run each case several times, set trials:)`,
    }));
}

/** The grid keys the templates of `texts` read, or `all` when one reads `{{ params }}` whole. */
function paramsRead(texts: readonly string[]): Set<string> | 'all' {
  const read = new Set<string>();
  for (const text of texts) {
    for (const expression of templateExpressions(text)) {
      const path = parseTemplatePath(expression);
      if ('error' in path || path.root !== 'params') continue;
      const key = path.keys[0];
      if (key === undefined) return 'all';
      read.add(key);
    }
  }
  return read;
}
