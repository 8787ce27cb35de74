/**
 * A run that user code ends with `process.exit` writes its partial artifact, but not the
 * `--junit` and `--report` files it was asked for: the line that says so names each, with the
 * `evals report` command that makes them from the partial, as a second Ctrl-C's line does
 * (docs/cli.md). A CI step reading the JUnit file otherwise finds none with no word why. The
 * built CLI, as a child process.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.ts';
import { suiteProject } from './helpers/suite-project.ts';

describe('reports a run that user code ended did not write', () => {
  it('are named, with the evals report command that makes them from the partial', async () => {
    const dir = suiteProject(
      [
        'testset: { cases: [ { q: a }, { q: b } ] }',
        'function: ./fn.mjs#fn',
        'concurrency: 1',
        'evaluators:',
        '  - { use: is-equals, with: { expected: "{{ case.q }}" } }',
      ],
      {
        'fn.mjs':
          "export function fn({ testCase }) {\n  if (testCase.q === 'b') process.exit(0);\n  return testCase.q;\n}\n",
      },
    );
    const run = await runCli(['run', '-o', 'out.json', '--junit', 'j.xml', '--report', 'r.html'], {
      cwd: dir,
      timeoutMs: 30_000,
    });
    assert.equal(run.code, 1, run.stderr);
    assert.equal(existsSync(join(dir, 'j.xml')), false);
    const line = run.stderr.split('\n').find((l) => l.startsWith('error: the process was ended'));
    assert.ok(line, run.stderr);
    assert.match(line, /the partial artifact is written to out\.json \(interrupted: true\)/);
    const command =
      /not written: j\.xml \(--junit\), r\.html \(--report\); make the HTML and JUnit reports from them with: (evals report out\.json -o r\.html --junit j\.xml)$/.exec(
        line,
      )?.[1];
    assert.ok(command, line);
    const report = await runCli(command.split(' ').slice(1), { cwd: dir, timeoutMs: 30_000 });
    assert.equal(report.code, 0, report.stderr);
    assert.ok(existsSync(join(dir, 'j.xml')));
    assert.ok(existsSync(join(dir, 'r.html')));
  });
});
