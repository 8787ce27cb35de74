/**
 * A run whose code replaced a built-in evals relies on is failed by its end checks (see
 * src/pipeline/written-check.ts). Its results file must say so too: the artifact (and JUnit)
 * were written before those checks with `verdict: "pass"` while the process exited 1, so a
 * pipeline reading the file took the run as passed. The replacement here (a method added to
 * `Array.prototype`) leaves the writes working, so the files are written and read back. The
 * built CLI and a `runTestSuite` script, as child processes.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.ts';
import { sdkScript } from './helpers/sdk-script.ts';
import { suiteProject } from './helpers/suite-project.ts';

const SABOTAGE = 'Array.prototype.added = function () {};';

interface Written {
  verdict: string;
  runs: { verdict: string; gate: { conditions: { name: string; passed: boolean }[] } }[];
}

function read(dir: string, file: string): Written {
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as Written;
}

describe('a run failed for replaced built-ins writes fail in its results', () => {
  it('evals run: exit 1, and the artifact and JUnit say fail', async () => {
    const dir = suiteProject(
      [
        'testset: { cases: [ { q: a }, { q: b } ] }',
        'function: ./fn.mjs#fn',
        'evaluators:',
        '  - { use: contains, with: { values: ["ok"] } }',
      ],
      {
        'fn.mjs': `export function fn({ testCase }) { if (testCase.q === 'b') { ${SABOTAGE} } return 'ok'; }\n`,
      },
    );
    const r = await runCli(['run', '-o', 'out.json', '--junit', 'junit.xml'], {
      cwd: dir,
      timeoutMs: 30_000,
    });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /Array\.prototype\.added \(added\)/);
    const artifact = read(dir, 'out.json');
    assert.equal(artifact.verdict, 'fail');
    assert.equal(artifact.runs[0]?.verdict, 'fail');
    assert.ok(artifact.runs[0]?.gate.conditions.some((c) => c.name === 'built-ins' && !c.passed));
    assert.match(readFileSync(join(dir, 'junit.xml'), 'utf8'), /built-ins/);
  });

  it('runTestSuite: verdict fail, and the output file says fail', async () => {
    const script =
      sdkScript(`const r = await runTestSuite({ id: 's', testCases: [{ q: 'a' }, { q: 'b' }],
  testCaseHash: ['q'], output: 'out.json', quiet: true,
  fn: ({ testCase }) => { if (testCase.q === 'b') { ${SABOTAGE} } return 'ok'; },
  evaluators: [{ id: 'e', evaluateTestCase: ({ output }) => ({ score: output === 'ok' ? 1 : 0, threshold: { gte: 1 } }) }],
});
console.log('verdict ' + r.verdict + ' ' + r.runs[0].verdict);\n`);
    const r = await script.run();
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /verdict fail fail/);
    const artifact = read(script.dir, 'out.json');
    assert.equal(artifact.verdict, 'fail');
    assert.ok(artifact.runs[0]?.gate.conditions.some((c) => c.name === 'built-ins' && !c.passed));
  });
});
