/**
 * Output paths that are not regular files: a symbolic link is followed (the link stays, its
 * target gets the content), a character device or a FIFO is written into, a block device or a
 * socket is refused before anything runs. The old writer renamed a temporary file onto every
 * output, replacing links, device nodes and FIFOs with regular files.
 *
 * Devices are made with `mknod` in scratch folders (the tests run as root): `c 1 3` is a null
 * device, and `b 7 240` a block node nothing opens. No test names a real system path.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import {
  closeSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { writeAtomicallySync, writeFileAtomic } from '../src/shared/write-file-atomic.ts';
import { writeInterrupted } from './helpers/interrupted-artifact.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';
import { readArtifact } from './helpers/read-artifact.ts';
import { tempFolder } from './helpers/cli.ts';

/** Four recorded outputs, all passing: a run exits 0. */
const ROWS = ['a', 'b', 'c', 'd'].map((q) => ({ q, output: 'x' }));

/** How long a FIFO's reader waits for the whole output before the test gives up on it. */
const FIFO_TIMEOUT_MS = 15_000;

function project(): string {
  return jsonlProject(ROWS, [
    'evaluators:',
    '  - { id: ok, use: is-equals, with: { expected: "x" } }',
  ]);
}

/** A null device (`mknod c 1 3`) at `dir/name`. */
function nullDevice(dir: string, name: string): string {
  const path = join(dir, name);
  execFileSync('mknod', [path, 'c', '1', '3']);
  return path;
}

/**
 * A FIFO at `dir/name`, read to its end by a child `cat` (a child, since the artifact writer
 * writes synchronously: a reader in this process could not run meanwhile). Resolves with what
 * was read. Bounded: after FIFO_TIMEOUT_MS the reader is killed, and a writer still waiting for
 * a reader is let go (opening the FIFO for reading without blocking ends its wait).
 */
function fifoRead(dir: string, name: string): { path: string; text: Promise<string> } {
  const path = join(dir, name);
  execFileSync('mkfifo', [path]);
  // The reader's copy lives outside `dir`, which must hold nothing but what the command wrote.
  const copy = join(tempFolder('evalgate-fifo-'), 'read');
  const out = openSync(copy, 'w');
  const cat = spawn('cat', [path], { stdio: ['ignore', out, 'ignore'] });
  closeSync(out);
  const text = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      cat.kill('SIGKILL');
      closeSync(openSync(path, constants.O_RDONLY | constants.O_NONBLOCK));
    }, FIFO_TIMEOUT_MS);
    cat.on('error', reject);
    cat.on('close', () => {
      clearTimeout(timer);
      resolve(readFileSync(copy, 'utf8'));
    });
  });
  return { path, text };
}

/** A socket listening at `dir/name`; close it after the test. */
async function socketAt(dir: string, name: string): Promise<{ path: string; server: Server }> {
  const path = join(dir, name);
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return { path, server };
}

/** The writer's temporary files are `NAME.PID.HEX.tmp`: none may be left anywhere under `dir`. */
function assertNoTemporaryFiles(dir: string): void {
  const left = readdirSync(dir, { recursive: true }).filter((name) =>
    String(name).endsWith('.tmp'),
  );
  assert.deepEqual(left, [], 'no temporary file is left behind');
}

function assertLink(path: string, to: string): void {
  assert.ok(lstatSync(path).isSymbolicLink(), `${path} is still a symbolic link`);
  assert.equal(readlinkSync(path), to);
}

function caseCount(path: string): number {
  return readArtifact(path).runs.reduce((sum, run) => sum + run.cases.length, 0);
}

