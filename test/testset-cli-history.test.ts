/**
 * `evals testset log`, `ref:` and `evals testset pin` end to end: the built CLI against real
 * temporary git repositories.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ResultsArtifact } from '../src/types/index.ts';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';
import { commitAll, git } from './helpers/git.ts';
import { json, threeCommitRepo, V3 } from './helpers/testset-git-history.ts';

/** A function under test that returns its case. */
const ECHO = 'export default ({ testCase }) => testCase;\n';

describe('evals testset log', () => {
  it('shows each commit with its revision, row count and deltas', async () => {
    const { dir, shas } = threeCommitRepo();
    const r = await runCli(['testset', 'log', 'testsets/capitals.csv', '--json'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    const log = json<{
      workingTree: unknown;
      commits: {
        commit: string;
        subject: string;
        version: { rows: number; added: number; removed: number; changed: number };
      }[];
    }>(r.stdout);
    assert.equal(log.workingTree, null, 'the working tree matches the newest commit');
    assert.deepEqual(
      log.commits.map((c) => [
        c.commit,
        c.subject,
        c.version.rows,
        c.version.added,
        c.version.removed,
        c.version.changed,
      ]),
      [
        [shas[2], 'Kyoto, no Italy, add Spain', 4, 1, 1, 1],
        [shas[1], 'add Japan and Italy', 4, 2, 0, 0],
        [shas[0], 'two capitals', 2, 2, 0, 0],
      ],
    );
    const text = await runCli(['testset', 'log', 'testsets/capitals.csv'], { cwd: dir });
    assert.match(text.stdout, /\+1\s+-1\s+~1\s+Kyoto, no Italy, add Spain/);
    // Columns as wide as their widest cell, two spaces apart, the counts to the right.
    const [header, newest] = text.stdout.split('\n');
    assert.equal(
      header,
      'commit      date        revision      rows  added  removed  changed  subject',
    );
    assert.match(
      newest ?? '',
      /^[0-9a-f]{10} {2}\d{4}-\d\d-\d\d {2}[0-9a-f]{12} {5}4 {5}\+1 {7}-1 {7}~1 {2}Kyoto, no Italy, add Spain$/,
    );
  });

  it('lists uncommitted changes first', async () => {
    const { dir } = threeCommitRepo();
    writeFiles(dir, { 'testsets/capitals.csv': `${V3}pe,Peru,Lima\n` });
    const r = await runCli(['testset', 'log', 'testsets/capitals.csv'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout.split('\n')[1] ?? '',
      /^\(working tree\)\s+[0-9a-f]{12}\s+5\s+uncommitted changes/,
    );
  });
});

describe('ref: in a testset', () => {
  it('replays the rows of the pinned commit even though the working file changed', async () => {
    const { dir, shas } = threeCommitRepo();
    const first = shas[0] ?? '';
    const pin = json<{ revision: string }>(
      (
        await runCli(['testset', 'revision', `testsets/capitals.csv@${first}`, '--json'], {
          cwd: dir,
        })
      ).stdout,
    ).revision;
    writeFiles(dir, {
      'evals.yaml': `version: 1
suites:
  - id: capitals
    testset: { path: testsets/capitals.csv, ref: '${first.slice(0, 10)}', revision: '${pin.slice(0, 12)}' }
    function: ./echo.mjs
    evaluators:
      - { id: known, use: is-equals, with: { expected: "{{case.capital}}", actual: "{{output.capital}}" } }
`,
      'echo.mjs': ECHO,
    });
    writeFiles(dir, { 'testsets/capitals.csv': `${V3}xx,Nowhere,None\n` }); // uncommitted edit
    const r = await runCli(['run', '-o', 'out.json'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    const artifact = json<ResultsArtifact>(readFileSync(join(dir, 'out.json'), 'utf8'));
    const run = artifact.runs[0];
    assert.deepEqual(
      run?.cases.map((c) => (c.data as { country: string }).country),
      ['France', 'Germany'],
    );
    assert.deepEqual(run?.testset, {
      path: 'testsets/capitals.csv',
      ref: first.slice(0, 10),
      commit: first,
      revision: pin,
      cases: 2,
    });
    assert.equal(
      git(dir, 'status', '--porcelain', 'testsets'),
      'M testsets/capitals.csv',
      'working tree untouched',
    );
  });

  it('reports an unknown ref, a path absent at the ref, and a folder outside git, at the ref line', async () => {
    const { dir, shas } = threeCommitRepo();
    const cases: [ref: string, path: string, expect: RegExp][] = [
      [
        'no-such-branch',
        'testsets/capitals.csv',
        /evals\.yaml:4:\d+ +suites\[0\]\.testset\.ref: .*no-such-branch/,
      ],
      [
        shas[0] ?? '',
        'testsets/later.csv',
        /evals\.yaml:4:\d+ +suites\[0\]\.testset\.ref: .*later\.csv/,
      ],
    ];
    writeFiles(dir, { 'testsets/later.csv': 'q\n1\n' });
    commitAll(dir, 'later file');
    for (const [ref, path, expect] of cases) {
      writeFiles(dir, {
        'evals.yaml': `version: 1\nsuites:\n  - id: a\n    testset: { path: ${path}, ref: '${ref}' }\n`,
      });
      const r = await runCli(['validate'], { cwd: dir });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, expect);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
    }
    const outside = scratch();
    writeFiles(outside, {
      'evals.yaml': 'version: 1\nsuites:\n  - id: a\n    testset: { path: rows.csv, ref: main }\n',
      'rows.csv': 'q\n1\n',
    });
    const r = await runCli(['validate'], { cwd: outside });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /evals\.yaml:4:\d+ .*not inside a git repository/);
  });

  it('says a shallow clone needs fetch-depth: 0', async () => {
    const { dir, shas } = threeCommitRepo();
    const clone = join(scratch(), 'clone');
    git(dir, 'clone', '-q', '--depth', '1', `file://${dir}`, clone);
    writeFiles(clone, {
      'evals.yaml': `version: 1\nsuites:\n  - id: a\n    testset: { path: testsets/capitals.csv, ref: '${shas[0]}' }\n`,
    });
    const r = await runCli(['validate'], { cwd: clone });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /shallow/);
    assert.match(r.stderr, /fetch-depth: 0/);
  });
});

describe('evals testset pin', () => {
  it('writes current revisions keeping comments, then --check passes; an edit makes it stale', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'evals.yaml': `# my evals
version: 1
suites:
  - id: qa   # the main suite
    testset: { path: qa.csv }
    function: ./echo.mjs
  - id: inline
    testset:
      cases:
        - { q: 1 }
    function: ./echo.mjs
`,
      'qa.csv': '__dedup_id__,q\na,1\n',
      'echo.mjs': ECHO,
    });
    const check0 = await runCli(['testset', 'pin', '--check'], { cwd: dir });
    assert.equal(check0.code, 0, 'missing pins are not stale');
    const pin = await runCli(['testset', 'pin'], { cwd: dir });
    assert.equal(pin.code, 0, pin.stderr);
    const text = readFileSync(join(dir, 'evals.yaml'), 'utf8');
    assert.match(text, /^# my evals\n/);
    assert.match(
      text,
      /- id: qa {3}# the main suite\n {4}testset: \{ path: qa\.csv, revision: [0-9a-f]{12} \}/,
    );
    assert.match(
      text,
      /cases:\n {8}- \{ q: 1 \}\n {6}revision: [0-9a-f]{12}\n|revision: [0-9a-f]{12}/,
    );
    const run = await runCli(['run', '-o', 'out.json'], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    assert.equal((await runCli(['testset', 'pin', '--check'], { cwd: dir })).code, 0);

    writeFiles(dir, { 'qa.csv': '__dedup_id__,q\na,2\n' });
    const stale = await runCli(['testset', 'pin', '--check'], { cwd: dir });
    assert.equal(stale.code, 1);
    assert.match(stale.stdout, /✗ qa: pinned [0-9a-f]{12}, but the testset is now/);
    assert.equal(readFileSync(join(dir, 'evals.yaml'), 'utf8'), text, '--check writes nothing');
  });

  it('a pin mismatch in evals run counts the rows added, removed and changed since the pinned commit', async () => {
    const { dir, shas } = threeCommitRepo();
    const rev1 = json<{ revision: string }>(
      (
        await runCli(['testset', 'revision', `testsets/capitals.csv@${shas[1]}`, '--json'], {
          cwd: dir,
        })
      ).stdout,
    ).revision;
    writeFiles(dir, {
      'evals.yaml': `version: 1\nsuites:\n  - id: capitals\n    testset: { path: testsets/capitals.csv, revision: '${rev1.slice(0, 12)}' }\n`,
    });
    const r = await runCli(['run'], { cwd: dir });
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /evals\.yaml:4:\d+ +suites\[0\]\.testset\.revision: .*pinned [0-9a-f]{12}, current [0-9a-f]{12}[ ;:]/,
    );
    assert.match(r.stderr, new RegExp(`commit ${shas[1]?.slice(0, 10)}`));
    assert.match(r.stderr, /1 added, 1 removed, 1 changed/);
    assert.match(
      r.stderr,
      /evals testset diff testsets\/capitals\.csv@[0-9a-f]{10} testsets\/capitals\.csv/,
    );
    // A shard holds only its cases, but the explanation still counts the changes to the file.
    const sharded = await runCli(['run', '--shard', '1/2'], { cwd: dir });
    assert.equal(sharded.code, 2);
    assert.match(sharded.stderr, /1 added, 1 removed, 1 changed/);
  });
});
