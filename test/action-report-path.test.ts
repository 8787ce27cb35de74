/**
 * The HTML report is named after the results file, beside it, so two Action steps writing their
 * results into one folder keep one report each; the `report-path` output, the job summary and
 * the comment name the report the step wrote. The built dist/index.js against the fake GitHub on
 * 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { useActionFixture } from './helpers/action-fixture.ts';
import { ALL_PASS, ONE_FAILING, suiteFiles, workspace } from './helpers/action-run.ts';

describe('the HTML report of each results file', () => {
  const fixture = useActionFixture();

  it('two steps writing into one folder keep one report each, named after their results', async () => {
    const ws = workspace(
      suiteFiles(ONE_FAILING, {
        'passing.yaml': `version: 1
suites:
  - id: qa
    testset: { path: testsets/pass.csv }
    function: ./app/answer.mjs
    evaluators:
      - { id: exact, use: is-equals, with: { expected: "{{case.expected}}" } }
`,
        'testsets/pass.csv': `expected,answer\n${ALL_PASS.map((r) => `${r.expected},${r.answer}`).join('\n')}\n`,
      }),
    );
    // The first step: the default results name keeps the report name the docs use.
    const first = await fixture.run(ws, {});
    assert.equal(first.code, 1, first.stdout);
    const firstReport = join(ws.dir, 'evals-report.html');
    assert.equal(first.outputs['report-path'], firstReport);
    assert.match(first.summary, /HTML report: `evals-report\.html`/);
    const firstHtml = readFileSync(firstReport, 'utf8');

    // The second step, another config, its results beside the first's.
    const second = await fixture.run(ws, {
      config: 'passing.yaml',
      results: 'passing.json',
      name: 'passing',
    });
    assert.equal(second.code, 0, second.stdout);
    const secondReport = join(ws.dir, 'passing-report.html');
    assert.equal(second.outputs['report-path'], secondReport);
    assert.ok(existsSync(secondReport), 'the second step wrote its own report');
    assert.match(second.summary, /HTML report: `passing-report\.html`/);
    const comment = fixture.server.state.comments
      .get(7)
      ?.find((c) => c.body.includes('name="passing"'));
    assert.match(comment?.body ?? '', /HTML report: `passing-report\.html`/);
    // The first step's report is still the first step's.
    assert.equal(readFileSync(firstReport, 'utf8'), firstHtml);
    assert.notEqual(readFileSync(secondReport, 'utf8'), firstHtml);
  });

  it('a --report in args is the report the outputs and the summary name', async () => {
    const ws = workspace(suiteFiles(ONE_FAILING));
    const r = await fixture.run(ws, { args: '--report custom.html' });
    assert.equal(r.code, 1, r.stdout);
    assert.equal(r.outputs['report-path'], join(ws.dir, 'custom.html'));
    assert.ok(existsSync(join(ws.dir, 'custom.html')));
    assert.match(r.summary, /HTML report: `custom\.html`/);
  });

  it('with report: false, report-path is empty', async () => {
    const ws = workspace(suiteFiles(ONE_FAILING));
    const r = await fixture.run(ws, { report: 'false' });
    assert.equal(r.code, 1, r.stdout);
    assert.equal(r.outputs['report-path'], '');
    assert.equal(existsSync(join(ws.dir, 'evals-report.html')), false);
    assert.doesNotMatch(r.summary, /HTML report:/);
  });
});
