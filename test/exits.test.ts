/**
 * Every way `evals run` can end says what happened, and keeps what it can (issue 22): run on the
 * built CLI as a child process, against projects written to scratch folders.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { validateArtifact } from '../src/artifact/schema.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { functionProject, runCli, writeFiles } from './helpers/cli.ts';

/** A project whose suite `s` runs `fn.ts#fn` (given as its source) over rows n = 1..`rows`. */
function project(fn: string, settings: string[] = [], rows = 4): string {
  return functionProject({ 'fn.ts': fn }, settings, rows);
}

function readArtifact(path: string): ResultsArtifact {
  const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
  assert.deepEqual(validateArtifact(value), [], 'the artifact matches the schema');
  return value as ResultsArtifact;
}

const noStack = (text: string): void => assert.doesNotMatch(text, /\n\s+at /, 'no stack trace');

describe('evals run: endings the run did not choose', () => {
  it('process.exit(0) in user code exits 1, names the case and writes the partial artifact', async () => {
    const dir = project(
      `export function fn({ testCase }: { testCase: { n: string } }): string {
  if (testCase.n === '3') process.exit(0);
  return 'x';
}
`,
      ['concurrency: 1'],
    );
    const r = await runCli(['run', '-o', 'r.json'], { cwd: dir });
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stderr,
      /ended \(exit code 0\) from inside the run, by user code of case "[0-9a-f]+" of suite "s" \(rows\.csv:4\)/,
    );
    assert.match(r.stderr, /partial artifact is written to r\.json/);
    noStack(r.stderr);
    const artifact = readArtifact(join(dir, 'r.json'));
    assert.equal(artifact.interrupted, true);
    assert.equal(artifact.verdict, 'fail');
    const culprit = artifact.runs[0]!.cases.find((c) => c.source?.line === 4);
    assert.match(culprit?.error ?? '', /the process exited \(exit code 0\) while this case ran/);
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.endsWith('.tmp')),
      [],
      'no temporary file',
    );
  });

  it('process.exit with other cases in flight: only the culprit is errored, --resume runs the rest', async () => {
    // Row 1 waits on a timer that the exit of row 2 cuts short; rows 3 and 4 never start. The
    // exit is synchronous in row 2's call, so the run knows whose code it was.
    const dir = project(
      `export async function fn({ testCase }: { testCase: { n: string } }): Promise<string> {
  if (testCase.n === '2' && !process.env.FIXED) process.exit(0);
  if (testCase.n === '1') await new Promise((resolve) => setTimeout(resolve, 2000));
  return 'x';
}
`,
      ['concurrency: 2'],
    );
    const r = await runCli(['run', '-o', 'r.json'], { cwd: dir });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /by user code of case "[0-9a-f]+" of suite "s" \(rows\.csv:3\)/);
    assert.match(
      r.stderr,
      /the 1 other case\(s\) in flight did not finish and are left for --resume/,
    );
    assert.match(r.stderr, /to finish it: evals run --resume r\.json/);
    noStack(r.stderr);
    const partial = readArtifact(join(dir, 'r.json'));
    assert.equal(partial.interrupted, true);
    assert.deepEqual(
      partial.runs[0]!.cases.map((c) => [c.source?.line, c.error !== undefined]),
      [[3, true]],
      'the culprit alone, errored',
    );

    const resumed = await runCli(['run', '-o', 'r.json', '--resume', 'r.json'], {
      cwd: dir,
      env: { FIXED: '1' },
    });
    assert.equal(resumed.code, 1, resumed.stderr);
    const whole = readArtifact(join(dir, 'r.json'));
    assert.equal(whole.interrupted, false);
    assert.deepEqual(
      whole.runs[0]!.cases.map((c) => [c.source?.line, c.passed]),
      [
        [2, true],
        [3, false],
        [4, true],
        [5, true],
      ],
      'the case left in flight ran on resume; the culprit kept its error',
    );
  });

  it('a promise that never settles (timeout: none) is errored, the artifact written, exit 1', async () => {
    const dir = project(
      `export function fn({ testCase }: { testCase: { n: string } }): unknown {
  return testCase.n === '2' ? new Promise(() => {}) : 'x';
}
`,
      ['timeout: none'],
    );
    const r = await runCli(['run', '-o', 'r.json'], { cwd: dir });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /1 call\(s\) of user code never settled/);
    noStack(r.stderr);
    const artifact = readArtifact(join(dir, 'r.json'));
    assert.equal(artifact.interrupted, false);
    const cases = artifact.runs[0]!.cases;
    assert.equal(cases.length, 4, 'the run went on');
    assert.deepEqual(
      cases.map((c) => [c.passed, c.error?.slice(0, 13) ?? null]),
      [
        [true, null],
        [false, 'never settled'],
        [true, null],
        [true, null],
      ],
    );
  });

  it('an output that throws while written as JSON errors its case; the rest pass', async () => {
    const dir = project(`export function fn({ testCase }: { testCase: { n: string } }): unknown {
  if (testCase.n === '1') return { toJSON() { throw new Error('no JSON'); } };
  return 'x';
}
`);
    const r = await runCli(['run', '-o', 'r.json'], { cwd: dir });
    assert.equal(r.code, 1, r.stderr);
    noStack(r.stderr + r.stdout);
    const cases = readArtifact(join(dir, 'r.json')).runs[0]!.cases;
    assert.match(cases[0]!.error ?? '', /cannot be written as JSON \(output: no JSON\)/);
    assert.deepEqual(
      cases.slice(1).map((c) => c.passed),
      [true, true, true],
    );
  });
});

