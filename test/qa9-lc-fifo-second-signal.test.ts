/**
 * QA #1: a second Ctrl-C while `--junit` or `--report` waits on a FIFO that nothing reads. The
 * run says it quits, and it must: exit 130 with no reader ever coming. Before, the FIFO was
 * opened with a blocking `open`, which held a thread of libuv's pool, and `process.exit` waited
 * for that thread for good. The CLI runs from src/ in a child process (killed after 60 s, so a
 * hang fails the test); a real FIFO made by `mkfifo`.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { lstatSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import type { ResultsArtifact } from '../src/types/index.ts';
import { repoRoot, runNode, scratch } from './helpers/cli.ts';
import { evalsFromSources as evals } from './helpers/evals-from-sources.ts';
import { signalTwiceAfterResults } from './helpers/signals.ts';
import { suiteProject } from './helpers/suite-project.ts';

/** Three passing cases, and a FIFO `name` that no process ever reads. */
function project(name: string): string {
  const dir = suiteProject([
    'testset: { cases: [{ q: a0 }, { q: a1 }, { q: a2 }] }',
    'function: ./fn.mjs#fn',
    'evaluators:',
    '  - { use: contains, with: { values: [a] } }',
  ]);
  writeFileSync(join(dir, 'fn.mjs'), 'export const fn = ({ testCase }) => testCase.q;\n');
  execFileSync('mkfifo', [join(dir, name)]);
  return dir;
}

describe('a second Ctrl-C while a report waits on a FIFO nothing reads', () => {
  it('--junit: the process exits 130 with the documented line, no reader needed', async () => {
    const dir = project('junit.xml');
    const r = await evals(['run', '-o', 'out.json', '--junit', 'junit.xml'], dir, (child) =>
      signalTwiceAfterResults(child),
    );
    assert.equal(r.signal, null, `killed (it hung): ${r.stderr}`);
    assert.equal(r.code, 130, r.stderr);
    assert.match(
      r.stderr,
      /quit at the second signal; the results are written to out\.json; not written: junit\.xml \(--junit\); make the JUnit report from them with: evals report out\.json --junit junit\.xml\n/,
    );
    const artifact = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as ResultsArtifact;
    assert.equal(artifact.runs[0]?.cases.length, 3);
    assert.ok(lstatSync(join(dir, 'junit.xml')).isFIFO(), 'still a FIFO');
  });
});

describe('the writer waiting for a FIFO reader', () => {
  // With one thread in libuv's pool, a blocking open of the FIFO held it: the file read after
  // it never ran, and the reader that the script opens only after that read never came.
  it('waits on the event loop, leaving the thread pool free, and writes once a reader comes', async () => {
    const dir = scratch();
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    writeFileSync(join(dir, 'other.txt'), 'other file\n');
    const writer = pathToFileURL(join(repoRoot, 'src', 'shared', 'write-file-atomic.ts')).href;
    writeFileSync(
      join(dir, 'script.mjs'),
      `import { closeSync, constants, openSync, readSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
const { writeFileAtomic } = await import(${JSON.stringify(writer)});
const text = 'line\\n'.repeat(1000);
const writing = writeFileAtomic('fifo', text);
process.stdout.write('read: ' + (await readFile('other.txt', 'utf8')));
const reader = openSync('fifo', constants.O_RDONLY | constants.O_NONBLOCK);
await writing;
const buffer = Buffer.alloc(text.length + 1);
const got = readSync(reader, buffer);
closeSync(reader);
process.stdout.write('fifo: ' + (buffer.toString('utf8', 0, got) === text ? 'whole' : 'wrong ' + got) + '\\n');
`,
    );
    const r = await runNode(['--import', import.meta.resolve('tsx'), 'script.mjs'], {
      cwd: dir,
      env: { UV_THREADPOOL_SIZE: '1' },
      timeoutMs: 30_000,
    });
    assert.equal(r.signal, null, `killed (it hung): ${r.stdout}${r.stderr}`);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'read: other file\nfifo: whole\n');
    assert.ok(lstatSync(join(dir, 'fifo')).isFIFO(), 'still a FIFO');
  });
});
