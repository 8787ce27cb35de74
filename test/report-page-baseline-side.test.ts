/**
 * The HTML report sets a changed case's baseline result beside HEAD's, in real chromium:
 * - a newly failing (and a fixed) case's detail shows BASE and HEAD side by side (status, output,
 *   each evaluator), differences marked, whether the run compared (`evals run --baseline
 *   --report`) or `evals report --baseline` did;
 * - the baseline's output is scrubbed of the run's secrets before it is cut;
 * - a newly failing row carries a marker with a title;
 * - the verdict header says why a suite of the baseline gone from the config fails the run.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openFilePage, textNow } from './helpers/browser.ts';
import { writeFiles } from './helpers/cli.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

/** A secret of the environment the baseline file holds in clear (written without it). */
const SECRET = 'Zq9SECRETvalue77abc';
/** Row 1's baseline output: the secret straddles the page's 20,000-character cut. */
const LONG = `answer 1 ${'x'.repeat(20_000 - 9 - 3)}${SECRET} tail`;
const BASE_ROWS = [
  { n: 0, output: `answer 0 ${SECRET}` },
  { n: 1, output: LONG },
  { n: 2, output: 'no idea' },
  { n: 3, output: 'answer 3' },
];
const HEAD_ROWS = [
  { n: 0, output: 'no idea' },
  { n: 1, output: 'no idea' },
  { n: 2, output: 'answer 2' },
  { n: 3, output: 'answer 3' },
];
const SUITE = [
  'hash: [n]',
  'evaluators:',
  '  - { id: has-answer, use: contains, with: { values: [answer] } }',
];
const ENV = { MY_API_KEY: SECRET };

let browser: Browser;
let dir = '';

before(async () => {
  browser = await launchBrowser();
  dir = jsonlProject(BASE_ROWS, SUITE);
  const base = await runInProcess(['run', '-o', 'base.json'], dir);
  assert.equal(base.code, 1, base.stderr);
  // The baseline holds the secret: it was not a secret of the run that wrote it.
  assert.ok(readFileSync(join(dir, 'base.json'), 'utf8').includes(SECRET));
  writeFiles(dir, {
    'rows.jsonl': HEAD_ROWS.map((row) => JSON.stringify(row)).join('\n') + '\n',
  });
  const args = ['run', '-o', 'head.json', '--baseline', 'base.json', '--report', 'run.html'];
  const head = await runInProcess(args, dir, ENV);
  assert.equal(head.code, 1, head.stderr);
  const reported = await runInProcess(
    ['report', 'head.json', '--baseline', 'base.json', '-o', 'report.html'],
    dir,
    ENV,
  );
  assert.equal(reported.code, 0, reported.stderr);
  // Without --baseline: the file the run compared with, which it recorded, is read again.
  const recorded = await runInProcess(['report', 'head.json', '-o', 'recorded.html'], dir, ENV);
  assert.equal(recorded.code, 0, recorded.stderr);
});

after(() => browser.close());

async function openCase(file: string, id: string): Promise<Page> {
  const page = await openFilePage(browser, join(dir, file), '#case-count');
  await page.click(`#case-rows .case[data-id="${id}"]`);
  await page.waitForSelector('#detail:not([hidden])');
  return page;
}

/** The id of row `n` (the cases are hashed by n), read from the results. */
function idOf(n: number): string {
  const results = JSON.parse(readFileSync(join(dir, 'head.json'), 'utf8')) as {
    runs: { cases: { id: string; data: { n: number } }[] }[];
  };
  const found = results.runs[0]?.cases.find((c) => c.data.n === n);
  assert.ok(found !== undefined);
  return found.id;
}

/** The BASE vs HEAD table's rows as `mark name | base | head | class`. */
async function sides(page: Page): Promise<string[]> {
  return page.$$eval(
    '#detail-base tbody tr',
    (
      rows: {
        className: string;
        textContent: string | null;
        children: ArrayLike<{ textContent: string | null }>;
      }[],
    ) =>
      rows.map((r) =>
        [
          r.children[0]?.textContent?.trim(),
          r.children[1]?.textContent,
          r.children[2]?.textContent,
          r.className,
        ].join(' | '),
      ),
  );
}

