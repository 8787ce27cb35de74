/**
 * `errorGist`: an error on one line for the summary, JUnit messages and annotations, keeping
 * what failed (its first line) and why (its last meaningful line), whatever a program printed
 * after the cause: Python's traceback order, Node's stack frames and the properties it prints
 * after an error (`{ code: 'ENOENT' … }`, nested `[cause]` blocks).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { errorGist } from '../src/report/labels.ts';

/** What Node prints on stderr when a script dies of `code`. */
function nodeCrash(code: string): string {
  try {
    execFileSync(process.execPath, ['-e', code], { stdio: 'pipe' });
  } catch (error) {
    return String((error as { stderr: Buffer }).stderr);
  }
  throw new Error('the script did not fail');
}

describe('errorGist', () => {
  it("keeps Node's error line, not the properties and banner it prints after it", () => {
    const stderr = nodeCrash("require('fs').readFileSync('nope')");
    assert.match(stderr, /^\s+code: 'ENOENT',$/m, 'Node printed the error properties');
    assert.equal(
      errorGist(`the command exited with code 1; stderr:\n${stderr}`),
      "the command exited with code 1; stderr: … Error: ENOENT: no such file or directory, open 'nope'",
    );
  });

  it('skips an error cause block, nested braces included', () => {
    const stderr = nodeCrash(
      "const e = new TypeError('outer', { cause: Object.assign(new Error('inner'), { code: 'X' }) }); throw e;",
    );
    assert.match(stderr, /\[cause\]/, 'Node printed the cause');
    assert.equal(errorGist(`failed:\n${stderr}`), 'failed: … TypeError: outer');
  });

  it("keeps Python's exception, the last line of its traceback", () => {
    const traceback = [
      'the command exited with code 1; stderr:',
      'Traceback (most recent call last):',
      '  File "agent.py", line 1, in <module>',
      '    import openai',
      "ModuleNotFoundError: No module named 'openai'",
    ].join('\n');
    assert.equal(
      errorGist(traceback),
      "the command exited with code 1; stderr: … ModuleNotFoundError: No module named 'openai'",
    );
  });

  it('joins two lines, marks left-out ones, and leaves one line as it is', () => {
    assert.equal(errorGist('judge timed out\nat line 2'), 'judge timed out at line 2');
    assert.equal(errorGist('boom\n\n    at f (x.js:1:1)'), 'boom …');
    assert.equal(errorGist('just this'), 'just this');
  });

  it('a JSON block the first line opens is the message: its last line says why', () => {
    assert.equal(
      errorGist('answered 500: {\n  "error": "overloaded"\n}'),
      'answered 500: { "error": "overloaded"',
    );
  });
});
