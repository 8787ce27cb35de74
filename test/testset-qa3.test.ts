/**
 * Testset versioning as QA round 3 found it wanting: a CRLF inside a quoted CSV cell (a Windows
 * checkout went stale against its pin), history across a rename (`diff` and `log`), and the
 * revision `testset convert` reports.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseCsv } from '../src/testsets/csv.ts';
import { readTestset } from '../src/testsets/read-file.ts';
import { scratch, writeFiles } from './helpers/cli.ts';
import { commitAll, git, newRepo } from './helpers/git.ts';
import { runInProcess } from './helpers/in-process.ts';
import { json } from './helpers/testset-git-history.ts';

/** `evals testset revision FILE --json` in `dir`: the revision and the testset id it used. */
async function revisionOf(dir: string, file: string): Promise<string> {
  const r = await runInProcess(['testset', 'revision', file, '--json'], dir);
  assert.equal(r.code, 0, r.stderr);
  return json<{ revision: string }>(r.stdout).revision;
}

describe('CSV: a line break inside a quoted cell', () => {
  const LF = 'q,a\n"two\nlines",x\nplain,y\n';

  it('is read as \\n whatever the line ends, by every reader', async () => {
    const dir = scratch();
    const texts = {
      'lf.csv': LF,
      'crlf.csv': LF.replaceAll('\n', '\r\n'),
      'cr.csv': LF.replaceAll('\n', '\r'),
    };
    writeFiles(dir, texts);
    for (const [name, text] of Object.entries(texts)) {
      const parsed = parseCsv(text, name);
      assert.ok(parsed.ok, name);
      assert.deepEqual(
        parsed.rows.map((r) => [r.data, r.line]),
        [
          [{ q: 'two\nlines', a: 'x' }, 2],
          [{ q: 'plain', a: 'y' }, 4],
        ],
        `${name}, parsed whole`,
      );
      const streamed = await readTestset({ absPath: join(dir, name), displayPath: name });
      assert.ok(streamed.ok, name);
      assert.deepEqual(streamed.rows, parsed.rows, `${name}, streamed`);
    }
    // Each file's id is its name: give all one, and they have one revision.
    const revisions = await Promise.all(
      Object.keys(texts).map(async (name) => {
        const r = await runInProcess(['testset', 'revision', name, '--id', 't', '--json'], dir);
        return json<{ revision: string }>(r.stdout).revision;
      }),
    );
    assert.equal(new Set(revisions).size, 1, revisions.join(' '));
  });

  it('is why convert refuses text with a carriage return for a CSV file, unless --lossy', async () => {
    const dir = scratch();
    writeFiles(dir, { 'cr.jsonl': `${JSON.stringify({ v: 'a\r\nb', k: 'x' })}\n` });
    const r = await runInProcess(['testset', 'convert', 'cr.jsonl', 'cr.csv'], dir);
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /^error: cr\.jsonl:1:1 {2}v: field "v" holds a carriage return \(\\r\), and a CSV cell would read back as "a\\nb" \(a CSV reader takes every line break in a cell as \\n\), changing the row's content id$/m,
    );
    const lossy = await runInProcess(['testset', 'convert', 'cr.jsonl', 'cr.csv', '--lossy'], dir);
    assert.equal(lossy.code, 0, lossy.stderr);
    assert.match(lossy.stdout, /--lossy changed values/);
  });

  it('keeps a core.autocrlf checkout, which git calls clean, at its pin', async () => {
    const dir = newRepo();
    writeFiles(dir, { 't.csv': LF });
    const pin = await revisionOf(dir, 't.csv');
    writeFiles(dir, {
      'evals.yaml': `version: 1\nsuites:\n  - id: s\n    testset: { path: t.csv, revision: ${pin.slice(0, 12)} }\n    evaluators:\n      - { use: is-equals, with: { expected: "{{case.a}}", actual: "{{case.a}}" } }\n`,
    });
    commitAll(dir, 'pinned');
    git(dir, 'config', 'core.autocrlf', 'true');
    rmSync(join(dir, 't.csv'));
    git(dir, 'checkout', '--', 't.csv');
    assert.match(readFileSync(join(dir, 't.csv'), 'utf8'), /"two\r\nlines"/);
    assert.equal(git(dir, 'status', '--porcelain'), '', 'git calls the checkout clean');

    const check = await runInProcess(['testset', 'pin', '--check'], dir);
    assert.equal(check.code, 0, check.stdout + check.stderr);
    const diff = await runInProcess(['testset', 'diff', 't.csv@HEAD', 't.csv'], dir);
    assert.equal(diff.code, 0, diff.stdout);
    assert.match(diff.stdout, /0 added, 0 removed, 0 changed, 2 unchanged/);
    // The run starts (a stale pin is refused with exit 2 before any case) and writes its results.
    const run = await runInProcess(['run', '-o', 'out.json'], dir);
    assert.ok(run.code === 0 || run.code === 1, run.stderr);
    assert.match(run.stderr, /results written to out\.json/);
  });
});

