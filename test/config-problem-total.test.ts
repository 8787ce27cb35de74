/**
 * The closing count of a refused config counts every problem, printed or not: YAML errors
 * past the ten printed are counted in the total, not taken for one problem.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

describe('the total of problems when YAML errors are not all shown', () => {
  it('1,000 malformed lines: 10 printed, a count of 990, and a total of 1,000', async () => {
    const dir = scratch();
    const lines = ['version: 1', 'suites:'];
    for (let i = 0; i < 1000; i++) lines.push('  - a: b: c');
    writeFiles(dir, { 'evals.yaml': `${lines.join('\n')}\n` });
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 2, result.stderr);
    const printed = result.stderr.trimEnd().split('\n');
    assert.equal(printed.filter((l) => l.startsWith('error: ')).length, 10);
    assert.match(
      printed.at(-2) ?? '',
      /^evals\.yaml:\d+:\d+ {2}990 more YAML errors not shown \(1000 in all\)$/,
    );
    assert.equal(printed.at(-1), '1000 problems found (10 shown)');
  });
});
