/**
 * The two views of a comparison a reviewer reads, made from `base.json` and `head.json` in `dir`
 * by the CLI: the PR comment's markdown (`evals compare --format md`) and the HTML report
 * (`evals report head.json --baseline base.json`), written to `report.html` there.
 */
import assert from 'node:assert/strict';
import { runInProcess } from './in-process.ts';

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
