/**
 * The report page's case detail, in real chromium, for a run compared with its baseline:
 * - a case whose output held an integer past 2^53 shows its `warnings` note beside the output;
 * - a fixed case says so (`Fixed:`), as a newly failing one does, and says why its baseline
 *   result is missing when the recorded baseline file is gone;
 * - `evals report` finds the baseline file the run recorded (as the run typed it, from where it
 *   ran) beside the results when it runs elsewhere, passes over one there that holds another run
 *   for the one in the working folder, and names every path it tried when the file is in neither
 *   place.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, renameSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openFilePage, textNow } from './helpers/browser.ts';
import { BIG, READ_AS, fixedWarnedProject } from './helpers/fixed-warned-project.ts';
import { runInProcess } from './helpers/in-process.ts';

let browser: Browser;
let dir = '';
let ids: string[] = [];

before(async () => {
  browser = await launchBrowser();
  const project = await fixedWarnedProject(['--report', 'run.html']);
  assert.equal(project.head.code, 0, project.head.stderr);
  dir = project.dir;
  ids = project.ids;
});

after(() => browser.close());

async function openCase(file: string, id: string): Promise<Page> {
  const page = await openFilePage(browser, file, '#case-count');
  await page.click(`#case-rows .case[data-id="${id}"]`);
  await page.waitForSelector('#detail:not([hidden])');
  return page;
}

describe('the case detail of a compared run', () => {
  it("shows the case's warnings beside its output", async () => {
    const page = await openCase(join(dir, 'run.html'), ids[0] ?? '');
    const warnings = await page.$$eval(
      '#detail .detail-warning',
      (nodes: { textContent: string | null }[]) => nodes.map((n) => n.textContent ?? ''),
    );
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(
      warnings[0] ?? '',
      new RegExp(`^Warning: the output holds ${BIG}, .* read as ${READ_AS}`),
    );
    // A case whose output held none shows none.
    await page.keyboard.press('Escape');
    await page.click(`#case-rows .case[data-id="${ids[3] ?? ''}"]`);
    assert.equal(await page.$('#detail .detail-warning'), null);
    await page.close();
  });

  it('a fixed case says it is fixed, beside its baseline result', async () => {
    const page = await openCase(join(dir, 'run.html'), ids[1] ?? '');
    assert.equal(
      await textNow(page, '#detail-fixed'),
      'Fixed: did not pass in the baseline, passes now.',
    );
    assert.equal(await page.$('#detail-newly-failing'), null);
    assert.equal(await textNow(page, '#detail-base-output'), '{\n  "ok": "no",\n  "id": 7\n}');
    await page.close();
  });
});

describe('evals report of the run from another folder', () => {
  it('finds the recorded baseline beside the results', async () => {
    // The run typed `--baseline base.json` in its own folder; the report runs in the parent.
    const r = await runInProcess(
      ['report', join(basename(dir), 'head.json'), '-o', 'up.html'],
      dirname(dir),
    );
    assert.equal(r.code, 0, r.stderr);
    const page = await openCase(join(dirname(dir), 'up.html'), ids[1] ?? '');
    assert.equal(await textNow(page, '#detail-base-output'), '{\n  "ok": "no",\n  "id": 7\n}');
    await page.close();
  });

  it('passes over a file beside the results that holds another run for the one it was typed as', async () => {
    // The results were copied into moved/, beside another run's base.json; the report runs in
    // the run's own folder, where base.json, as the run typed it, is the baseline it compared with.
    mkdirSync(join(dir, 'moved'), { recursive: true });
    copyFileSync(join(dir, 'head.json'), join(dir, 'moved', 'head.json'));
    copyFileSync(join(dir, 'head.json'), join(dir, 'moved', 'base.json'));
    const r = await runInProcess(['report', join('moved', 'head.json'), '-o', 'moved.html'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /no baseline outputs/);
    const page = await openCase(join(dir, 'moved.html'), ids[1] ?? '');
    assert.equal(await textNow(page, '#detail-base-output'), '{\n  "ok": "no",\n  "id": 7\n}');
    await page.close();
  });

  it('names the paths it tried when the baseline is in neither place, for a fixed case too', async () => {
    mkdirSync(join(dir, 'kept'), { recursive: true });
    renameSync(join(dir, 'base.json'), join(dir, 'kept', 'base.json'));
    try {
      const where = basename(dir);
      const r = await runInProcess(
        ['report', join(where, 'head.json'), '-o', 'gone.html'],
        dirname(dir),
      );
      assert.equal(r.code, 0, r.stderr);
      // Said where the report is written too, with the paths looked at.
      assert.match(
        r.stderr,
        /^warning: the HTML report shows no baseline outputs: base\.json: no such results file \(the baseline the run was compared with; looked for at .*base\.json \(beside the results\) and at base\.json \(from the working folder\)\)$/m,
      );
      const page = await openCase(join(dirname(dir), 'gone.html'), ids[1] ?? '');
      assert.equal(await page.$('#detail-base'), null);
      assert.equal(
        await textNow(page, '#detail-base-missing'),
        `The baseline's result of this case is not in the page: base.json: no such results file (the baseline the run was compared with; looked for at ${join(where, 'base.json')} (beside the results) and at base.json (from the working folder)) (evals report RESULTS --baseline BASE -o FILE adds it).`,
      );
      await page.close();
    } finally {
      renameSync(join(dir, 'kept', 'base.json'), join(dir, 'base.json'));
    }
  });
});