describe('outputs through symbolic links', () => {
  // Old: the rename replaced each link with a regular file, and the targets kept their old text.
  it('run -o and --report write the targets of their links, and the links stay links', async () => {
    const dir = project();
    writeFileSync(join(dir, 'target.json'), 'stale');
    writeFileSync(join(dir, 'target.html'), 'stale');
    symlinkSync('target.json', join(dir, 'link.json'));
    symlinkSync('target.html', join(dir, 'link.html'));
    const r = await runInProcess(['run', '-o', 'link.json', '--report', 'link.html'], dir);
    assert.equal(r.code, 0, r.stderr);
    assertLink(join(dir, 'link.json'), 'target.json');
    assertLink(join(dir, 'link.html'), 'target.html');
    assert.equal(caseCount(join(dir, 'target.json')), ROWS.length);
    assert.match(readFileSync(join(dir, 'target.html'), 'utf8'), /<html/i);
    assertNoTemporaryFiles(dir);
  });

  // Old: the dangling link was replaced by a regular file, and the one into a missing folder too
  // (its own folder existed), so both runs wrote and exited 0.
  it('run -o a dangling link creates its target; one into a missing folder is refused', async () => {
    const dir = project();
    symlinkSync('made.json', join(dir, 'dangling.json'));
    const made = await runInProcess(['run', '-o', 'dangling.json'], dir);
    assert.equal(made.code, 0, made.stderr);
    assertLink(join(dir, 'dangling.json'), 'made.json');
    assert.equal(caseCount(join(dir, 'made.json')), ROWS.length);

    symlinkSync('gone/x.json', join(dir, 'nowhere.json'));
    const refused = await runInProcess(['run', '-o', 'nowhere.json'], dir);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(
      refused.stderr,
      /-o nowhere\.json: is a symbolic link to \S+gone\/x\.json, whose folder does not exist, so the results could not be written; nothing was run/,
    );
    assertLink(join(dir, 'nowhere.json'), 'gone/x.json');
    assert.equal(existsSync(join(dir, 'gone')), false);
    assertNoTemporaryFiles(dir);

    // A dangling link as a folder on the way: refused before the run, not after it.
    symlinkSync('no-folder', join(dir, 'out'));
    const under = await runInProcess(['run', '-o', 'out/r.json'], dir);
    assert.equal(under.code, 2, under.stderr);
    assert.match(under.stderr, /out is a symbolic link to a folder that does not exist/);
    assertNoTemporaryFiles(dir);
  });

  // Old: only the paths as given were compared, so both outputs ran and one overwrote the other.
  it('refuses two outputs that are one file through a link, existing or not', async () => {
    const dir = project();
    writeFileSync(join(dir, 'results.json'), 'kept');
    symlinkSync('results.json', join(dir, 'alias.json'));
    symlinkSync('new.json', join(dir, 'to-new.json'));
    mkdirSync(join(dir, 'real'));
    symlinkSync('real', join(dir, 'via'));
    for (const [output, junit] of [
      ['results.json', 'alias.json'],
      ['new.json', 'to-new.json'],
      ['real/x.json', 'via/x.json'],
    ] as const) {
      const r = await runInProcess(['run', '-o', output, '--junit', junit], dir);
      assert.equal(r.code, 2, r.stderr);
      const quoted = (path: string): string => path.replace(/\./g, '\\.');
      assert.match(
        r.stderr,
        new RegExp(`--junit ${quoted(junit)}: the same file as -o ${quoted(output)}`),
      );
    }
    assert.equal(readFileSync(join(dir, 'results.json'), 'utf8'), 'kept');
    assert.equal(existsSync(join(dir, 'new.json')), false);
  });

  // Old: the resumed artifact replaced the link, and the partial it points to stayed interrupted.
  it('resumes a partial named through a link and writes the whole run at its target', async () => {
    const dir = project();
    const full = await runInProcess(['run', '-o', 'full.json'], dir);
    assert.equal(full.code, 0, full.stderr);
    writeInterrupted(dir, 'full.json', 'partial.json', 2);
    symlinkSync('partial.json', join(dir, 'last.json'));
    const r = await runInProcess(['run', '--resume', 'last.json'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /the combined results will replace last\.json/);
    assertLink(join(dir, 'last.json'), 'partial.json');
    const resumed = readArtifact(join(dir, 'partial.json'));
    assert.equal(resumed.interrupted, false);
    assert.equal(caseCount(join(dir, 'partial.json')), ROWS.length);
    assertNoTemporaryFiles(dir);
  });
});

describe('outputs into character devices and FIFOs', () => {
  // Old: -o and --junit on one path were refused as one file; one at a time, each became a
  // regular file in place of the device.
  it('run -o, --junit and --report into one null device leave it a device', async () => {
    const dir = project();
    const device = nullDevice(dir, 'null');
    const r = await runInProcess(['run', '-o', 'null', '--junit', 'null', '--report', 'null'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(lstatSync(device).isCharacterDevice(), 'still a character device');
    assertNoTemporaryFiles(dir);
  });

  // Old: the FIFO was replaced by a regular file, so `cat` never got a writer: nothing read.
  it('run --junit into a FIFO streams the report to its reader', async () => {
    const dir = project();
    const fifo = fifoRead(dir, 'junit.xml');
    const r = await runInProcess(['run', '-o', 'results.json', '--junit', 'junit.xml'], dir);
    assert.equal(r.code, 0, r.stderr);
    const xml = await fifo.text;
    assert.match(xml, /^<\?xml/);
    assert.equal(xml.match(/<testcase /g)?.length, ROWS.length);
    assert.ok(lstatSync(fifo.path).isFIFO(), 'still a FIFO');
    assertNoTemporaryFiles(dir);
  });

  // The HTML report is the largest output (the viewer's code is inlined): it must reach a
  // reader whole, through a pipe's 64 KiB buffer, with the FIFO left a FIFO.
  it('run --report into a FIFO streams the whole HTML report to its reader', async () => {
    const dir = project();
    const fifo = fifoRead(dir, 'report.html');
    const r = await runInProcess(['run', '-o', 'results.json', '--report', 'report.html'], dir);
    assert.equal(r.code, 0, r.stderr);
    const html = await fifo.text;
    assert.match(html, /^<!doctype html>/);
    assert.ok(html.length > 64 * 1024, `more than a pipe buffer: ${html.length} characters`);
    assert.match(html, /<\/html>\s*$/, 'the end of the page reached the reader');
    assert.ok(lstatSync(fifo.path).isFIFO(), 'still a FIFO');
    assertNoTemporaryFiles(dir);
  });

  // Old: the report replaced the device node with a regular file.
  it('report -o into a null device leaves it a device', async () => {
    const dir = project();
    const run = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(run.code, 0, run.stderr);
    const device = nullDevice(dir, 'null');
    const r = await runInProcess(['report', 'results.json', '-o', 'null'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(lstatSync(device).isCharacterDevice(), 'still a character device');
    assertNoTemporaryFiles(dir);
  });

  // Old: the merged artifact replaced the FIFO, and its reader never got a writer.
  it('merge -o into a FIFO streams the merged artifact to its reader', async () => {
    const dir = project();
    for (const shard of ['1', '2']) {
      const r = await runInProcess(['run', '--shard', `${shard}/2`, '-o', `s${shard}.json`], dir);
      assert.equal(r.code, 0, r.stderr);
    }
    const fifo = fifoRead(dir, 'merged.json');
    const r = await runInProcess(['merge', 's1.json', 's2.json', '-o', 'merged.json'], dir);
    assert.equal(r.code, 0, r.stderr);
    const merged = JSON.parse(await fifo.text) as { runs: { cases: unknown[] }[] };
    assert.equal(
      merged.runs.reduce((sum, run) => sum + run.cases.length, 0),
      ROWS.length,
    );
    assert.ok(lstatSync(fifo.path).isFIFO(), 'still a FIFO');
    assertNoTemporaryFiles(dir);
  });
});

describe('outputs that cannot be written', () => {
  // Old: nothing was refused; each run wrote and renamed its file over the node.
  it('refuses a block device or a socket before anything runs, and leaves it as it was', async () => {
    const dir = project();
    const block = join(dir, 'block');
    execFileSync('mknod', [block, 'b', '7', '240']);
    const socket = await socketAt(dir, 'sock');
    try {
      for (const [flag, name, kind, isKind] of [
        ['-o', 'block', 'a block device', () => lstatSync(block).isBlockDevice()],
        ['--junit', 'sock', 'a socket', () => lstatSync(socket.path).isSocket()],
        ['--report', 'sock', 'a socket', () => lstatSync(socket.path).isSocket()],
      ] as const) {
        const args = flag === '-o' ? ['-o', name] : ['-o', 'results.json', flag, name];
        const r = await runInProcess(['run', ...args], dir);
        assert.equal(r.code, 2, r.stderr);
        assert.equal(
          r.stderr.trim().split('\n').at(-1),
          `error: ${flag} ${name}: is ${kind}, not a file (name a regular file, a FIFO or a character device), so ${{ '-o': 'the results', '--junit': 'the JUnit report', '--report': 'the HTML report' }[flag]} could not be written; nothing was run`,
        );
        assert.ok(isKind(), `${name} is still ${kind}`);
        assert.equal(existsSync(join(dir, 'results.json')), false, 'nothing ran');
      }
      const report = await runInProcess(['report', 'rows.jsonl', '-o', 'block'], dir);
      assert.equal(report.code, 2, report.stderr);
      assert.match(report.stderr, /-o block: is a block device, .*so the report was not written/);
      const merge = await runInProcess(['merge', 'rows.jsonl', '-o', 'sock'], dir);
      assert.equal(merge.code, 2, merge.stderr);
      assert.match(merge.stderr, /-o sock: is a socket, .*so nothing was merged/);
    } finally {
      await new Promise((resolve) => socket.server.close(resolve));
    }
    assertNoTemporaryFiles(dir);
  });
});

describe('the writer itself, on descriptors and unread FIFOs', () => {
  it('appends through /proc/self/fd/N to the file behind it (a `>> log`), keeping what it held', async () => {
    const dir = tempFolder('evalgate-fd-');
    const log = join(dir, 'log.txt');
    writeFileSync(log, 'earlier lines\n');
    const fd = openSync(log, constants.O_WRONLY | constants.O_APPEND);
    try {
      await writeFileAtomic(`/proc/self/fd/${fd}`, 'the results\n');
    } finally {
      closeSync(fd);
    }
    assert.equal(readFileSync(log, 'utf8'), 'earlier lines\nthe results\n');
    assert.deepEqual(readdirSync(dir), ['log.txt'], 'no temporary file, no replaced file');
  });

  it('refuses at once, rather than hang, a synchronous write into a FIFO that nothing reads', () => {
    const dir = tempFolder('evalgate-fifo-');
    const path = join(dir, 'unread');
    execFileSync('mkfifo', [path]);
    assert.throws(
      () => writeAtomicallySync(path, () => undefined),
      /is a FIFO that nothing reads; nothing was written/,
    );
    assert.ok(lstatSync(path).isFIFO(), 'still a FIFO');
  });
});
