/**
 * QA #4: the summary ends by pointing at `evals show FILE --failed`. When `-o` could not be
 * written (exit 3, the complete file kept elsewhere), that pointer must name the kept file, not
 * `-o`, which holds nothing of this run (or an earlier run's results). Before, the summary was
 * printed before the write and always named `-o`.
 */
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { describe, it } from 'node:test';
import { runInProcess } from './helpers/in-process.ts';
import { suiteProject } from './helpers/suite-project.ts';

/** Two cases, one failing; the run makes `r.json` a folder once under way. */
function project(): string {
  return suiteProject(
    [
      'testset: { cases: [{ q: a0 }, { q: b1 }] }',
      'concurrency: 1',
      'function: ./fn.mjs#fn',
      'evaluators:',
      '  - { use: contains, with: { values: [a] } }',
    ],
    {
      'fn.mjs': `import { mkdirSync } from 'node:fs';
export function fn({ testCase }) {
  if (testCase.q === 'a0') mkdirSync(new URL('./r.json', import.meta.url));
  return testCase.q;
}
`,
    },
  );
}

describe('the summary pointer at evals show after the results file', () => {
  it('names the kept file when -o could not be written, and that file shows the failure', async () => {
    const dir = project();
    const r = await runInProcess(['run', '-o', 'r.json'], dir);
    assert.equal(r.code, 3, r.stderr);
    const kept = /r\.json could not be written \([^)]*\); the complete file is kept at (\S+);/.exec(
      r.stderr,
    )?.[1];
    assert.ok(kept !== undefined, r.stderr);
    try {
      assert.ok(existsSync(kept), kept);
      assert.doesNotMatch(r.stdout, /evals show r\.json/);
      const hint = /^why each case did not pass: evals show (\S+) --failed$/m.exec(r.stdout)?.[1];
      assert.equal(hint, kept, r.stdout);
      const shown = await runInProcess(['show', hint, '--failed'], dir);
      assert.equal(shown.code, 0, shown.stderr);
      assert.match(shown.stdout, /: 1 run, 2 cases; 1 match --failed\n/);
      assert.match(shown.stdout, /b1/);
    } finally {
      rmSync(kept, { force: true });
    }
  });
});
