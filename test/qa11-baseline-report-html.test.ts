/**
 * QA #11 4: `evals report RESULTS.json --baseline B.json -o r.html` of a run whose config has no
 * regression gate showed the run's own verdict (PASS) next to the comparison's regressions,
 * which read as "passed despite regressions". The page now says, at the top of the comparison,
 * that the verdict is the run's own and that the comparison does not gate it; a run that gates
 * on regressions (`regressions: block`) needs no such sentence. Read in the page's text (its
 * report data), no browser needed.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const NOTE =
  "The verdict is the run's own: this comparison does not gate it (no suite has gate: { regressions: block }), so the regressions below do not change its pass or fail.";

/**
 * 24 rows answered `ok`, or `bad` while the file `bad` is there; `gate` is the suite's gate.
 * Writes base.json (every case passes), then makes the function answer wrong.
 */
async function project(gate: string): Promise<string> {
  const dir = jsonlProject(
    Array.from({ length: 24 }, (_, n) => ({ id: `c${n}` })),
    [
      'hash: [id]',
      'function: ./m.mjs#fn',
      'evaluators:',
      '  - { id: eq, use: is-equals, with: { expected: ok } }',
      `gate: ${gate}`,
    ],
    {
      'm.mjs': `import { existsSync } from 'node:fs';
export const fn = () => (existsSync(new URL('./bad', import.meta.url)) ? 'bad' : 'ok');
`,
    },
  );
  const base = await runInProcess(['run', '-o', 'base.json'], dir);
  assert.equal(base.code, 0, base.stderr);
  writeFileSync(join(dir, 'bad'), '');
  return dir;
}

/** The report model the page at `dir/file` holds. */
function pageData(
  dir: string,
  file: string,
): {
  html: string;
  verdict: string;
  comparison: { warnings: { title: string; detail: string }[]; rows: { label: string }[] };
} {
  const html = readFileSync(join(dir, file), 'utf8');
  const data = /<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html);
  assert.ok(data?.[1], 'the page holds its report data');
  return { ...(JSON.parse(data[1]) as Omit<ReturnType<typeof pageData>, 'html'>), html };
}

describe('evals report --baseline of a run that does not gate on regressions (QA #11 4)', () => {
  it("says the verdict is the run's own and that the comparison does not gate it", async () => {
    const dir = await project('{ minPassRate: 0 }');
    const head = await runInProcess(['run', '-o', 'head.json'], dir);
    assert.equal(head.code, 0, 'the run passes: its gate does not count regressions');
    const report = await runInProcess(
      ['report', 'head.json', '--baseline', 'base.json', '-o', 'r.html'],
      dir,
    );
    assert.equal(report.code, 0, report.stderr);
    const page = pageData(dir, 'r.html');
    assert.equal(page.verdict, 'pass');
    assert.ok(
      page.comparison.rows.some((row) => row.label === 'regressed'),
      JSON.stringify(page.comparison.rows),
    );
    // First among the comparison's warnings, which the page shows above its table.
    const [first] = page.comparison.warnings;
    assert.equal(`${first?.title} ${first?.detail}`, NOTE);
    assert.ok(page.html.includes("The verdict is the run's own:"), 'in the page text');
  });

  it('says nothing of the kind when the run gates on regressions', async () => {
    const dir = await project('{ minPassRate: 0, regressions: block }');
    const run = await runInProcess(
      ['run', '--baseline', 'base.json', '-o', 'head.json', '--report', 'gated.html'],
      dir,
    );
    assert.equal(run.code, 1, 'the regression blocks the run');
    const report = await runInProcess(
      ['report', 'head.json', '--baseline', 'base.json', '-o', 'r.html'],
      dir,
    );
    assert.equal(report.code, 0, report.stderr);
    for (const file of ['gated.html', 'r.html']) {
      const page = pageData(dir, file);
      assert.equal(page.verdict, 'fail');
      assert.equal(page.html.includes("The verdict is the run's own"), false, file);
    }
  });
});