for (const [file, how] of [
  ['run.html', 'evals run --baseline --report'],
  ['report.html', 'evals report --baseline'],
  ['recorded.html', 'evals report of a run that compared'],
] as const) {
  describe(`a changed case beside its baseline (${how})`, () => {
    it('a newly failing case shows what it answered in BASE and now, differences marked', async () => {
      const page = await openCase(file, idOf(0));
      assert.equal(await textNow(page, '#detail-base-title'), 'Baseline (BASE) vs this run (HEAD)');
      assert.deepEqual(await sides(page), [
        '\u2260 status | passed | failed | changed',
        '\u2260 has-answer | \u2713 1.000 | \u2717 0.000 | changed',
      ]);
      // Scrubbed of the run's secret, then shown; HEAD's output beside it.
      assert.equal(await textNow(page, '#detail-base-output'), 'answer 0 [redacted]');
      assert.equal(await textNow(page, '#detail-head-output'), 'no idea');
      const diff = await page.$$eval(
        '#detail-base-diff del, #detail-base-diff ins',
        (nodes: { tagName: string; textContent: string | null }[]) =>
          nodes.map((n) => `${n.tagName.toLowerCase()}:${n.textContent ?? ''}`),
      );
      assert.ok(
        diff.some((d) => d.startsWith('del:') && d.includes('answer')),
        diff.join(','),
      );
      assert.ok(
        diff.includes('ins:no idea') || diff.some((d) => d.startsWith('ins:')),
        diff.join(','),
      );
      await page.close();
    });

    it('a fixed case shows its baseline failure beside its pass now', async () => {
      const page = await openCase(file, idOf(2));
      assert.deepEqual(await sides(page), [
        '\u2260 status | failed | passed | changed',
        '\u2260 has-answer | \u2717 0.000 | \u2713 1.000 | changed',
      ]);
      assert.equal(await textNow(page, '#detail-base-output'), 'no idea');
      assert.match(await textNow(page, '#detail-base-why'), /^In BASE: has-answer/);
      await page.close();
    });

    it('an unchanged case has no baseline part', async () => {
      const page = await openCase(file, idOf(3));
      assert.equal(await page.$('#detail-base'), null);
      await page.close();
    });

    it('the baseline output is scrubbed before the page cuts it: no piece of the secret is left', async () => {
      const html = readFileSync(join(dir, file), 'utf8');
      // Cut first, the page would keep the secret's first 3 characters (at 19,997 of 20,000).
      assert.ok(!html.includes(SECRET.slice(0, 3)), 'the start of the secret is in the page');
      const page = await openCase(file, idOf(1));
      const shown = await textNow(page, '#detail-base-output');
      assert.ok(shown.startsWith('answer 1 xxx'));
      assert.match(shown, /^answer 1 x+\[re\n\u2026 \(\d+ more characters/);
      await page.close();
    });

    it('marks the newly failing rows, with a title saying what that means', async () => {
      const page = await openFilePage(browser, join(dir, file), '#case-count');
      const marks = await page.$$eval(
        '#case-rows .case',
        (
          rows: {
            getAttribute(name: string): string | null;
            querySelector(s: string): { title: string; textContent: string | null } | null;
          }[],
        ) =>
          rows.map((r) => {
            const mark = r.querySelector('.newly-mark');
            return `${r.getAttribute('data-id') ?? ''} ${mark === null ? '-' : `${mark.textContent ?? ''} (${mark.title})`}`;
          }),
      );
      assert.deepEqual(
        marks.sort(),
        [
          `${idOf(0)} new (newly failing: passed in the baseline, failed now)`,
          `${idOf(1)} new (newly failing: passed in the baseline, failed now)`,
          `${idOf(2)} -`,
          `${idOf(3)} -`,
        ].sort(),
      );
      await page.close();
    });
  });
}

describe('evals report of a run whose baseline file is gone', () => {
  it('writes the page, its changed cases without a baseline part', async () => {
    writeFileSync(join(dir, 'moved.json'), readFileSync(join(dir, 'base.json')));
    const results = readFileSync(join(dir, 'head.json'), 'utf8').replaceAll(
      '"path": "base.json"',
      '"path": "gone.json"',
    );
    assert.ok(results.includes('"path": "gone.json"'), 'the recorded baseline path was found');
    writeFileSync(join(dir, 'moved-head.json'), results);
    const r = await runInProcess(['report', 'moved-head.json', '-o', 'moved.html'], dir, ENV);
    assert.equal(r.code, 0, r.stderr);
    const page = await openCase('moved.html', idOf(0));
    assert.equal(await page.$('#detail-base'), null);
    assert.equal(
      await textNow(page, '#detail-base-missing'),
      "The baseline's result of this case is not in the page: gone.json: no such results file (the baseline the run was compared with; looked for at gone.json) (evals report RESULTS --baseline BASE -o FILE adds it).",
    );
    assert.equal(
      await textNow(page, '#detail-newly-failing'),
      'Newly failing: passed in the baseline, failed now.',
    );
    await page.close();
  });
});

describe('evals report of a run whose baseline file holds another run now', () => {
  it("sets no other run's answers beside this one's, and says why", async () => {
    // base.json replaced by a later run (here: the head's own results), as a CI's baseline is.
    writeFileSync(join(dir, 'replaced.json'), readFileSync(join(dir, 'head.json')));
    const results = readFileSync(join(dir, 'head.json'), 'utf8').replaceAll(
      '"path": "base.json"',
      '"path": "replaced.json"',
    );
    assert.ok(results.includes('"path": "replaced.json"'), 'the recorded baseline path was found');
    writeFileSync(join(dir, 'replaced-head.json'), results);
    const r = await runInProcess(['report', 'replaced-head.json', '-o', 'replaced.html'], dir, ENV);
    assert.equal(r.code, 0, r.stderr);
    const page = await openCase('replaced.html', idOf(0));
    assert.equal(await page.$('#detail-base'), null);
    assert.match(
      await textNow(page, '#detail-base-missing'),
      /^The baseline's result of this case is not in the page: replaced\.json is no longer the baseline this run was compared with: it holds a run of .* started .*, not a run of .* started .* \(evals report RESULTS --baseline BASE -o FILE adds it\)\.$/,
    );
    await page.close();
  });
});

describe('a page holds the baseline results of at most 1,000 changed cases', () => {
  it('a newly failing case past them says so, and how to see its baseline result', async () => {
    const rows = (output: string): { n: number; output: string }[] =>
      Array.from({ length: 1_010 }, (_, n) => ({ n, output: `${output} ${n}` }));
    const many = jsonlProject(rows('answer'), SUITE);
    assert.equal((await runInProcess(['run', '-o', 'base.json'], many)).code, 0);
    writeFiles(many, {
      'rows.jsonl': rows('no idea')
        .map((r) => JSON.stringify(r))
        .join('\n'),
    });
    assert.equal((await runInProcess(['run', '-o', 'head.json'], many)).code, 1);
    const args = ['report', 'head.json', '--baseline', 'base.json', '-o', 'many.html'];
    const r = await runInProcess(args, many);
    assert.equal(r.code, 0, r.stderr);
    const results = JSON.parse(readFileSync(join(many, 'head.json'), 'utf8')) as {
      runs: { cases: { id: string; data: { n: number } }[] }[];
    };
    const ids = new Map(results.runs[0]?.cases.map((c) => [c.data.n, c.id]));
    const page = await openFilePage(browser, join(many, 'many.html'), '#case-count');
    // The baseline's first 1,000 cases in its file order are held; its last 10 are not.
    for (const [n, held] of [
      [0, true],
      [999, true],
      [1_009, false],
    ] as const) {
      await page.fill('#filter-search', ids.get(n) ?? '');
      await page.click(`#case-rows .case[data-id="${ids.get(n) ?? ''}"]`);
      await page.waitForSelector('#detail:not([hidden])');
      if (held) {
        assert.equal(await textNow(page, '#detail-base-output'), `answer ${n}`);
      } else {
        assert.equal(await page.$('#detail-base'), null);
        assert.equal(
          await textNow(page, '#detail-base-missing'),
          `The baseline's result of this case is not in the page: it holds 1,000 of the 1,010 changed cases. evals show RESULTS --case ${ids.get(n) ?? ''} --baseline BASE prints it.`,
        );
      }
      await page.keyboard.press('Escape');
    }
    await page.close();
  });
});

describe('a suite of the baseline gone from the config', () => {
  it('the verdict header says why it fails the run', async () => {
    const results = JSON.parse(readFileSync(join(dir, 'head.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    const text =
      'suite t of the baseline is gone from the config (gate: { regressions: block } in BASE)';
    results.missingSuites = [{ suite: 't', text }];
    writeFileSync(join(dir, 'gone.json'), JSON.stringify(results));
    const reported = await runInProcess(['report', 'gone.json', '-o', 'gone.html'], dir, ENV);
    assert.equal(reported.code, 0, reported.stderr);
    const page = await openFilePage(browser, join(dir, 'gone.html'), '#verdict');
    assert.equal(await textNow(page, '#verdict .word'), 'FAIL');
    assert.match(
      await textNow(page, '#verdict .sentence'),
      /^A suite of the baseline is gone from the config, so the verdict is FAIL\./,
    );
    assert.deepEqual(
      await page.$$eval('#missing-suites li', (items: { textContent: string | null }[]) =>
        items.map((i) => i.textContent),
      ),
      [text],
    );
    await page.close();
  });

  // A suite gone that only warns (a --suite job of another suite, or the baseline's warn) was
  // said in the PR comment and the job summary only: the page says it under the verdict too.
  it('the verdict header says a suite gone that only warns', async () => {
    const results = JSON.parse(readFileSync(join(dir, 'head.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    const text =
      'suite "s" of the baseline is not in the config any more ("t" is new in the config: renamed?); this run did not select it';
    results.goneSuiteWarnings = [{ suite: 's', text }];
    writeFileSync(join(dir, 'gone-warn.json'), JSON.stringify(results));
    const reported = await runInProcess(['report', 'gone-warn.json', '-o', 'gw.html'], dir, ENV);
    assert.equal(reported.code, 0, reported.stderr);
    const page = await openFilePage(browser, join(dir, 'gw.html'), '#verdict');
    assert.deepEqual(
      await page.$$eval('#gone-suite-warnings li', (items: { textContent: string | null }[]) =>
        items.map((i) => i.textContent),
      ),
      [`Suite s of the baseline is gone (a warning here): ${text}`],
    );
    await page.close();
  });
});
