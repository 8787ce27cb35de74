/**
 * With one trial a case, nothing tells a flip by chance from a real change. A folded list of
 * newly failing cases was headed `within the noise` whenever its pass rate ruled out a drop of
 * `gate.minDetectableEffect`, `trials: 1` or not; but a suite whose target and evaluators answer
 * the same each time flips only when something changed, and one trial never asks twice. The
 * artifact cannot say which a suite is (a function, model, http or command target may vary even
 * under built-in checks), so with one trial a case on either side the heading now says what the
 * pass rate rules out and that whether the flips are noise cannot be told; `within the noise`
 * is kept for suites seen to be noisy (trials on both sides, some disagreeing). Checked on the
 * words, and on a real `trials: 1` comparison's PR comment (cmark-gfm) and HTML page (Chromium).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { calmFlipsName, flipsAside, newlyFailingAlarm } from '../src/report/newly-failing.ts';
import { launchBrowser, openFilePage } from './helpers/browser.ts';
import { writeFiles } from './helpers/cli.ts';
import { runComparison } from './helpers/comparison-rows.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';
import { renderGfm } from './helpers/gfm.ts';
import { commentAndPage } from './helpers/comment-and-page.ts';

const ONE_TRIAL = 'with one trial a case, whether these flips are noise cannot be told';
const POWERED = { detectable: 0.03, underpowered: false, casesNeeded: null };

describe('flips whose pass rate rules out a drop of minDetectableEffect', () => {
  const run = runComparison([], { passToFail: 5, failToPass: 4, pValue: 0.74, power: POWERED });

  it('one trial a case: the drop ruled out, and noise not told from a change', () => {
    assert.equal(newlyFailingAlarm(run), false);
    assert.equal(
      flipsAside([run]),
      `4 fixed the other way: pass rate unchanged (a drop of 10.0 pp ruled out), McNemar p = 0.740; ${ONE_TRIAL}`,
    );
    assert.equal(calmFlipsName([run]), 'newly failing, pass rate unchanged');
  });

  it('one trial in BASE only: the same, since BASE could not show the suite noisy', () => {
    const mixed = { ...run, trials: 3, baseTrials: 1 };
    assert.ok(flipsAside([mixed]).endsWith(`; ${ONE_TRIAL}`));
    assert.equal(calmFlipsName([mixed]), 'newly failing, pass rate unchanged');
  });

  it('three trials on both sides, some disagreeing: within the noise', () => {
    const noisy = { ...run, trials: 3 };
    assert.equal(
      flipsAside([noisy]),
      '4 fixed the other way, within the noise: pass rate unchanged, McNemar p = 0.740',
    );
    assert.equal(calmFlipsName([noisy]), 'newly failing within the noise');
  });

  it('over grid points of which one ran a trial a case: the largest drop ruled out at all', () => {
    const strict = { ...run, minDetectableEffect: 0.05, trials: 3 };
    assert.equal(
      flipsAside([run, strict]),
      `8 fixed the other way: pass rate unchanged at each of the 2 grid points (a drop of 10.0 pp ruled out), lowest McNemar p = 0.740; ${ONE_TRIAL}`,
    );
  });
});

/** 300 recorded rows: `failing` of them answer wrong. */
const rows = (failing: readonly number[]): string =>
  Array.from({ length: 300 }, (_, n) =>
    JSON.stringify({ n, output: failing.includes(n) ? 'no idea' : `answer ${n}` }),
  ).join('\n') + '\n';
const SUITE = ['hash: [n]', 'evaluators: [ { id: e, use: contains, with: { values: [answer] } } ]'];

describe('a trials: 1 suite of 300 cases, 3 failing now and 2 fixed', () => {
  let browser: Browser;
  let dir = '';
  let html = '';

  before(async () => {
    browser = await launchBrowser();
    // Failing in BASE already (its gate, every case passes, fails on both sides): no alarm.
    dir = jsonlProject([], SUITE);
    writeFiles(dir, { 'rows.jsonl': rows([0, 1]) });
    assert.equal((await runInProcess(['run', '-o', 'base.json'], dir)).code, 1);
    writeFiles(dir, { 'rows.jsonl': rows([2, 3, 4]) });
    assert.equal((await runInProcess(['run', '-o', 'head.json'], dir)).code, 1);
    html = renderGfm(await commentAndPage(dir));
  });

  after(() => browser.close());

  it('the PR comment folds them, never "within the noise", and says why it cannot tell', () => {
    assert.ok(!html.includes('within the noise'), html);
    assert.ok(
      html.includes('<summary>Other case changes: 3 newly failing, pass rate unchanged · 2 fixed'),
      html,
    );
    assert.match(
      html,
      new RegExp(
        `<p>Newly failing \\(3; 2 fixed the other way: pass rate unchanged \\(a drop of 10\\.0 pp ruled out\\), McNemar p = [0-9.]+; ${ONE_TRIAL}\\):</p>`,
      ),
    );
  });

  it('the HTML page says the same in its folded list', async () => {
    const page = await openFilePage(browser, join(dir, 'report.html'), '#comparison');
    const summary = await page.textContent('#comparison .newly-failing-noise summary');
    assert.equal(summary?.trim(), '3 newly failing, pass rate unchanged');
    const heading = await page.textContent('#comparison .newly-failing-noise h5');
    assert.ok(heading?.endsWith(`; ${ONE_TRIAL})`), heading ?? '');
    await page.close();
  });
});
