/**
 * Newly failing cases follow the statistics of their grid point (src/report/newly-failing.ts):
 * with a noisy judge nearly every pull request that changes nothing has some, and a bold, open
 * list of them in each PR comment taught reviewers to skip it. Where the pass rate is not a
 * regression they are still listed, under a heading that gives the flips the other way and the
 * McNemar p, not bold, folded with the other lists; where the grid point regressed they stay
 * open and bold. Checked on the decision itself, on seeded simulated pull requests rendered as
 * the PR comment's markdown (by cmark-gfm, GitHub's renderer), the terminal text and the HTML
 * page's model: every form says the same.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { simulateComparison, type Scenario } from '../bench/stats-model.ts';
import { renderComparisonMarkdown } from '../src/report/comparison-markdown.ts';
import { renderComparisonText } from '../src/report/comparison-text.ts';
import { comparisonView } from '../src/report/html-model-comparison.ts';
import { calmFlipsName, flipsAside, newlyFailingAlarm } from '../src/report/newly-failing.ts';
import { evaluatorRow, runComparison } from './helpers/comparison-rows.ts';
import { renderGfm } from './helpers/gfm.ts';

/** The text of an HTML fragment, tags dropped and the entities the tests meet decoded. */
function text(html: string): string {
  return html
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** A pass rate that could have seen a 10-point change (`gate.minDetectableEffect`). */
const POWERED = { detectable: 0.08, underpowered: false, casesNeeded: null };

describe('whether newly failing cases are an alarm, and what their heading says', () => {
  const flips = { passToFail: 5, failToPass: 4, power: POWERED };
  const cases: [string, Parameters<typeof runComparison>, boolean, string][] = [
    [
      'pass rate unchanged',
      [[], { ...flips, pValue: 0.74 }],
      false,
      '4 fixed the other way, within the noise: pass rate unchanged, McNemar p = 0.740',
    ],
    [
      "pass rate unchanged though its own p < 0.05 (the family's q is not)",
      [[], { ...flips, label: 'regressed', pValue: 0.03, adjustedP: 0.4, qValue: 0.2 }],
      false,
      '4 fixed the other way, within the noise: pass rate unchanged, McNemar p = 0.030 (q = 0.200 over every row)',
    ],
    [
      'pass rate improved',
      [
        [],
        {
          passToFail: 1,
          failToPass: 12,
          label: 'improved',
          pValue: 0.002,
          adjustedP: 0.01,
          qValue: 0.01,
          significant: true,
        },
      ],
      false,
      '12 fixed the other way: pass rate improved, McNemar p = 0.002',
    ],
    [
      'nothing fixed',
      [
        [],
        {
          passToFail: 6,
          delta: -0.03,
          ci: { low: -0.06, high: -0.01 },
          label: 'regressed',
          pValue: 0.031,
          adjustedP: 0.4,
          qValue: 0.2,
          power: POWERED,
        },
      ],
      false,
      'none fixed the other way, within the noise: pass rate unchanged, McNemar p = 0.031 (q = 0.200 over every row)',
    ],
    // Power and interval decide whether "within the noise" is said at all (weak spot 1): a
    // row that could have missed a drop of `minDetectableEffect` says what it can tell.
    [
      'pass rate underpowered: not significant, with its interval and what it could detect',
      [
        [],
        {
          ...flips,
          pValue: 0.74,
          delta: -0.02,
          ci: { low: -0.14, high: 0.1 },
          power: { detectable: 0.162, underpowered: true, casesNeeded: 271 },
        },
      ],
      false,
      '4 fixed the other way: pass rate not significant, -2.0 pp (95% CI -14.0\u2026+10.0 pp), McNemar p = 0.740; underpowered: could detect \u00b116.2 pp',
    ],
    [
      'pass rate powered, but its interval reaches a drop of minDetectableEffect',
      [[], { ...flips, pValue: 0.09, delta: -0.055, ci: { low: -0.12, high: 0.01 } }],
      false,
      '4 fixed the other way: pass rate not significant, -5.5 pp (95% CI -12.0\u2026+1.0 pp), McNemar p = 0.090',
    ],
    [
      'too few flips for any test: said so, not "unchanged"',
      [[], { passToFail: 1, pValue: 1, delta: -0.02, ci: { low: -0.02, high: 0 } }],
      false,
      'none fixed the other way: too few flips to tell noise from a change (1; fewer than 6 can never be significant)',
    ],
    [
      'pass rate regressed',
      [[], { ...flips, label: 'regressed', pValue: 0.001, adjustedP: 0.01, significant: true }],
      true,
      '',
    ],
    [
      'pass rate a possible regression',
      [[], { ...flips, label: 'regressed', pValue: 0.01, adjustedP: 0.08, qValue: 0.04 }],
      true,
      '',
    ],
    [
      'an evaluator a possible regression, the pass rate unchanged',
      [[evaluatorRow('judge', 'regressed', { p: 0.01, holm: 0.08, q: 0.04 })], flips],
      true,
      '',
    ],
    [
      'an evaluator unchanged by the family, the pass rate unchanged',
      [[evaluatorRow('judge', 'regressed', { p: 0.03, holm: 0.4, q: 0.2 })], flips],
      false,
      '4 fixed the other way, within the noise: pass rate unchanged, McNemar p = 1',
    ],
    [
      'too few cases for a verdict',
      [[], { ...flips, paired: 9, label: 'too few cases', pValue: null, adjustedP: null }],
      true,
      '',
    ],
  ];
  it('passed its gate in BASE and fails it now: an alarm, whatever the statistics say', () => {
    const run = (base: 'pass' | 'fail', head: 'pass' | 'fail') => ({
      ...runComparison([], { ...flips, pValue: 0.74 }),
      verdicts: { base, head },
    });
    assert.equal(newlyFailingAlarm(run('pass', 'fail')), true);
    assert.equal(flipsAside([run('pass', 'fail')]), '');
    for (const [base, head] of [
      ['pass', 'pass'],
      ['fail', 'fail'],
      ['fail', 'pass'],
    ] as const) {
      assert.equal(newlyFailingAlarm(run(base, head)), false, `${base} → ${head}`);
    }
  });

  it('every trial agreed on both sides: an alarm even though the gate failed in BASE too', () => {
    // A deterministic suite (3 trials a case, none flaky in BASE or HEAD) whose gate already
    // failed: its flips are changes, not noise (weak spot 2).
    const run = {
      ...runComparison([], { ...flips, pValue: 0.74 }),
      verdicts: { base: 'fail', head: 'fail' } as const,
      trialsAgreed: true as const,
    };
    assert.equal(newlyFailingAlarm(run), true);
    assert.equal(flipsAside([run]), '');
    const { trialsAgreed: _, ...unknown } = run;
    assert.equal(newlyFailingAlarm(unknown), false, 'one trial, or some trials disagreed');
  });

  for (const [name, args, alarm, aside] of cases) {
    it(name, () => {
      // Three trials a case on both sides, some of them disagreeing: a suite seen to be noisy
      // (with one trial a case nothing says so: see the one-trial tests).
      const run = { ...runComparison(...args), trials: 3 };
      assert.equal(newlyFailingAlarm(run), alarm);
      assert.equal(flipsAside([run]), aside);
    });
  }

  it('over several grid points: the flips summed, the lowest p, or each verdict counted', () => {
    const calm = (fixed: number, pValue: number): ReturnType<typeof runComparison> => ({
      ...runComparison([], { passToFail: 3, failToPass: fixed, pValue, power: POWERED }),
      trials: 3,
    });
    assert.equal(
      flipsAside([calm(2, 0.4), calm(5, 0.21), calm(1, 0.9)]),
      '8 fixed the other way, within the noise: pass rate unchanged at each of the 3 grid points, lowest McNemar p = 0.210',
    );
    // The lowest p below 0.05 that the family does not back says so, as one grid point's does.
    const ownP = {
      ...runComparison([], {
        passToFail: 6,
        failToPass: 1,
        label: 'regressed',
        pValue: 0.03,
        adjustedP: 0.4,
        qValue: 0.2,
        power: POWERED,
      }),
      trials: 3,
    };
    assert.equal(
      flipsAside([calm(2, 0.4), ownP]),
      '3 fixed the other way, within the noise: pass rate unchanged at each of the 2 grid points, lowest McNemar p = 0.030 (q = 0.200 over every row)',
    );
    const improved = runComparison([], {
      failToPass: 9,
      label: 'improved',
      pValue: 0.001,
      adjustedP: 0.01,
      significant: true,
    });
    assert.equal(
      flipsAside([calm(2, 0.4), calm(5, 0.21), improved]),
      '16 fixed the other way: pass rate unchanged at 2 grid points, improved at 1 grid point',
    );
    // A grid point that could have missed a drop takes "within the noise" away from them all.
    const wide = runComparison([], {
      passToFail: 8,
      failToPass: 6,
      pValue: 0.79,
      delta: -0.02,
      ci: { low: -0.15, high: 0.1 },
      power: { detectable: 0.2, underpowered: true, casesNeeded: 300 },
    });
    const few = runComparison([], {
      passToFail: 2,
      failToPass: 1,
      pValue: 1,
      power: { detectable: 0.5, underpowered: true, casesNeeded: 100 },
    });
    const mixed = [calm(2, 0.4), wide, few];
    assert.equal(
      flipsAside(mixed),
      '9 fixed the other way: pass rate unchanged at 1 grid point, not significant at 1 grid point (95% CI down to -15.0 pp); too few flips to tell at 1 grid point',
    );
    assert.equal(calmFlipsName(mixed), 'newly failing, not significant');
    assert.equal(calmFlipsName([calm(2, 0.4)]), 'newly failing within the noise');
  });
});

/** One suite, two grid points, three binary evaluators: a judge-like noisy pass/fail. */
const SCENARIO: Scenario = {
  name: 'binary',
  kind: 'binary',
  passRate: 0.8,
  cases: 100,
  suites: 1,
  gridPoints: 2,
  evaluators: 3,
  trials: 1,
};
/** Seeded pull requests: nothing changed, and every pass rate 15 points lower at point=0. */
const unchanged = simulateComparison(5, SCENARIO);
const dropped = simulateComparison(5, SCENARIO, { delta: 0.15, where: 'one run' });

function paragraphs(html: string): string[] {
  return [...html.matchAll(/<p>([\s\S]*?)<\/p>/g)].map((m) => m[1] ?? '');
}

describe('the PR comment on a pull request that changed nothing', () => {
  const html = renderGfm(renderComparisonMarkdown(unchanged));

  // 100 cases of a noisy judge could miss a 10-point drop (the row is underpowered): the heading
  // says "not significant" with the interval, never "within the noise: unchanged" (weak spot 1).
  it('lists the newly failing cases, folded, under a heading that says what 100 cases can tell', () => {
    const newly = unchanged.runs.reduce((sum, run) => sum + run.cases.newlyFailing.length, 0);
    assert.ok(newly >= 10, `${newly} newly failing: the noise this is about`);
    assert.doesNotMatch(html, /<strong>Newly failing/);
    const details = /<details><summary>([^<]*)<\/summary>([\s\S]*?)<\/details>/.exec(html);
    assert.ok(details, html);
    assert.match(details[1] ?? '', /^Other case changes: \d+ newly failing, not significant · /);
    const heading = paragraphs(details[2] ?? '').find((p) => p.startsWith('Newly failing'));
    assert.match(
      text(heading ?? ''),
      /^Newly failing \(\d+ cases, \d+ counting each grid point; \d+ fixed the other way: pass rate not significant at each of the 2 grid points \(95% CI down to -\d+\.\d pp\)\):$/,
    );
    // Never hidden: the cases are a table with the column the open list has.
    assert.match(details[2] ?? '', /<th[^>]*>why it fails now<\/th>/);
  });

  it('says the same in the terminal, per grid point, not in red', () => {
    const out = renderComparisonText(unchanged, { color: true, width: 400 });
    const headings = out.split('\n').filter((line) => line.includes('newly failing ('));
    assert.equal(headings.length, 2);
    for (const line of headings) {
      assert.match(
        line,
        /^ {2}newly failing \(\d+; \d+ fixed the other way: pass rate not significant, [+-]?\d+\.\d pp \(95% CI -\d+\.\d\u2026\+\d+\.\d pp\), McNemar p = (?:1|0\.\d{3}); underpowered: could detect \u00b1\d+\.\d pp\)$/,
      );
    }
  });

  it("and so does the HTML page's model", () => {
    const view = comparisonView(unchanged);
    assert.deepEqual(
      view.newlyFailingRuns.map((run) => run.alarm),
      [false, false],
    );
    assert.equal(view.calmNewlyFailing, 'newly failing, not significant');
    const terminal = renderComparisonText(unchanged, { color: false, width: 400 });
    for (const run of view.newlyFailingRuns) {
      assert.ok(terminal.includes(`  n${run.heading.slice(1)}\n`), run.heading);
    }
  });
});

describe('a pull request that changed nothing, with 1,000 cases a grid point', () => {
  it('says the interval rules out a 10-point drop, and that one trial cannot tell noise', () => {
    const large = simulateComparison(5, { ...SCENARIO, cases: 1000 });
    const out = renderComparisonText(large, { color: false, width: 400 });
    const headings = out.split('\n').filter((line) => line.includes('newly failing ('));
    assert.equal(headings.length, 2);
    for (const line of headings) {
      assert.match(
        line,
        /^ {2}newly failing \(\d+; \d+ fixed the other way: pass rate unchanged \(a drop of 10\.0 pp ruled out\), McNemar p = (?:1|0\.\d{3}); with one trial a case, whether these flips are noise cannot be told\)$/,
      );
    }
  });
});

describe('the PR comment on a pull request whose pass rate dropped at one grid point', () => {
  const html = renderGfm(renderComparisonMarkdown(dropped));

  it("shows that grid point's newly failing cases open and bold, as before", () => {
    const [regressed, other] = dropped.runs;
    assert.equal(regressed?.passRate.significant, true, 'the drop is a regression');
    const count = regressed?.cases.newlyFailing.length ?? 0;
    assert.match(
      html,
      new RegExp(
        `<p><strong>Newly failing \\(${count}\\):</strong></p>\\n<p>An alarm because:</p>\\n<ul>\\n<li>pass rate regressed, Holm p [=<] [0-9.]+[^<]*</li>\\n`,
      ),
    );
    // Open: before any <details>.
    assert.ok(html.indexOf('<strong>Newly failing') < html.indexOf('<details>'));
    // The other grid point's flips are still there, folded and calm.
    const calm = other?.cases.newlyFailing.length ?? 0;
    assert.ok(calm > 0);
    assert.match(
      html,
      new RegExp(`<summary>Other case changes: ${calm} newly failing, not significant`),
    );
  });

  it('in red in the terminal, and as an alarm in the page model', () => {
    const out = renderComparisonText(dropped, { color: true, width: 400 });
    const count = dropped.runs[0]?.cases.newlyFailing.length ?? 0;
    assert.match(
      out,
      new RegExp(
        `\u001b\\[31mnewly failing \\(${count}\\)\u001b\\[39m\n {4}an alarm because:\n {6}- pass rate regressed, Holm p `,
      ),
    );
    assert.deepEqual(
      comparisonView(dropped).newlyFailingRuns.map((run) => run.alarm),
      [true, false],
    );
  });
});
