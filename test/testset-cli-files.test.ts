/**
 * `evals testset diff`, `revision`, `show` and `convert` end to end, and the bad input every
 * sub-command exits 2 on: the built CLI against temporary folders and git repositories.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';
import { json, threeCommitRepo, V1 } from './helpers/testset-git-history.ts';

describe('evals testset diff', () => {
  it('with dedup ids, an edited expectation is 1 changed, 0 added, 0 removed', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'a.csv': '__dedup_id__,question,expected\nq1,2+2,4\nq2,capital of France,Paris\n',
      'b.csv': '__dedup_id__,question,expected\nq1,2+2,4\nq2,capital of France,Lyon\n',
    });
    const r = await runCli(['testset', 'diff', 'a.csv', 'b.csv', '--json', '--id', 'qa'], {
      cwd: dir,
    });
    assert.equal(r.code, 1, r.stderr);
    const diff = json<{
      added: unknown[];
      removed: unknown[];
      changed: { fields: { field: string; before: unknown; after: unknown }[] }[];
    }>(r.stdout);
    assert.deepEqual([diff.added.length, diff.removed.length, diff.changed.length], [0, 0, 1]);
    assert.deepEqual(diff.changed[0]?.fields, [
      { field: 'expected', before: 'Paris', after: 'Lyon' },
    ]);
    const text = await runCli(['testset', 'diff', 'a.csv', 'b.csv', '--id', 'qa'], { cwd: dir });
    assert.match(text.stdout, /0 added, 0 removed, 1 changed/);
    assert.match(text.stdout, /"Paris" → "Lyon"/);
  });

  it('without dedup ids, the same edit is 1 added and 1 removed', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'a.csv': 'question,expected\n2+2,4\ncapital of France,Paris\n',
      'b.csv': 'question,expected\n2+2,4\ncapital of France,Lyon\n',
    });
    const r = await runCli(['testset', 'diff', 'a.csv', 'b.csv', '--json', '--id', 'qa'], {
      cwd: dir,
    });
    assert.equal(r.code, 1, r.stderr);
    const diff = json<{ added: unknown[]; removed: unknown[]; changed: unknown[] }>(r.stdout);
    assert.deepEqual([diff.added.length, diff.removed.length, diff.changed.length], [1, 1, 0]);
    // With the suite's hash: fields the edit is a change again.
    const hashed = await runCli(
      ['testset', 'diff', 'a.csv', 'b.csv', '--json', '--id', 'qa', '--hash', 'question'],
      { cwd: dir },
    );
    const d2 = json<{ added: unknown[]; removed: unknown[]; changed: unknown[] }>(hashed.stdout);
    assert.deepEqual([d2.added.length, d2.removed.length, d2.changed.length], [0, 0, 1]);
  });

  it('exits 0 for equal sides, and compares a file with itself at a ref', async () => {
    const { dir, shas } = threeCommitRepo();
    const same = await runCli(
      ['testset', 'diff', 'testsets/capitals.csv@HEAD', 'testsets/capitals.csv'],
      { cwd: dir },
    );
    assert.equal(same.code, 0, same.stderr);
    const older = await runCli(
      ['testset', 'diff', `testsets/capitals.csv@${shas[1]}`, 'testsets/capitals.csv', '--json'],
      { cwd: dir },
    );
    assert.equal(older.code, 1);
    const diff = json<{ added: unknown[]; removed: unknown[]; changed: unknown[] }>(older.stdout);
    assert.deepEqual([diff.added.length, diff.removed.length, diff.changed.length], [1, 1, 1]);
  });

  it('takes hash: and the testset id from the suite in evals.yaml that reads the file', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'evals.yaml':
        'version: 1\nsuites:\n  - id: qa\n    testset: { path: a.csv }\n    hash: [question]\n',
      'a.csv': 'question,expected\n2+2,4\n',
      'b.csv': 'question,expected\n2+2,four\n',
    });
    const r = await runCli(['testset', 'diff', 'a.csv', 'b.csv', '--json'], { cwd: dir });
    const diff = json<{ changed: unknown[] }>(r.stdout);
    assert.equal(diff.changed.length, 1);
    const rev = await runCli(['testset', 'revision', 'a.csv'], { cwd: dir });
    assert.match(rev.stdout, /identity\s+hash fields question/);
  });
});

describe('evals testset revision and show', () => {
  it('prints the revision, row count and identity mode', async () => {
    const dir = scratch();
    writeFiles(dir, { 'qa.csv': '__dedup_id__,q\na,1\nb,2\n', 'plain.jsonl': '{"q":1}\n' });
    const r = await runCli(['testset', 'revision', 'qa.csv'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^revision\s+[0-9a-f]{64}\nrows\s+2\nidentity\s+dedup id\n$/);
    const plain = await runCli(['testset', 'revision', 'plain.jsonl'], { cwd: dir });
    assert.match(plain.stdout, /identity\s+content/);
  });

  it('shows the rows as a table or as JSON', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'qa.csv': '__dedup_id__,question,answer\nq1,"multi\nline",yes\nq2,short,no\n',
    });
    const table = await runCli(['testset', 'show', 'qa.csv'], { cwd: dir });
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /q1/);
    assert.match(table.stdout, /2 rows/);
    const rows = json<{ id: string; line: number; data: Record<string, string> }[]>(
      (await runCli(['testset', 'show', 'qa.csv', '--json'], { cwd: dir })).stdout,
    );
    assert.deepEqual(
      rows.map((r) => [r.id, r.line, r.data.question]),
      [
        ['q1', 2, 'multi\nline'],
        ['q2', 4, 'short'],
      ],
    );
  });
});

describe('evals testset convert', () => {
  it('CSV → JSON → JSONL → CSV keeps every id and the revision', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'qa.csv':
        '__dedup_id__,question,keywords,__tags__\nq1,"Hello, ""world""","[""a"",""b""]",smoke\nq2,Ünïcödé ✓,,\n,no dedup id,"{""k"":1}",\n',
    });
    const ids = async (file: string): Promise<[string, string][]> =>
      json<{ id: string; contentId: string }[]>(
        (await runCli(['testset', 'show', file, '--json', '--id', 'qa'], { cwd: dir })).stdout,
      ).map((r) => [r.id, r.contentId]);
    const revision = async (file: string): Promise<string> =>
      json<{ revision: string }>(
        (await runCli(['testset', 'revision', file, '--json', '--id', 'qa'], { cwd: dir })).stdout,
      ).revision;
    const original = { ids: await ids('qa.csv'), revision: await revision('qa.csv') };
    for (const [from, to] of [
      ['qa.csv', 'qa.json'],
      ['qa.json', 'qa.jsonl'],
      ['qa.jsonl', 'out/qa.csv'],
    ] as const) {
      const r = await runCli(['testset', 'convert', from, to], { cwd: dir });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /\(unchanged\)/);
      assert.deepEqual(await ids(to), original.ids, `${to} keeps every id`);
      assert.equal(await revision(to), original.revision, `${to} keeps the revision`);
    }
    assert.match(readFileSync(join(dir, 'qa.json'), 'utf8'), /"testcase_dedup_id": "q1"/);
    assert.match(readFileSync(join(dir, 'out/qa.csv'), 'utf8'), /^__dedup_id__|,__dedup_id__/m);
  });

  it('refuses values a CSV cell would change, unless --lossy', async () => {
    const dir = scratch();
    writeFiles(dir, { 'n.jsonl': '{"q":"a","n":3}\n{"q":"b","n":true}\n' });
    const r = await runCli(['testset', 'convert', 'n.jsonl', 'n.csv'], { cwd: dir });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /n\.jsonl:1:\d+ +n: .*number/);
    const lossy = await runCli(['testset', 'convert', 'n.jsonl', 'n.csv', '--lossy'], { cwd: dir });
    assert.equal(lossy.code, 0, lossy.stderr);
    assert.match(lossy.stdout, /--lossy changed values/);
  });
});

describe('evals testset convert: lossy edge cases are usage errors', () => {
  it('caps a long problem list, and refuses --lossy output that is no valid testset', async () => {
    const dir = scratch();
    const many = Array.from({ length: 120 }, (_, i) => JSON.stringify({ q: `q${i}`, n: i })).join(
      '\n',
    );
    writeFiles(dir, {
      'many.jsonl': `${many}\n`,
      // Without the key `b`, the first row would read back with b: "" — the same as the second.
      'collapse.jsonl': '{"a":"x"}\n{"a":"x","b":""}\n',
      'empty.json': '[]\n',
    });
    const capped = await runCli(['testset', 'convert', 'many.jsonl', 'many.csv'], { cwd: dir });
    assert.equal(capped.code, 2);
    assert.equal(capped.stderr.match(/^error: many\.jsonl:/gm)?.length, 50);
    assert.match(capped.stderr, /and 70 more problems; many\.csv was not written/);

    const collapse = await runCli(['testset', 'convert', 'collapse.jsonl', 'c.csv', '--lossy'], {
      cwd: dir,
    });
    assert.equal(collapse.code, 2, collapse.stderr);
    assert.match(collapse.stderr, /duplicate case identity/);
    assert.match(collapse.stderr, /c\.csv was not written/);

    const empty = await runCli(['testset', 'convert', 'empty.json', 'e.csv', '--lossy'], {
      cwd: dir,
    });
    assert.equal(empty.code, 2, empty.stderr);
    assert.doesNotMatch(empty.stderr, /\n\s+at /);
  });
});

describe('evals testset convert: an output it could never write', () => {
  it('is refused before converting: a folder, or a path under a file', async () => {
    const dir = scratch();
    // A folder whose name ends in .csv: the output's format is right, its kind is not.
    writeFiles(dir, { 't.csv': V1, 'out.csv/keep.txt': '' });
    const cases: [string, RegExp][] = [
      [
        'out.csv',
        /^error: convert to out\.csv: is a folder, not a file \(name a file in it\), so nothing was converted\n$/,
      ],
      [
        't.csv/x.jsonl',
        /^error: convert to t\.csv\/x\.jsonl: .*t\.csv is a file, not a folder, so nothing was converted\n$/,
      ],
    ];
    for (const [output, message] of cases) {
      const r = await runInProcess(['testset', 'convert', 't.csv', output], dir);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, message);
    }
    assert.equal(readFileSync(join(dir, 't.csv'), 'utf8'), V1);
  });
});

describe('evals testset: bad input exits 2 with the file and the line or ref', () => {
  const cases: [name: string, files: Record<string, string>, args: string[], expect: RegExp][] = [
    ['a malformed CSV row', { 'x.csv': 'a,b\n1,2\n3\n' }, ['revision', 'x.csv'], /x\.csv:3:\d+ /],
    ['duplicate headers', { 'x.csv': 'a,a\n1,2\n' }, ['show', 'x.csv'], /x\.csv:1:\d+ .*a/],
    [
      'a duplicate identity',
      { 'x.csv': '__dedup_id__,q\nk,1\nk,2\n' },
      ['revision', 'x.csv'],
      /x\.csv:3:\d+ .*x\.csv:2 and x\.csv:3 have the same __dedup_id__ "k"/,
    ],
    ['an unknown file', {}, ['show', 'nope.csv'], /nope\.csv/],
    [
      'a bad ref outside git',
      { 'x.csv': 'q\n1\n' },
      ['show', 'x.csv@main'],
      /x\.csv@main +.*not inside a git repository/,
    ],
    ['an unknown sub-command', {}, ['explode'], /unknown command "testset explode"/],
  ];
  for (const [name, files, args, expect] of cases) {
    it(name, async () => {
      const dir = scratch();
      writeFiles(dir, files);
      const r = await runCli(['testset', ...args], { cwd: dir });
      assert.equal(r.code, 2, `${r.stdout}${r.stderr}`);
      assert.match(r.stderr, expect);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
    });
  }

  it('a bad ref inside a repository names the ref', async () => {
    const { dir } = threeCommitRepo();
    const r = await runCli(
      ['testset', 'diff', 'testsets/capitals.csv@nope', 'testsets/capitals.csv'],
      { cwd: dir },
    );
    assert.equal(r.code, 2);
    assert.match(r.stderr, /testsets\/capitals\.csv@nope +.*nope/);
  });
});