/**
 * A repository whose testsets/qa.csv (v1, tagged) had q1's answer edited (v2), then was renamed
 * testsets/questions.csv, which a suite identifying rows by `hash: [id]` reads.
 */
function renamedRepo(): string {
  const dir = newRepo();
  writeFiles(dir, {
    'evals.yaml': [
      'version: 1',
      'suites:',
      '  - id: qa',
      '    testset: { path: testsets/questions.csv }',
      '    hash: [id]',
      '    evaluators:',
      '      - { use: is-equals, with: { expected: "{{case.expected}}", actual: "{{case.expected}}" } }',
      '',
    ].join('\n'),
    'testsets/qa.csv': 'id,question,expected\nq1,Capital of France?,Paris\nq2,1+1?,2\nq3,2+2?,4\n',
  });
  commitAll(dir, 'v1');
  git(dir, 'tag', 'v1');
  writeFiles(dir, {
    'testsets/qa.csv':
      'id,question,expected\nq1,Capital of France?,"Paris, France"\nq2,1+1?,2\nq3,2+2?,4\n',
  });
  commitAll(dir, 'v2');
  git(dir, 'mv', 'testsets/qa.csv', 'testsets/questions.csv');
  commitAll(dir, 'rename');
  return dir;
}

/** The commit rows of `evals testset log` (table text) after its header. */
function logRows(stdout: string): string[] {
  return stdout.split('\n').slice(1);
}

