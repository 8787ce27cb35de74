/**
 * QA #6 and #7: the outputs of `evals run` checked before anything runs.
 * #6: with several outputs that cannot be written, every one is named in one go (before, only
 * the first was, and fixing it revealed the next), still exit 2 and no case run.
 * #7: `--resume FOLDER` with no `-o` (whose default is the `--resume` file) is a `--resume`
 * mistake, not an `-o` one the user never typed.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';
import { suiteProject } from './helpers/suite-project.ts';

/** One case whose function leaves a file `ran` behind; `taken` a file, `folder` a folder. */
function project(): string {
  const dir = suiteProject(
    [
      'testset: { cases: [{ q: a0 }] }',
      'function: ./fn.mjs#fn',
      'evaluators:',
      '  - { use: contains, with: { values: [a] } }',
    ],
    {
      'fn.mjs': `import { writeFileSync } from 'node:fs';
export function fn({ testCase }) {
  writeFileSync(new URL('./ran', import.meta.url), '');
  return testCase.q;
}
`,
    },
  );
  writeFiles(dir, { taken: 'a file\n' });
  mkdirSync(join(dir, 'folder'));
  return dir;
}

describe('several outputs that cannot be written', () => {
  it('names each of them, counts them, exit 2, nothing run', async () => {
    const dir = project();
    const r = await runInProcess(
      ['run', '-o', 'ok.json', '--junit', 'taken/j.xml', '--report', 'folder'],
      dir,
    );
    assert.equal(r.code, 2, r.stderr);
    assert.equal(
      r.stderr,
      [
        `error: --junit taken/j.xml: ${join(realpathSync(dir), 'taken')} is a file, not a folder, so the JUnit report could not be written; nothing was run`,
        'error: --report folder: is a folder, not a file (name a file in it), so the HTML report could not be written; nothing was run',
        '2 problems found',
        '',
      ].join('\n'),
    );
    assert.equal(existsSync(join(dir, 'ran')), false, 'no case ran');
    assert.equal(existsSync(join(dir, 'ok.json')), false);
  });

  it('with -o among them, and a file named twice, every problem is listed', async () => {
    const dir = project();
    const r = await runInProcess(
      ['run', '-o', 'folder', '--junit', 'r.xml', '--report', 'r.xml'],
      dir,
    );
    assert.equal(r.code, 2, r.stderr);
    assert.equal(
      r.stderr,
      [
        'error: -o folder: is a folder, not a file (name a file in it), so the results could not be written; nothing was run',
        'error: --report r.xml: the same file as --junit r.xml; give each its own path',
        '2 problems found',
        '',
      ].join('\n'),
    );
    assert.equal(existsSync(join(dir, 'ran')), false, 'no case ran');
  });
});

describe('--resume FOLDER with no -o', () => {
  it('is a --resume problem, not an -o one; exit 2, nothing run', async () => {
    const dir = project();
    const r = await runInProcess(['run', '--resume', 'folder'], dir);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(
      r.stderr,
      'error: --resume folder: is a folder, not a results file (--resume names the file an interrupted run wrote); nothing was run\n',
    );
    assert.doesNotMatch(r.stderr, /-o /);
    assert.equal(existsSync(join(dir, 'ran')), false, 'no case ran');
  });
});
