/**
 * A pull request in miniature, made by the CLI: a project whose rows change between two runs
 * (`base.json`, then `head.json`), and the two views of their comparison a reviewer reads: the PR
 * comment's markdown (`evals compare --format md`) and the HTML report (`evals report head.json
 * --baseline base.json`), written to `report.html` beside them.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFiles } from './cli.ts';
import { jsonlProject, runInProcess } from './in-process.ts';

/**
 * The project's folder, after `base` rows ran to `base.json` and `head` rows (the same suite) to
 * `head.json`, each run exiting with the code `codes` expects.
 */
export async function baseAndHead(
  base: Record<string, unknown>[],
  head: Record<string, unknown>[],
  suite: string[],
  codes: readonly [number, number] = [0, 1],
): Promise<string> {
  const dir = jsonlProject(base, suite);
  assert.equal((await runInProcess(['run', '-o', 'base.json'], dir)).code, codes[0]);
  const fresh = jsonlProject(head, suite);
  writeFiles(dir, { 'rows.jsonl': readFileSync(join(fresh, 'rows.jsonl'), 'utf8') });
  assert.equal((await runInProcess(['run', '-o', 'head.json'], dir)).code, codes[1]);
  return dir;
}

/** The comment's markdown; `report.html` is written beside the artifacts. */
export async function commentAndPage(dir: string): Promise<string> {
  const md = await runInProcess(['compare', 'base.json', 'head.json', '--format', 'md'], dir);
  const report = await runInProcess(
    ['report', 'head.json', '--baseline', 'base.json', '-o', 'report.html'],
    dir,
  );
  assert.equal(report.code, 0, report.stderr);
  return md.stdout;
}
