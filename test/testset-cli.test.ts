/**
 * `evals testset …` and `ref:` end to end: the built CLI against real temporary git repositories.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ResultsArtifact } from '../src/types/index.ts';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';
import { commitAll, git, newRepo } from './helpers/git.ts';

const V1 = '__dedup_id__,country,capital\nfr,France,Paris\nde,Germany,Berlin\n';
const V2 = `${V1}jp,Japan,Tokyo\nit,Italy,Rome\n`;
// Third commit: one row removed (it), one changed (jp's capital), one added (es).
const V3 =
  '__dedup_id__,country,capital\nfr,France,Paris\nde,Germany,Berlin\njp,Japan,Kyoto\nes,Spain,Madrid\n';

/** A repository whose testsets/capitals.csv went through V1, V2 and V3 in three commits. */
function threeCommitRepo(): { dir: string; shas: string[] } {
  const dir = newRepo();
  const shas: string[] = [];
  for (const [text, message] of [
    [V1, 'two capitals'],
    [V2, 'add Japan and Italy'],
    [V3, 'Kyoto, no Italy, add Spain'],
  ] as const) {
    writeFiles(dir, { 'testsets/capitals.csv': text });
    shas.push(commitAll(dir, message));
  }
  return { dir, shas };
}

/** A function under test that returns its case. */
const ECHO = 'export default ({ testCase }) => testCase;\n';

function json<T>(text: string): T {
  return JSON.parse(text) as T;
}

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

describe('evals testset: bad input exits 2 with the file and the line or ref', () => {
  const cases: [name: string, files: Record<string, string>, args: string[], expect: RegExp][] = [
    ['a malformed CSV row', { 'x.csv': 'a,b\n1,2\n3\n' }, ['revision', 'x.csv'], /x\.csv:3:\d+ /],
    ['duplicate headers', { 'x.csv': 'a,a\n1,2\n' }, ['show', 'x.csv'], /x\.csv:1:\d+ .*a/],
    [
      'a duplicate identity',
      { 'x.csv': '__dedup_id__,q\nk,1\nk,2\n' },
      ['revision', 'x.csv'],
      /x\.csv:3:\d+ .*"k".*lines 2 and 3/,
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
