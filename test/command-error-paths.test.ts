/**
 * A command target's failures each say what happened and to what, as a new user meets them: a
 * program a case's template names that is not on PATH (load-time checks cannot see it) says so
 * and where it looked; a command killed by a signal it did not get from evalgate says what
 * usually sends that signal; a command stopped at the suite's time-out names the program it
 * was still running, as an http target names the request it waited for.
 */
import assert from 'node:assert/strict';
import { delimiter } from 'node:path';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';

async function onlyError(dir: string): Promise<string> {
  const result = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir);
  assert.equal(result.code, 1, result.stdout + result.stderr);
  return artifactCases(dir)[0]!.cases[0]!.error ?? '';
}

describe("a command target's error", () => {
  it('names PATH when a program a case names is not on it', async () => {
    const dir = jsonlProject(
      [{ prog: 'no-such-program-t3' }],
      ['target:', '  type: command', '  run: ["{{ case.prog }}", x]'],
    );
    const error = await onlyError(dir);
    const folders = (process.env.PATH ?? '').split(':').filter((folder) => folder !== '');
    assert.equal(
      error,
      `cannot start no-such-program-t3: not found: no program of that name is on PATH (none of its ${folders.length} folders has it)`,
    );
    // The folders of the user's PATH stay out of the artifact, and so does the working folder.
    for (const folder of folders) assert.equal(error.includes(`${folder}:`), false, folder);
    assert.equal(error.includes(dir), false, error);
  });

  it('names the working folder when PATH has relative entries, which are read from it', async () => {
    const dir = jsonlProject(
      [{ prog: 'no-such-program-t3' }],
      [
        'target:',
        '  type: command',
        `  env: { PATH: "bin${delimiter}/no/such/folder" }`,
        '  run: ["{{ case.prog }}", x]',
      ],
    );
    assert.equal(
      await onlyError(dir),
      `cannot start no-such-program-t3: not found: no program of that name is on PATH (none of its 2 folders, the relative ones read from the working folder ${dir}, has it)`,
    );
  });

  it('says when PATH is empty', async () => {
    const dir = jsonlProject(
      [{ prog: 'no-such-program-t3' }],
      ['target:', '  type: command', '  env: { PATH: "" }', '  run: ["{{ case.prog }}", x]'],
    );
    assert.match(await onlyError(dir), /on PATH \(PATH is empty\)$/);
  });

  it('names the file a relative program path would be', async () => {
    const dir = jsonlProject(
      [{ prog: './bin/missing.sh' }],
      ['target:', '  type: command', '  run: ["{{ case.prog }}"]'],
    );
    assert.match(
      await onlyError(dir),
      /^cannot start \.\/bin\/missing\.sh: not found: there is no file \/.*\/bin\/missing\.sh$/,
    );
  });

  it('says what usually sends the signal that killed it', async () => {
    const dir = jsonlProject(
      [{ q: 'a' }],
      ['target:', '  type: command', '  run: [node, -e, "process.kill(process.pid, \'SIGKILL\')"]'],
    );
    assert.equal(
      await onlyError(dir),
      "the command was killed by SIGKILL before it exited (often the system's out-of-memory killer, or a kill -9)",
    );
  });

  it('names the program it was running when the time-out stopped it', async () => {
    const dir = jsonlProject(
      [{ q: 'a' }],
      [
        'timeout: 500ms',
        'target:',
        '  type: command',
        '  run: [node, -e, "setTimeout(() => {}, 30000)"]',
      ],
    );
    assert.equal(await onlyError(dir), 'timed out after 500 ms while running node');
  });
});
