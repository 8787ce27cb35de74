/**
 * An alarm says why it is one. Newly failing cases shown open and bold (red in the terminal) used
 * to be headed `Newly failing (3):` whatever made them news, which read like the old list that was
 * bold in every pull request, noise included. Each reason that decides the alarm is now said in
 * plain words under the heading, a line each (after the count, several made the heading a
 * paragraph): the gate that passed in BASE and fails now, the row that
 * regressed (with the Holm p the gate acts on) or possibly regressed (its q), trials that always
 * agreed, too few cases for a verdict. Checked on the reasons themselves, on a real comparison's
 * PR comment as cmark-gfm (GitHub's renderer) renders it, and on the HTML page in Chromium.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { alarmAside, alarmReasons } from '../src/report/alarm-reasons.ts';
import { newlyFailingAlarm } from '../src/report/newly-failing.ts';
import { launchBrowser, openFilePage } from './helpers/browser.ts';
import { evaluatorRow, runComparison } from './helpers/comparison-rows.ts';
import { renderGfm } from './helpers/gfm.ts';
import { baseAndHead, commentAndPage } from './helpers/comment-and-page.ts';
import { runInProcess } from './helpers/in-process.ts';

const GATE = 'the grid point passed its gate in BASE and fails it now';

describe('the reasons of an alarm', () => {
  const calm = runComparison([], { passToFail: 5, failToPass: 4, pValue: 0.74 });

  it('none for flips the statistics call noise: no alarm', () => {
    assert.deepEqual(alarmReasons(calm), []);
    assert.equal(newlyFailingAlarm(calm), false);
    assert.equal(alarmAside([calm]), '');
  });

  const cases: [string, ReturnType<typeof runComparison>, string][] = [
    [
      'the gate passed in BASE and fails now',
      { ...calm, verdicts: { base: 'pass', head: 'fail' } },
      GATE,
    ],
    [
      'the pass rate regressed: with the Holm p the gate acts on',
      runComparison([], { label: 'regressed', significant: true, pValue: 0.001, adjustedP: 0.004 }),
      'pass rate regressed, Holm p = 0.004',
    ],
    [
      "an evaluator's score possibly regressed: with its q",
      runComparison([evaluatorRow('tone', 'regressed', { p: 0.01, holm: 0.2, q: 0.03 })]),
      'tone possibly regressed, q = 0.030',
    ],
    [
      'every trial agreed on both sides',
      { ...calm, trialsAgreed: true },
      'every trial agreed in BASE and in HEAD so each flip is a real change',
    ],
    [
      'too few cases for a verdict',
      runComparison([], { paired: 9, label: 'too few cases', pValue: null, adjustedP: null }),
      '9 paired cases: too few to tell these flips from noise',
    ],
  ];
  for (const [name, run, words] of cases) {
    it(name, () => {
      assert.equal(newlyFailingAlarm(run), true);
      assert.equal(alarmAside([run]), words);
    });
  }

  it('a pass rate that counts an evaluator BASE did not run: said beside its drop', () => {
    // A new, stricter check fails cases that did not change: the drop may be the check alone.
    const run = {
      ...runComparison([], {
        label: 'regressed',
        significant: true,
        pValue: 0.001,
        adjustedP: 0.004,
      }),
      evaluatorsOnlyInHead: ['f'],
    };
    assert.equal(
      alarmAside([run]),
      'pass rate regressed, Holm p = 0.004, though HEAD adds evaluator f, which BASE did not check',
    );
  });

  it('over several grid points: each reason once, after the grid points it holds at', () => {
    const gate = { ...calm, verdicts: { base: 'pass', head: 'fail' } as const };
    const dropped = {
      ...gate,
      evaluators: [evaluatorRow('exact', 'regressed', { p: 0.001, holm: 0.01 })],
    };
    assert.equal(
      alarmAside([gate, dropped, calm]),
      'at each of the 2 grid points: passed its gate in BASE and fails it now; at 1 grid point: exact regressed',
    );
  });
});

/** 40 rows whose recorded output is right but, in HEAD, for the first three. */
const rows = (head: boolean): Record<string, unknown>[] =>
  Array.from({ length: 40 }, (_, n) => ({
    n,
    output: head && n < 3 ? 'no idea' : `answer ${n}`,
  }));
