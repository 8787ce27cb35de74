/**
 * A grid value that is a secret (docs/config.md#secrets) is scrubbed wherever a run's grid point
 * is recorded or shown (the artifact, JUnit, the terminal), an interrupted run of it resumes
 * (the partial records the point as shown), and a grid whose points would read the same once
 * their secrets are removed is refused at load.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { writeInterrupted } from './helpers/interrupted-artifact.ts';
import { allText, jsonlProject, runInProcess } from './helpers/in-process.ts';

const TOKEN = 'apitoken-QQQQ1111';
const OTHER = 'apitoken-RRRR2222';
const ENV = { API_TOKEN: TOKEN, OTHER_TOKEN: OTHER };
const ROWS = [{ q: 'a' }, { q: 'b' }, { q: 'c' }];

function project(grid: string): string {
  return jsonlProject(ROWS, [
    `grid: ${grid}`,
    'target: { type: command, run: [echo, "{{params.token}} {{case.q}}"] }',
    'evaluators: [ { use: contains, with: { values: ["{{case.q}}"] } } ]',
  ]);
}

describe('grid values that are secrets', () => {
  it('are [redacted] in the artifact, the JUnit file and the terminal', async () => {
    // Every case fails, so the terminal names each run by its grid point.
    const dir = jsonlProject(ROWS, [
      'grid: { token: ["${API_TOKEN}", plain-value] }',
      'target: { type: command, run: [echo, "{{params.token}} {{case.q}}"] }',
      'evaluators: [ { use: is-equals, with: { expected: "{{params.token}}" } } ]',
    ]);
    const r = await runInProcess(['run', '-o', 'out.json', '--junit', 'junit.xml'], dir, ENV);
    assert.equal(r.code, 1, r.stderr);
    const artifact = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as {
      runs: { params: Record<string, unknown> }[];
    };
    assert.deepEqual(
      artifact.runs.map((run) => run.params),
      [{ token: '[redacted]' }, { token: 'plain-value' }],
    );
    assert.match(readFileSync(join(dir, 'junit.xml'), 'utf8'), /token=\[redacted\]/);
    assert.match(r.stdout + r.stderr, /token=\[redacted\]/);
    assert.equal((allText(dir) + r.stdout + r.stderr).includes(TOKEN), false);
  });

  it('an interrupted run of a secret grid point resumes and keeps its cases', async () => {
    const dir = project('{ token: ["${API_TOKEN}"] }');
    const full = await runInProcess(['run', '-o', 'full.json'], dir, ENV);
    assert.equal(full.code, 0, full.stderr);
    writeInterrupted(dir, 'full.json', 'partial.json', 2);
    const r = await runInProcess(['run', '--resume', 'partial.json', '-o', 'out.json'], dir, ENV);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout + r.stderr, /2 case results kept, 1 case to run/);
    const out = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as {
      interrupted: boolean;
      runs: { params: Record<string, unknown>; cases: unknown[] }[];
    };
    assert.equal(out.interrupted, false);
    assert.deepEqual(out.runs[0]?.params, { token: '[redacted]' });
    assert.equal(out.runs[0]?.cases.length, 3);
  });

  it('refuses grid points that differ only in their secrets, where they are', async () => {
    const dir = project('{ token: ["${API_TOKEN}", "${OTHER_TOKEN}"] }');
    for (const argv of [['validate'], ['run', '-o', 'out.json'], ['run', '--dry-run']]) {
      const r = await runInProcess(argv, dir, ENV);
      assert.equal(r.code, 2, `${argv.join(' ')}: ${r.stdout}${r.stderr}`);
      assert.match(
        r.stderr,
        /evals\.yaml:5:\d+ .*suites\[0\]\.grid\.token\[1\]: expected grid values that differ outside their secrets, found one that reads as "\[redacted\]"/,
      );
      assert.equal((r.stdout + r.stderr).includes('RRRR'), false);
    }
  });
});
