/**
 * `evals report RESULTS.json --baseline B.json` of a run whose suite has `regressions: block` but
 * that ran without `--baseline`: its verdict is still the run's own (nothing compared it when it
 * ran), and the page says so, but it must not claim that no suite has `regressions: block`,
 * which the reader can see in their config is false.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

describe('evals report --baseline of a run that has regressions: block but ran uncompared', () => {
  it("says the verdict is the run's own because the run was not compared, not that no suite gates", async () => {
    const dir = jsonlProject(
      Array.from({ length: 24 }, (_, n) => ({ id: `c${n}` })),
      [
        'hash: [id]',
        'function: ./m.mjs#fn',
        'evaluators:',
        '  - { id: eq, use: is-equals, with: { expected: ok } }',
        'gate: { minPassRate: 0, regressions: block }',
      ],
      {
        'm.mjs': `import { existsSync } from 'node:fs';
export const fn = () => (existsSync(new URL('./bad', import.meta.url)) ? 'bad' : 'ok');
`,
      },
    );
    assert.equal((await runInProcess(['run', '-o', 'base.json'], dir)).code, 0);
    writeFileSync(join(dir, 'bad'), '');
    const head = await runInProcess(['run', '-o', 'head.json'], dir);
    assert.equal(head.code, 0, 'no baseline: the regression gate had nothing to act on');
    const report = await runInProcess(
      ['report', 'head.json', '--baseline', 'base.json', '-o', 'r.html'],
      dir,
    );
    assert.equal(report.code, 0, report.stderr);
    const html = readFileSync(join(dir, 'r.html'), 'utf8');
    const data = /<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html);
    assert.ok(data?.[1]);
    const model = JSON.parse(data[1]) as {
      verdict: string;
      comparison: { warnings: { title: string; detail: string }[] };
    };
    assert.equal(model.verdict, 'pass');
    const [first] = model.comparison.warnings;
    assert.equal(first?.title, "The verdict is the run's own:");
    assert.doesNotMatch(first?.detail ?? '', /no suite has/);
    assert.match(first?.detail ?? '', /not compared with a baseline when it ran/);
    assert.match(first?.detail ?? '', /regressions: block/);
  });
});
