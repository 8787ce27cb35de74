/**
 * For the tests of a baseline the Action could not compare with: a suite whose rows all pass,
 * the base branch's results made before the rows were given new ids (so the two share no case),
 * and every place a reviewer reads the report.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { workspace, type ActionRun, type Workspace } from './action-run.ts';
import type { GitHubServer } from './github-server.ts';
import { runInProcess } from './in-process.ts';

/**
 * Suite `suite` of 12 rows that all pass, with ids `${prefix}0` to `${prefix}11` (`hash: [id]`
 * makes a row's id its `id` field), under `regressions: block`; `top`: lines before `suites:`.
 */
export function passingSuite(
  options: { suite?: string; prefix?: string; top?: string } = {},
): Record<string, string> {
  const { suite = 'qa', prefix = 'r', top = '' } = options;
  return {
    'evals.yaml': `version: 1
${top}suites:
  - id: ${suite}
    testset: { path: rows.jsonl }
    hash: [id]
    function: ./m.mjs#fn
    evaluators:
      - { id: eq, use: is-equals, with: { expected: ok } }
    gate: { regressions: block }
`,
    'rows.jsonl': `${Array.from({ length: 12 }, (_, n) => JSON.stringify({ id: `${prefix}${n}` })).join('\n')}\n`,
    'm.mjs': `export const fn = () => 'ok';\n`,
  };
}

/**
 * A workspace whose rows have new ids, with `base.json`: the results of the old ids. Returns it
 * and those results' text (to seed as the base branch's artifact). With `results`, the new
 * rows' own results are there too (`evals-results.json`), for `mode: report`.
 */
export async function renamedRows(results = false): Promise<{ ws: Workspace; base: string }> {
  const old = workspace(passingSuite({ prefix: 'old-' }));
  const made = await runInProcess(['run', '-o', 'base.json'], old.dir);
  assert.equal(made.code, 0, made.stderr);
  const base = readFileSync(join(old.dir, 'base.json'), 'utf8');
  const ws = workspace({ ...passingSuite({ prefix: 'new-' }), 'base.json': base });
  if (results) {
    const own = await runInProcess(['run', '-o', 'evals-results.json'], ws.dir);
    assert.equal(own.code, 0, own.stderr);
  }
  return { ws, base };
}

/** Every place a reviewer reads the report: the PR comment, the job summary, the check run. */
export function reports(server: GitHubServer, run: ActionRun): Record<string, string> {
  const comments = server.state.comments.get(7) ?? [];
  const checks = [...server.state.checkRuns.values()];
  return {
    comment: comments.at(-1)?.body ?? 'no comment',
    summary: run.summary,
    'check run': checks.at(-1)?.output.summary ?? 'no check run',
  };
}

/** The warning block that says there was no comparison, and why; '' when there is none. */
export function notComparedNote(text: string): string {
  return /^> \[!WARNING\]\n> Not compared with a baseline[^\n]*$/mu.exec(text)?.[0] ?? '';
}
