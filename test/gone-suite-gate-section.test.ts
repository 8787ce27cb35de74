/**
 * A suite of the baseline gone from the config fails the run (`missingSuites`), but no run of it
 * is in the artifact, so no run's gate condition says so. The places that explain a failed gate
 * list it too: `evals show --failed`, which otherwise said only that no case failed, and the
 * report page's gate section (the verdict header already named it). Real runs, real chromium.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, openFilePage } from './helpers/browser.ts';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';

const config = (ids: readonly string[]): string =>
  [
    'version: 1',
    'suites:',
    ...ids.flatMap((id) => [
      `  - id: ${id}`,
      '    testset: { path: rows.jsonl }',
      '    hash: [q]',
      '    evaluators:',
      '      - { id: close, use: levenshtein, with: { expected: "right" }, threshold: { gte: 0.9 } }',
      '    gate: { regressions: block }',
    ]),
    '',
  ].join('\n');

const GONE =
  'suite "s" of the baseline is not in the config any more ("t" is new in the config: renamed?), so nothing was compared with it; if that is intended, list it in the config\'s top-level removedSuites';

let dir = '';
let browser: Browser;

before(async () => {
  browser = await launchBrowser();
  dir = scratch();
  const rows = Array.from({ length: 4 }, (_, i) => JSON.stringify({ q: `q${i}`, output: 'right' }));
  writeFiles(dir, { 'evals.yaml': config(['s', 'other']), 'rows.jsonl': `${rows.join('\n')}\n` });
  assert.equal((await runCli(['run', '-o', 'base.json'], { cwd: dir })).code, 0);
  writeFiles(dir, { 'evals.yaml': config(['t', 'other']) });
  const head = await runCli(['run', '--baseline', 'base.json', '-o', 'head.json'], { cwd: dir });
  assert.equal(head.code, 1, head.stdout + head.stderr);
});

after(() => browser.close());

describe('a suite of the baseline gone from the config', () => {
  it('evals show --failed says it fails the run, not only that no case failed', async () => {
    const r = await runCli(['show', 'head.json', '--failed'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(
      r.stdout.includes(
        `no case did not pass in the runs selected, but head.json fails for a suite of the baseline gone from the config:\n    \u2717 regressions: ${GONE} (the baseline's gate: block)\n`,
      ),
      r.stdout,
    );
  });

  it("the report page's gate section has a row for it", async () => {
    const r = await runCli(['report', 'head.json', '-o', 'head.html'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    const page = await openFilePage(browser, join(dir, 'head.html'), '#gate');
    const rows = await page.$$eval(
      '#gate tbody tr',
      (
        trs: {
          className: string;
          textContent: string | null;
          children: ArrayLike<{ textContent: string | null }>;
        }[],
      ) =>
        trs.map((tr) =>
          [tr.className, ...Array.from(tr.children, (td) => td.textContent ?? '')].join(' | '),
        ),
    );
    assert.ok(
      rows.includes(
        `bad gone-suite | s (gone) | \u2717 | regressions | the suite in the config, or listed in removedSuites | ${GONE}`,
      ),
      rows.join('\n'),
    );
    await page.close();
  });
});