describe('testset history across a rename', () => {
  it("diff matches an old name's rows as the suite reading the new name does", async () => {
    const dir = renamedRepo();
    const r = await runInProcess(
      ['testset', 'diff', 'testsets/qa.csv@v1', 'testsets/questions.csv'],
      dir,
    );
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^0 added, 0 removed, 1 changed, 2 unchanged$/m);
    assert.match(r.stdout, /^~ [0-9a-f]{12} {2}line 2\n {4}expected: "Paris" → "Paris, France"$/m);
    // Each side is labelled with its own revision, as `evals testset revision` gives it.
    const [before, after] = await Promise.all([
      revisionOf(dir, 'testsets/qa.csv@v1'),
      revisionOf(dir, 'testsets/questions.csv'),
    ]);
    assert.match(
      r.stdout,
      new RegExp(`^--- testsets/qa\\.csv@v1 \\(rev ${before.slice(0, 12)}, 3 rows\\)$`, 'm'),
    );
    assert.match(
      r.stdout,
      new RegExp(
        `^\\+\\+\\+ testsets/questions\\.csv \\(rev ${after.slice(0, 12)}, 3 rows\\)$`,
        'm',
      ),
    );
    // The other way round, the suite reading A's path decides, as before.
    const back = await runInProcess(
      ['testset', 'diff', 'testsets/questions.csv', 'testsets/qa.csv@v1'],
      dir,
    );
    assert.match(back.stdout, /^0 added, 0 removed, 1 changed, 2 unchanged$/m);
  });

  it('log reads each commit under the name the file had, so the rename adds no row', async () => {
    const dir = renamedRepo();
    const r = await runInProcess(['testset', 'log', 'testsets/questions.csv'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /unreadable/);
    const rows = logRows(r.stdout);
    assert.match(
      rows[0] ?? '',
      / {5}3 {5}\+0 {7}-0 {7}~0 {2}rename \(renamed from testsets\/qa\.csv\)$/,
    );
    assert.match(rows[1] ?? '', / {5}3 {5}\+0 {7}-0 {7}~1 {2}v2$/);
    assert.match(rows[2] ?? '', / {5}3 {5}\+3 {7}-0 {7}~0 {2}v1$/);
    const revision = (row: string | undefined) => row?.split(/ +/)[2];
    assert.equal(revision(rows[0]), revision(rows[1]), 'the rename keeps the revision');

    const log = json<{ commits: { subject: string; path: string }[] }>(
      (await runInProcess(['testset', 'log', 'testsets/questions.csv', '--json'], dir)).stdout,
    );
    assert.deepEqual(
      log.commits.map((c) => [c.subject, c.path]),
      [
        ['rename', 'testsets/questions.csv'],
        ['v2', 'testsets/qa.csv'],
        ['v1', 'testsets/qa.csv'],
      ],
    );
  });

  it('says once why versions are unreadable, and counts the next from the last readable one', async () => {
    const dir = renamedRepo();
    const good = readFileSync(join(dir, 'testsets/questions.csv'), 'utf8');
    writeFiles(dir, { 'testsets/questions.csv': `${good}q4,3+3?\n` });
    commitAll(dir, 'broken');
    writeFiles(dir, { 'testsets/questions.csv': `${good}q4,3+3?\nq5,4+4?,8\n` });
    commitAll(dir, 'still broken');
    writeFiles(dir, { 'testsets/questions.csv': `${good}q4,3+3?,6\n` });
    commitAll(dir, 'fixed');
    const r = await runInProcess(['testset', 'log', 'testsets/questions.csv'], dir);
    assert.equal(r.code, 0, r.stderr);
    const rows = logRows(r.stdout);
    assert.match(rows[0] ?? '', / {5}4 {5}\+1 {7}-0 {7}~0 {2}fixed$/);
    assert.match(rows[1] ?? '', /^[0-9a-f]{10} {2}\S+ {2}unreadable +still broken$/);
    assert.match(rows[2] ?? '', /^[0-9a-f]{10} {2}\S+ {2}unreadable +broken$/);
    const shas = git(dir, 'log', '--format=%h', '--abbrev=10', '-3').split('\n');
    assert.deepEqual(
      r.stdout.match(/expected 3 cells/g),
      ['expected 3 cells'],
      'the reason is said once',
    );
    assert.match(
      r.stdout,
      new RegExp(
        `^${shas[1]}, ${shas[2]} are unreadable: line 5: expected 3 cells \\(one per header column\\), found 2$`,
        'm',
      ),
    );
  });
});

describe('testset convert: the revision it reports', () => {
  const CSV = 'id,question,expected\r\nq1,"multi\r\nline",A\r\nq2,plain,B\r\n';

  it('is the revision the new file has, and says why it is not the input’s', async () => {
    const dir = scratch();
    writeFiles(dir, { 'qa.csv': CSV });
    const r = await runInProcess(['testset', 'convert', 'qa.csv', 'out.jsonl'], dir);
    assert.equal(r.code, 0, r.stderr);
    const [was, now] = [await revisionOf(dir, 'qa.csv'), await revisionOf(dir, 'out.jsonl')];
    assert.notEqual(was, now);
    assert.equal(
      r.stdout,
      `wrote 2 rows to out.jsonl · rows unchanged · revision ${now.slice(0, 12)}, not ${was.slice(0, 12)}: the testset id, mixed into every content id, is "out" here and "qa" for qa.csv (set testset.id: qa on the suite to keep ${was.slice(0, 12)})\n`,
    );
    assert.doesNotMatch(r.stdout, /\(unchanged\)/);
    assert.equal(r.stderr, '');
  });

  it('says unchanged when the new file keeps the revision', async () => {
    const dir = scratch();
    writeFiles(dir, { 'qa.csv': CSV });
    const r = await runInProcess(['testset', 'convert', 'qa.csv', 'json/qa.json'], dir);
    assert.equal(r.code, 0, r.stderr);
    const revision = await revisionOf(dir, 'json/qa.json');
    assert.equal(revision, await revisionOf(dir, 'qa.csv'));
    assert.equal(
      r.stdout,
      `wrote 2 rows to json/qa.json · revision ${revision.slice(0, 12)} (unchanged)\n`,
    );
  });
});
