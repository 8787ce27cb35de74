/**
 * The case spool's folder fails mid-run, for real: the run's own case function removes it
 * before the spool first writes to it (`TMPDIR`, where a run with no recovery journal spools,
 * as one writing to /dev/stdout; the journal's folder beside -o otherwise). The run must say which folder failed and
 * why, in one line with no stack trace, keep every finished case, write its whole artifact and
 * exit with its verdict. And under a file-size limit (`ulimit -f`, as a full disk: the write that
 * crosses it fails with EFBIG), where neither the spool nor the artifact fits: one warning, one
 * error naming -o and the cause, exit 3, no stack trace. The CLI runs from src/ in a child process.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import type { ResultsArtifact } from '../src/types/index.ts';
import { repoRoot, runNode, scratch, writeFiles, type CliResult } from './helpers/cli.ts';

/** Cases in the suite: their lines fill several 64 KB spool batches. */
const CASES = 300;

function evals(args: string[], dir: string, env: Record<string, string>): Promise<CliResult> {
  const main = pathToFileURL(join(repoRoot, 'src', 'cli', 'main.ts')).href;
  writeFileSync(
    join(dir, 'evals-src.mjs'),
    `const { main } = await import(${JSON.stringify(main)});\nprocess.exitCode = await main(process.argv.slice(2));\n`,
  );
  return runNode(['--import', import.meta.resolve('tsx'), 'evals-src.mjs', ...args], {
    cwd: dir,
    timeoutMs: 120_000,
    env,
  });
}

/** `evals ...args` under `ulimit -f blocks` (512-byte blocks), with `TMPDIR` set. */
function evalsLimited(
  args: string[],
  dir: string,
  tmp: string,
  blocks: number,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const node = [process.execPath, '--import', import.meta.resolve('tsx'), 'evals-src.mjs'];
    const child = spawn('sh', ['-c', `ulimit -f ${blocks} && exec "$@"`, 'sh', ...node, ...args], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: '', TMPDIR: tmp },
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

/** A suite whose case `a5` removes folder GONE (the temporary folder by default); every output is ~1 KB. */
function project(): { dir: string; tmp: string } {
  const dir = scratch();
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp);
  writeFiles(dir, {
    'evals.yaml': [
      'version: 1',
      'suites:',
      '  - id: s',
      `    testset: { cases: [${Array.from({ length: CASES }, (_, i) => `{ q: a${i} }`).join(', ')}] }`,
      '    function: ./fn.mjs#fn',
      '    concurrency: 1',
      '    evaluators:',
      '      - { use: contains, with: { values: [a] } }',
      '',
    ].join('\n'),
    'fn.mjs': `import { rmSync } from 'node:fs';
export async function fn({ testCase }) {
  if (testCase.q === 'a5') rmSync(process.env.GONE ? process.env.GONE + '.' + process.pid + '.d' : process.env.TMPDIR, { recursive: true, force: true });
  return testCase.q + ' ' + 'x'.repeat(1000);
}
`,
  });
  return { dir, tmp };
}

/** The same suite, with no case removing anything: only the size limit fails writes. */
function limitedProject(): { dir: string; tmp: string } {
  const made = project();
  writeFiles(made.dir, {
    'fn.mjs': `export async function fn({ testCase }) {\n  return testCase.q + ' ' + 'x'.repeat(1000);\n}\n`,
  });
  writeFileSync(
    join(made.dir, 'evals-src.mjs'),
    `const { main } = await import(${JSON.stringify(pathToFileURL(join(repoRoot, 'src', 'cli', 'main.ts')).href)});\nprocess.exitCode = await main(process.argv.slice(2));\n`,
  );
  return made;
}

/** Every case is in `artifact`, whole, and in the JUnit report beside it. */
function everyCase(artifact: ResultsArtifact, dir: string): void {
  assert.equal(artifact.interrupted, false);
  assert.equal(artifact.verdict, 'pass');
  const cases = artifact.runs[0]?.cases ?? [];
  assert.equal(cases.length, CASES);
  // The JUnit file reads the cases back one by one, from the spool's file and memory alike.
  const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
  assert.equal(junit.match(/<testcase /g)?.length, CASES);
  for (const [i, c] of cases.entries()) {
    assert.equal((c as { output?: unknown }).output, `a${i} ${'x'.repeat(1000)}`);
  }
}

describe('the spool folder fails mid-run', () => {
  it('one warning naming the folder and the cause; the artifact holds every case', async () => {
    const { dir, tmp } = project();
    // To /dev/null: no recovery journal, so the spool is in the temporary folder; the JUnit
    // report reads every case back from it.
    const r = await evals(['run', '-o', '/dev/null', '--junit', 'junit.xml'], dir, {
      TMPDIR: tmp,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /^\s+at /m, 'no stack trace');
    const warnings = r.stderr.split('\n').filter((line) => line.includes('case spool'));
    assert.equal(warnings.length, 1, r.stderr);
    assert.match(
      warnings[0] ?? '',
      new RegExp(
        `^warning: the case spool in ${tmp.replaceAll('/', '\\/')} could not be written \\(ENOENT: .*\\); the run goes on with its finished cases kept in memory`,
      ),
    );
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    assert.equal(junit.match(/<testcase /g)?.length, CASES);
    assert.equal(junit.match(/<failure/g), null, 'every case passed: its output was kept whole');
  });

  it('beside a recovery journal: the warning names its folder and says a kill -9 would lose cases', async () => {
    const { dir, tmp } = project();
    const journal = join(dir, '.out.json.journal');
    // The function removes the journal's folder, named by the run's process: JOURNAL.PID.d.
    const r = await evals(['run', '-o', 'out.json', '--junit', 'junit.xml'], dir, {
      TMPDIR: tmp,
      GONE: journal,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /^\s+at /m, 'no stack trace');
    const warnings = r.stderr.split('\n').filter((line) => line.includes('case spool'));
    assert.equal(warnings.length, 1, r.stderr);
    const named =
      /^warning: the case spool beside the recovery journal \((\S+)\) could not be written \(ENOENT: /.exec(
        warnings[0] ?? '',
      );
    assert.match(named?.[1] ?? '', /\.out\.json\.journal\.\d+\.d$/, r.stderr);
    assert.ok(named?.[1]?.startsWith(`${journal}.`), r.stderr);
    assert.match(warnings[0] ?? '', /a kill -9 from now on would lose those/);
    everyCase(JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as ResultsArtifact, dir);
    assert.deepEqual(
      readdirSync(tmp).filter((name) => name.startsWith('evalgate-')),
      [],
      'nothing spooled in the temporary folder',
    );
    assert.ok(!existsSync(journal), 'the journal is gone');
  });

  it('under a file-size limit: a warning, then one error naming -o and the cause; exit 3', async () => {
    const { dir, tmp } = limitedProject();
    // 128 KiB: a run's spool (300 cases of ~1 KB) and its artifact both cross it.
    const r = await evalsLimited(['run', '-o', 'out.json'], dir, tmp, 256);
    assert.equal(r.code, 3, r.stderr);
    assert.doesNotMatch(r.stderr, /^\s+at /m, 'no stack trace');
    assert.match(
      r.stderr,
      /^warning: the case spool beside the recovery journal \(\S+\.out\.json\.journal\.\d+\.d\) could not be written \(EFBIG: [^)]*\)/m,
    );
    assert.match(r.stderr, /^error: the run finished but out\.json could not be written \(EFBIG/m);
  });
});