describe('evals run: a module that never finishes loading', () => {
  it('names the module and exits 2 (a problem of the code the config names), instead of Node’s silent exit 13', async () => {
    const dir = project(`await new Promise(() => {});\nexport const fn = (): string => 'x';\n`);
    // Top-level await needs the module to be ESM: a project that says so, as such projects do.
    writeFiles(dir, { 'package.json': '{ "type": "module" }\n' });
    const r = await runCli(['run', '-o', 'r.json'], { cwd: dir });
    assert.equal(r.code, 2, r.stderr);
    // One line: the exit that follows is not explained a second time.
    assert.equal(
      r.stderr,
      'error: evals stopped before it finished: fn.ts never finished loading (a top-level await that can never settle), with nothing else left to run\n',
    );
  });

  it('Ctrl-C while it loads says what it waits on; a second quits with 130 and nothing written', async () => {
    // A timer keeps the event loop busy, so only the signals can end the wait.
    const dir = project(
      `import { writeFileSync } from 'node:fs';\nwriteFileSync('loading', '');\nsetInterval(() => {}, 1000);\nawait new Promise(() => {});\nexport const fn = (): string => 'x';\n`,
    );
    writeFiles(dir, { 'package.json': '{ "type": "module" }\n' });
    let stderr = '';
    const r = await runCli(['run', '-o', 'r.json'], {
      cwd: dir,
      timeoutMs: 30_000,
      onSpawn: (child) => {
        let sent = 0;
        const poll = setInterval(() => {
          if (sent === 0 && existsSync(join(dir, 'loading'))) {
            sent = 1;
            child.kill('SIGINT');
          }
          if (sent === 1 && stderr.includes('stopping:')) {
            sent = 2;
            clearInterval(poll);
            child.kill('SIGINT');
          }
        }, 20);
        child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('exit', () => clearInterval(poll));
      },
    });
    assert.equal(r.code, 130, r.stderr);
    assert.match(
      r.stderr,
      /stopping: no case has started yet; waiting for fn\.ts to finish loading \(press Ctrl-C again to quit now: nothing has run, so nothing is lost\)/,
    );
    assert.match(r.stderr, /interrupted before any case started; nothing was written\n$/);
    assert.equal(existsSync(join(dir, 'r.json')), false);
  });
});

describe('evals run: zero cases', () => {
  it('a --tag no row has is a usage error, allowEmpty: true or not (it passed with 0 cases)', async () => {
    for (const settings of [[], ['allowEmpty: true']]) {
      const dir = project(`export const fn = (): string => 'x';\n`, settings);
      const r = await runCli(['run', '-o', 'r.json', '--tag', 'typo'], { cwd: dir });
      assert.equal(r.code, 2, r.stderr);
      assert.match(
        r.stderr,
        /--tag typo: no row of the selected suites' testsets has this tag \(they have no __tags__\)/,
      );
      assert.equal(existsSync(join(dir, 'r.json')), false);
    }
  });
});

describe('evals run: output files', () => {
  const marker = `import { writeFileSync } from 'node:fs';
export function fn(): string {
  writeFileSync('ran', '');
  return 'x';
}
`;
  const refused: [string, string[], (dir: string) => void, RegExp][] = [
    [
      '-o is a folder',
      ['-o', 'out'],
      (d) => writeFiles(d, { 'out/keep': '' }),
      /-o out: is a folder/,
    ],
    [
      '--junit is a folder',
      ['--junit', 'out'],
      (d) => writeFiles(d, { 'out/keep': '' }),
      /--junit out: is a folder/,
    ],
    ['-o under a file', ['-o', 'rows.csv/r.json'], () => {}, /rows\.csv is a file, not a folder/],
    [
      '-o and --junit one file',
      ['-o', 'r.xml', '--junit', 'r.xml'],
      () => {},
      /the same file as -o r\.xml/,
    ],
  ];
  for (const [what, args, prepare, message] of refused) {
    it(`refuses before running: ${what} (exit 2, nothing ran)`, async () => {
      const dir = project(marker);
      prepare(dir);
      const r = await runCli(['run', ...args], { cwd: dir });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, message);
      noStack(r.stderr);
      assert.equal(existsSync(join(dir, 'ran')), false, 'no case ran');
    });
  }

  it('a write that fails after the run: one line, the kept file named, exit 3', async () => {
    // The run itself makes -o a folder and the --junit folder a file, once it is under way.
    const dir = project(`import { mkdirSync, writeFileSync } from 'node:fs';
export function fn({ testCase }: { testCase: { n: string } }): string {
  if (testCase.n === '1') {
    mkdirSync('r.json');
    writeFileSync('reports', '');
  }
  return 'x';
}
`);
    const r = await runCli(['run', '-o', 'r.json', '--junit', 'reports/j.xml'], { cwd: dir });
    assert.equal(r.code, 3, r.stderr);
    noStack(r.stderr);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('error: '));
    assert.equal(lines.length, 2, r.stderr);
    const keptArtifact =
      /r\.json could not be written \(EISDIR[^)]*\); the complete file is kept at (\S+);/.exec(
        lines[0]!,
      )?.[1];
    const keptJunit =
      /reports\/j\.xml could not be written \([^)]*\); the complete file is kept at (\S+);/.exec(
        lines[1]!,
      )?.[1];
    assert.ok(keptArtifact !== undefined && keptJunit !== undefined, r.stderr);
    assert.equal(readArtifact(keptArtifact).verdict, 'pass', 'the kept file is the whole artifact');
    assert.match(readFileSync(keptJunit, 'utf8'), /<testsuites/);
    const temporary = readdirSync(dir).filter((f) => f.endsWith('.tmp'));
    assert.deepEqual(
      temporary.map((f) => join(dir, f)),
      [keptArtifact],
      'only the named .tmp',
    );
  });
});
