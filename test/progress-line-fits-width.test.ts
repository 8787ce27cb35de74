/**
 * `evals run`'s live progress line fits the terminal: cut to its width, one column spare, and
 * marked with `…`, since a line that wraps cannot be redrawn in place (each redraw would leave
 * the wrapped part behind). `runTestSuite`'s shared board already cut it; the CLI's did not.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cli } from '../src/cli/main.ts';
import { textWidth } from '../src/shared/text-table.ts';
import { jsonlProject } from './helpers/in-process.ts';

const COLUMNS = 30;

describe('the live progress line of evals run', () => {
  it(`is cut to a ${COLUMNS}-column terminal`, async () => {
    const dir = jsonlProject(
      [{ q: 'a', output: 'x' }],
      ['evaluators:', '  - { id: ok, use: is-equals, with: { expected: "x" } }'],
    );
    let stderr = '';
    const code = await cli(['run', '-o', 'r.json'], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: '', TERM: 'xterm' },
      stdout: { write: () => true, isTTY: true, columns: COLUMNS },
      stderr: { write: (text: string) => ((stderr += text), true), isTTY: true },
    });
    assert.equal(code, 0, stderr);
    const drawn = stderr
      .split('\r\x1b[2K')
      .slice(1)
      .map((line) => line.split('\n')[0] ?? '');
    const progress = drawn.filter((line) => line.includes('passed'));
    assert.ok(progress.length > 0, JSON.stringify(stderr));
    for (const line of progress) {
      assert.ok(textWidth(line) <= COLUMNS - 1, `[${textWidth(line)}] ${line}`);
      assert.match(line, /…$/);
    }
  });
});
