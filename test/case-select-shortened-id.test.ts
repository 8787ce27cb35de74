/**
 * `--case` takes an id as the summary, the PR comment and `evals compare` print it, shortened
 * with `…` (`77f519fbc5f…`): copied whole from the terminal, the `…` came along and the id
 * matched nothing (exit 2). A trailing `…` (or `...`) marks the start of an id.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { caseIdMatch } from '../src/report/show-select.ts';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';

describe('--case with an id shortened as the reports print it', () => {
  it('a trailing … or ... is a prefix; a whole id ending so still matches exactly', () => {
    assert.equal(caseIdMatch('77f519fbc5ff7d', '77f519fbc5f…'), 'prefix');
    assert.equal(caseIdMatch('77f519fbc5ff7d', '77f519fbc5f...'), 'prefix');
    assert.equal(caseIdMatch('88f519fbc5ff7d', '77f519fbc5f…'), null);
    assert.equal(caseIdMatch('odd…', 'odd…'), 'exact');
  });

  it('evals show --case ID… shows the case the summary listed', async () => {
    const dir = jsonlProject(
      [{ q: 'a' }, { q: 'b' }],
      ['evaluators:', '  - { id: e, use: is-equals, with: { expected: "{{case.q}}" } }'],
      {},
    );
    await runInProcess(['run', '-o', 'results.json'], dir);
    const id = artifactCases(dir)[0]!.cases[1]!.id;
    const shown = await runInProcess(
      ['show', 'results.json', '--case', `${id.slice(0, 11)}…`, '--json'],
      dir,
    );
    assert.equal(shown.code, 0, shown.stderr);
    const json = JSON.parse(shown.stdout) as { cases: { case: { id: string } }[] };
    assert.deepEqual(
      json.cases.map((c) => c.case.id),
      [id],
    );
  });
});
