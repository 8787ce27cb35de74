/**
 * A command target's program named by the grid (`run: ["{{ params.agent }}", …]`) is known
 * before any case runs, so `validate` and `run --dry-run` check it at every grid point, as they
 * check a plain program and a prompt file named by the grid. It was skipped, and every case of
 * the grid point errored with `cannot start …: not found`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const project = (agents: string[]): string =>
  jsonlProject(
    [{ q: 'a' }],
    [
      `grid: { agent: [${agents.join(', ')}] }`,
      'target:',
      '  type: command',
      '  run: ["{{ params.agent }}", "{{ case.q }}"]',
    ],
  );

describe('a program named by the grid', () => {
  for (const command of [['validate'], ['run', '--dry-run']]) {
    it(`that is not on PATH at one grid point is refused by ${command.join(' ')}, naming the point`, async () => {
      const result = await runInProcess(command, project(['echo', 'pythn3']));
      assert.equal(result.code, 2, result.stdout + result.stderr);
      assert.match(
        result.stdout + result.stderr,
        /evals\.yaml:8:13 +suites\[0\]\.target\.run\[0\]: command pythn3 \(from \{\{ params\.agent \}\} at \{"agent":"pythn3"\}\) is not on PATH/,
      );
    });
  }

  it('missing at several grid points is refused once, naming every such point', async () => {
    const result = await runInProcess(['validate'], project(['pythn3', 'echo', 'nde']));
    assert.equal(result.code, 2, result.stdout + result.stderr);
    const lines = result.stderr.split('\n').filter((line) => line.startsWith('error: '));
    assert.deepEqual(
      lines.map(
        (line) =>
          /^error: evals\.yaml:8:13 +suites\[0\]\.target\.run\[0\]: command (\w+) \(from \{\{ params\.agent \}\} at \{"agent":"\1"\}\) is not on PATH/.exec(
            line,
          )?.[1],
      ),
      ['pythn3', 'nde'],
      result.stderr,
    );
  });

  it('found at every grid point is valid', async () => {
    const result = await runInProcess(['validate'], project(['echo', 'printf']));
    assert.equal(result.code, 0, result.stdout + result.stderr);
  });
});
