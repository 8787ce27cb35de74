/**
 * The notes that say where a file was written (`results written to …`, `JUnit report written to
 * …`, `HTML report written to …`, `merged … → …`) show the name as the summary's pointer does:
 * printable, an escape or a line break written out (`\u001b`), never sent to the terminal.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const ESC = '\x1b[2J';

function clean(text: string): void {
  assert.ok(!text.includes('\x1b'), JSON.stringify(text));
}

describe('notes naming a written file show its name printable', () => {
  const dir = jsonlProject(
    [1, 2].map((n) => ({ n, output: 'x' })),
    ['hash: [n]', 'evaluators:', '  - { id: ok, use: is-equals, with: { expected: "x" } }'],
  );

  it('evals run -o, --junit and --report', async () => {
    const argv = ['run', '-o', `r${ESC}.json`, '--junit', `j${ESC}.xml`, '--report', `h\n.html`];
    const result = await runInProcess(argv, dir);
    assert.equal(result.code, 0, result.stderr);
    clean(result.stderr);
    assert.match(result.stderr, /results written to r\\u001b\[2J\.json\n/);
    assert.match(result.stderr, /JUnit report written to j\\u001b\[2J\.xml\n/);
    assert.match(result.stderr, /HTML report written to h\\u000a\.html\n/);
  });

  it('evals report -o and evals merge -o, --junit', async () => {
    const report = await runInProcess(['report', `r${ESC}.json`, '-o', `p${ESC}.html`], dir);
    assert.equal(report.code, 0, report.stderr);
    clean(report.stderr);
    assert.match(report.stderr, /written to p\\u001b\[2J\.html\n/);
    for (const shard of ['1/2', '2/2']) {
      const run = await runInProcess(['run', '--shard', shard, '-o', `s${shard[0]}.json`], dir);
      assert.equal(run.code, 0, run.stderr);
    }
    const argv = ['merge', 's1.json', 's2.json', '-o', `m${ESC}.json`, '--junit', `k${ESC}.xml`];
    const merge = await runInProcess(argv, dir);
    assert.equal(merge.code, 0, merge.stderr);
    clean(merge.stderr);
    assert.match(merge.stderr, /→ m\\u001b\[2J\.json\n/);
    assert.match(merge.stderr, /JUnit report written to k\\u001b\[2J\.xml\n/);
  });
});
