import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { devNull } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readTestset } from '../src/testsets/read-file.ts';
import { scratch, tempFolder } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

/** `text` as UTF-16 with its byte order mark, as Excel's "Unicode text" saves it. */
function utf16(text: string, endian: 'le' | 'be' = 'le'): Buffer {
  const le = Buffer.from(`\ufeff${text}`, 'utf16le');
  return endian === 'le' ? le : le.swap16();
}

/** A scratch folder holding `files` (bytes as given). */
function folder(files: Record<string, Buffer | string>): string {
  const dir = scratch();
  for (const [name, data] of Object.entries(files)) writeFileSync(join(dir, name), data);
  return dir;
}

async function problems(dir: string, name: string): Promise<string[]> {
  const read = await readTestset({ absPath: join(dir, name), displayPath: name });
  assert.equal(read.ok, false, `${name} should be refused`);
  return read.ok ? [] : read.issues.map((i) => `${i.line}:${i.col} ${i.message}`);
}

describe('testset files that are not UTF-8', () => {
  it('refuses a UTF-16 CSV by its byte order mark (testset show, exit 2)', async () => {
    const dir = folder({ 'u16.csv': utf16('q,expected\nhello,world\n') });
    const result = await runInProcess(['testset', 'show', 'u16.csv'], dir);
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /u16\.csv is UTF-16 \(it starts with the UTF-16 byte order mark\): save it as UTF-8/,
    );
    assert.doesNotMatch(result.stderr, /expected 2 cells/);
  });

  it('refuses a UTF-16 testset without a final newline before its templates are checked', async () => {
    const dir = folder({
      'cases.csv': utf16('q,expected\nhello,world', 'be'),
      'evals.yaml': [
        'version: 1',
        'suites:',
        '  - id: s',
        '    testset: { path: cases.csv }',
        '    target: { type: command, run: [echo, "{{ case.q }}"] }',
        '    evaluators: [{ use: is-equals, with: { expected: "{{ case.expected }}" } }]',
        '',
      ].join('\n'),
    });
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /cases\.csv is UTF-16 .*: save it as UTF-8/);
    assert.doesNotMatch(result.stderr, /\\u0000|\\ufffd/);
  });

  it('refuses UTF-32 (JSON Lines) and NUL bytes with no byte order mark (JSON)', async () => {
    const u32 = Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), Buffer.from('{"q":1}\n')]);
    const dir = folder({
      'u32.jsonl': u32,
      'bare.json': Buffer.from('[{"q":"a"}]', 'utf16le'),
    });
    assert.deepEqual(await problems(dir, 'u32.jsonl'), [
      '0:0 u32.jsonl is UTF-32 (it starts with the UTF-32 byte order mark): save it as UTF-8',
    ]);
    const [nul] = await problems(dir, 'bare.json');
    assert.match(
      nul ?? '',
      /^0:0 bare\.json is not UTF-8 text: it holds NUL bytes .*save it as UTF-8$/,
    );
  });

  it('refuses bytes that are not UTF-8 at the line and column of the first bad one', async () => {
    const dir = folder({
      'cell.csv': Buffer.concat([
        Buffer.from('q,expected\nhi,ok\nab\u00e9'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('cd,x\n'),
      ]),
      'end.jsonl': Buffer.concat([
        Buffer.from('{"q":"a"}\n{"q":"\u20ac'),
        Buffer.from([0xe2, 0x82]),
      ]),
      'one.json': Buffer.concat([
        Buffer.from('[\n  {"q": "'),
        Buffer.from([0xc0, 0xaf]),
        Buffer.from('"}]'),
      ]),
    });
    // `ab` then `é` (two bytes, one column) then 0xff: column 4 of line 3.
    assert.deepEqual(await problems(dir, 'cell.csv'), [
      '3:4 not valid UTF-8 at line 3, column 4: save it as UTF-8',
    ]);
    // A character cut off at the end of the file, after a whole `€`.
    assert.deepEqual(await problems(dir, 'end.jsonl'), [
      '2:8 not valid UTF-8 at line 2, column 8: save it as UTF-8',
    ]);
    // An overlong form (0xc0 0xaf for `/`) is not UTF-8 either.
    assert.deepEqual(await problems(dir, 'one.json'), [
      '2:10 not valid UTF-8 at line 2, column 10: save it as UTF-8',
    ]);
  });

  it('keeps a character split between read chunks, and counts lines across chunks', async () => {
    // Past the first 64 KiB read: `é` straddles the chunk boundary, a bad byte comes later.
    let text = 'q,expected\n';
    let line = 1;
    while (Buffer.byteLength(text) < 65535 - 20) {
      text += `row${line},x\n`;
      line++;
    }
    const head = Buffer.from(text);
    const pad = Buffer.from('y'.repeat(65535 - head.length));
    const split = Buffer.from('\u00e9'); // bytes 65535 and 65536
    const rest = Buffer.concat([
      Buffer.from(',x\n'),
      Buffer.from('r2,\u00e9\u00e9'),
      Buffer.from([0x80]),
      Buffer.from('z\n'),
    ]);
    const dir = folder({ 'big.csv': Buffer.concat([head, pad, split, rest]) });
    assert.equal(head.length + pad.length, 65535);
    assert.deepEqual(await problems(dir, 'big.csv'), [
      `${line + 2}:6 not valid UTF-8 at line ${line + 2}, column 6: save it as UTF-8`,
    ]);
  });

  it('checks a testset read at a git revision the same way', async () => {
    const repo = tempFolder('evalgate-enc-');
    const git = (args: string[]): void => {
      execFileSync('git', args, {
        cwd: repo,
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 't',
          GIT_AUTHOR_EMAIL: 't@example.com',
          GIT_COMMITTER_NAME: 't',
          GIT_COMMITTER_EMAIL: 't@example.com',
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_CONFIG_GLOBAL: devNull,
        },
      });
    };
    git(['init', '-q', '-b', 'main']);
    writeFileSync(join(repo, 'a.csv'), Buffer.from('q\nok\nx\xffy\n', 'latin1'));
    writeFileSync(join(repo, 'b.csv'), utf16('q\nok\n'));
    git(['add', '-A']);
    git(['commit', '-qm', 'v1']);
    writeFileSync(join(repo, 'a.csv'), 'q\nfixed\n');
    const read = await readTestset({
      absPath: join(repo, 'a.csv'),
      displayPath: 'a.csv',
      ref: 'main',
    });
    assert.equal(read.ok, false);
    assert.deepEqual(read.ok ? [] : read.issues.map((i) => [i.file, i.line, i.col, i.message]), [
      ['a.csv@main', 3, 2, 'not valid UTF-8 at line 3, column 2: save it as UTF-8'],
    ]);
    const shown = await runInProcess(['testset', 'show', 'b.csv@main'], repo);
    assert.equal(shown.code, 2);
    assert.match(
      shown.stderr,
      /b\.csv@main is UTF-16 \(it starts with the UTF-16 byte order mark\)/,
    );
  });
});