const SUITE = ['hash: [n]', 'evaluators: [ { id: e, use: contains, with: { values: [answer] } } ]'];

describe('three cases of 40 fail now, and the gate that passed in BASE fails', () => {
  let browser: Browser;
  let dir = '';
  let html = '';

  before(async () => {
    browser = await launchBrowser();
    dir = await baseAndHead(rows(false), rows(true), SUITE);
    html = renderGfm(await commentAndPage(dir));
  });

  after(() => browser.close());

  it('the PR comment says why under the bold heading: three flips alone are no significant drop', () => {
    // The heading stays short; the reasons are a list under it, before the cases.
    assert.ok(
      html.includes(
        `<p><strong>Newly failing (3):</strong></p>\n<p>An alarm because:</p>\n<ul>\n<li>${GATE}</li>\n</ul>\n<table>`,
      ),
      html,
    );
    assert.ok(html.includes('⚪'), 'the rows themselves call no regression');
  });

  it('the HTML page says it under the heading of the open list', async () => {
    const page = await openFilePage(browser, join(dir, 'report.html'), '#comparison');
    assert.equal(
      (await page.textContent('#comparison .newly-failing h3'))?.trim(),
      'Newly failing (3)',
    );
    // A lead and the reasons a list item each, as the comment's `An alarm because:` list.
    const blocks = page.locator('#comparison .newly-failing .alarm-reasons');
    assert.equal(await blocks.count(), 1);
    assert.equal(await blocks.locator('p').textContent(), 's: an alarm because:');
    assert.deepEqual(await blocks.locator('ul > li').allTextContents(), [GATE]);
    await page.close();
  });
});

describe('twenty cases of 40 fail now: three reasons, listed one a line on the page as in the terminal', () => {
  let browser: Browser;
  let dir = '';

  before(async () => {
    browser = await launchBrowser();
    const many = (head: boolean): Record<string, unknown>[] =>
      Array.from({ length: 40 }, (_, n) => ({
        n,
        output: head && n < 20 ? 'no idea' : `answer ${n}`,
      }));
    dir = await baseAndHead(many(false), many(true), SUITE);
    await commentAndPage(dir);
  });

  after(() => browser.close());

  it('the page lists each reason the terminal lists, as a list item, under one lead', async () => {
    const terminal = await runInProcess(['compare', 'base.json', 'head.json'], dir);
    const lines = terminal.stdout.split('\n');
    const lead = lines.findIndex((line) => line.trim() === 'an alarm because:');
    assert.ok(lead > 0, terminal.stdout);
    const said: string[] = [];
    for (const line of lines.slice(lead + 1)) {
      const item = /^ {6}- (.*)$/.exec(line);
      if (item === null) break;
      said.push(item[1] ?? '');
    }
    // The gate, the pass rate and the evaluator: several reasons, so a list is what reads.
    assert.equal(said.length, 3, terminal.stdout);
    assert.equal(said[0], GATE);
    assert.match(said[1] ?? '', /^pass rate regressed, Holm p [=<] /);

    const page = await openFilePage(browser, join(dir, 'report.html'), '#comparison');
    const block = page.locator('#comparison .newly-failing .alarm-reasons');
    assert.equal(await block.locator('p.alarm-lead').textContent(), 's: an alarm because:');
    assert.deepEqual(await block.locator('ul > li').allTextContents(), said);
    // Nothing joins them on one line any more.
    assert.doesNotMatch((await block.textContent()) ?? '', /; /);
    await page.close();
  });
});
