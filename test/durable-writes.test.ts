/**
 * Files written on a disk that fills up part way. A write then takes what fits and reports no
 * error; only the next write fails. The kernel does exactly that at a process's file-size limit
 * (`ulimit -f`: the write that crosses it is cut short, the next fails with EFBIG), so the CLI
 * runs from src/ in a child process under such a limit: a real short write, with no root, mount
 * or full disk needed. Every file must then be left as it was, and the command must say so.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { repoRoot, scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

/** The file-size limit, in the 512-byte blocks of POSIX `ulimit -f`: 256 KiB. */
const LIMIT_BLOCKS = 512;
const LIMIT_BYTES = LIMIT_BLOCKS * 512;

/** Runs `evals ...args` from the sources in `dir`, no file it writes larger than the limit. */
function evalsLimited(
  args: string[],
  dir: string,
): Promise<{ code: number | null; stderr: string }> {
  const main = pathToFileURL(join(repoRoot, 'src', 'cli', 'main.ts')).href;
  writeFileSync(
    join(dir, 'evals-src.mjs'),
    `const { main } = await import(${JSON.stringify(main)});\nprocess.exitCode = await main(process.argv.slice(2));\n`,
  );
  return new Promise((resolve, reject) => {
    const node = [process.execPath, '--import', import.meta.resolve('tsx'), 'evals-src.mjs'];
    const child = spawn(
      'sh',
      ['-c', `ulimit -f ${LIMIT_BLOCKS} && exec "$@"`, 'sh', ...node, ...args],
      {
        cwd: dir,
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: '' },
      },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

/** Asserts one clean line naming `file` and the cause: no stack trace. */
function assertSaid(stderr: string, file: string): void {
  assert.match(stderr, new RegExp(`${file.replaceAll('.', '\\.')} could not be written \\(EFBIG`));
  assert.doesNotMatch(stderr, /^\s+at /m, stderr);
}

function temporaryFiles(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.endsWith('.tmp'));
}

/** A suite over `rows` stored outputs, with `comment` bytes of comment lines in evals.yaml. */
function project(rows: number, commentBytes = 0): string {
  const dir = scratch();
  const line = '# a comment that explains the suite, as configs do, long enough to add up\n';
  writeFiles(dir, {
    'evals.yaml': [
      'version: 1',
      line.repeat(Math.ceil(commentBytes / line.length)).trimEnd(),
      'suites:',
      '  - id: s',
      '    testset: { path: t.jsonl }',
      '    evaluators:',
      "      - { id: has, use: contains, with: { values: ['answer'] } }",
      '',
    ].join('\n'),
    't.jsonl': Array.from(
      { length: rows },
      (_, i) => `${JSON.stringify({ q: `q${i}`, output: `answer ${i} ${'x'.repeat(50)}` })}\n`,
    ).join(''),
  });
  return dir;
}

describe('a write cut short (the disk filled up): the file is left as it was', () => {
  it('testset pin: evals.yaml is not truncated; exit 3 and one line', async () => {
    const dir = project(3, LIMIT_BYTES + 40_000);
    const before = readFileSync(join(dir, 'evals.yaml'), 'utf8');
    assert.ok(before.length > LIMIT_BYTES);
    const r = await evalsLimited(['testset', 'pin', 'evals.yaml'], dir);
    assert.equal(r.code, 3, r.stderr);
    assertSaid(r.stderr, 'evals.yaml');
    assert.match(r.stderr, /it is unchanged, and nothing was pinned/);
    assert.equal(readFileSync(join(dir, 'evals.yaml'), 'utf8'), before);
    assert.deepEqual(temporaryFiles(dir), []);
  });

  it('override: the labels already in the store are kept whole; exit 3', async () => {
    const dir = project(2);
    assert.equal((await runInProcess(['run', '-o', 'r.json'], dir)).code, 0);
    const artifact = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as {
      runs: { cases: { id: string }[] }[];
    };
    const id = artifact.runs[0]!.cases[0]!.id;
    const override = (n: number) => [
      'override',
      'r.json',
      '--case',
      id,
      '--evaluator',
      'has',
      '--score',
      '0',
      '--reason',
      `label ${n} ${'L'.repeat(20_000)}`,
    ];
    // Labels recorded without a limit, until the store is near it.
    for (let n = 1; n <= 12; n++) assert.equal((await runInProcess(override(n), dir)).code, 0);
    const store = join(dir, 'evals-overrides.jsonl');
    const before = readFileSync(store, 'utf8');
    assert.ok(before.length > LIMIT_BYTES - 20_000 && before.length < LIMIT_BYTES);
    const r = await evalsLimited(override(13), dir);
    assert.equal(r.code, 3, r.stderr);
    assertSaid(r.stderr, 'evals-overrides.jsonl');
    assert.match(r.stderr, /nothing was recorded/);
    assert.equal(readFileSync(store, 'utf8'), before);
    assert.deepEqual(temporaryFiles(dir), []);
  });

  it('testset convert: the disk is blamed, not the data; exit 3 and no output', async () => {
    const dir = project(4000);
    const r = await evalsLimited(['testset', 'convert', 't.jsonl', 'out.json'], dir);
    assert.equal(r.code, 3, r.stderr);
    assertSaid(r.stderr, 'out.json');
    assert.doesNotMatch(r.stderr, /invalid JSON/);
    assert.deepEqual(
      readdirSync(dir).filter((name) => name.startsWith('out.json')),
      [],
    );
  });

  it('run --report: an earlier report is kept, not replaced by a cut one; exit 3', async () => {
    const dir = project(300);
    writeFileSync(join(dir, 'r.html'), '<!doctype html><p>an earlier report</p>\n');
    const r = await evalsLimited(['run', '-o', 'r.json', '--report', 'r.html'], dir);
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /the run finished but r\.html could not be written \(EFBIG/);
    assert.doesNotMatch(r.stderr, /HTML report written/);
    assert.equal(
      readFileSync(join(dir, 'r.html'), 'utf8'),
      '<!doctype html><p>an earlier report</p>\n',
    );
    // The results themselves fit, and are whole.
    const results = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as {
      runs: { cases: unknown[] }[];
    };
    assert.equal(results.runs[0]?.cases.length, 300);
    assert.deepEqual(temporaryFiles(dir), []);
  });

  it('evals report -o: an earlier report is kept; exit 3 and one line', async () => {
    const dir = project(300);
    const full = await evalsLimited(['run', '-o', 'r.json'], dir);
    assert.equal(full.code, 0, full.stderr);
    writeFileSync(join(dir, 'r.html'), '<!doctype html><p>an earlier report</p>\n');
    const r = await evalsLimited(['report', 'r.json', '-o', 'r.html'], dir);
    assert.equal(r.code, 3, r.stderr);
    assert.match(
      r.stderr,
      /^error: r\.html could not be written \(EFBIG.*; nothing was written\n$/,
    );
    assert.equal(
      readFileSync(join(dir, 'r.html'), 'utf8'),
      '<!doctype html><p>an earlier report</p>\n',
    );
    assert.deepEqual(temporaryFiles(dir), []);
  });
});
