/**
 * A terminal whose `TERM` is `dumb` (Emacs' shell, some CI runners) cannot redraw a line: it
 * shows the escape that clears one (`ESC [2K`) as text. The docs already keep colour off there;
 * the live progress line must not draw there either, and falls back to the plain lines a log
 * gets. Any other terminal keeps its live line.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cli } from '../src/cli/main.ts';
import { jsonlProject } from './helpers/in-process.ts';

/** `evals run` in `dir` with both streams claiming to be a terminal, and what stderr received. */
async function onTerminal(dir: string, term: string): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const code = await cli(['run', '-o', 'r.json'], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '', FORCE_COLOR: undefined, GITHUB_ACTIONS: '', TERM: term },
    stdout: { write: () => true, isTTY: true, columns: 80 },
    stderr: { write: (text: string) => ((stderr += text), true), isTTY: true },
  });
  return { code, stderr };
}

describe('progress on a dumb terminal', () => {
  const dir = jsonlProject(
    [{ q: 'a', output: 'x' }],
    ['evaluators:', '  - { id: ok, use: is-equals, with: { expected: "x" } }'],
  );

  it('writes no escape sequence when TERM=dumb, and still says how the run went', async () => {
    const { code, stderr } = await onTerminal(dir, 'dumb');
    assert.equal(code, 0, stderr);
    assert.ok(!stderr.includes('\x1b'), JSON.stringify(stderr));
    assert.match(stderr, /done 1\/1/);
  });

  it('redraws its live line on another terminal', async () => {
    const { code, stderr } = await onTerminal(dir, 'xterm-256color');
    assert.equal(code, 0, stderr);
    assert.ok(stderr.includes('\r\x1b[2K'), JSON.stringify(stderr));
  });
});
