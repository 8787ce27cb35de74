/**
 * A recovery journal whose cases are larger than the reader's window (1 MB) is read a line at a
 * time, and one written by an earlier journal format (version 1: `RUN JSON` lines; version 2:
 * case lines after `R RUN` lines, in the journal itself) is still recovered: on
 * the built CLI, with a run killed for real.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { functionProject, runCli } from './helpers/cli.ts';
import {
  artifactAt,
  calls,
  caseLines,
  CASE_LINE,
  casesFileOf,
  casesFolders,
  journalOf,
  start,
} from './helpers/journal-run.ts';
import { waitUntil } from './helpers/wait-until.ts';

const ROWS = 1500;
/** Cases from this one on wait until the run is killed (unless RESUMING is set). */
const STUCK = 1491;

/** A project whose cases answer ~1 KB each, and whose last ones hang until the kill. */
function bigProject(): string {
  return functionProject(
    {
      'fn.ts': `import { appendFileSync } from 'node:fs';
export async function fn(input: { testCase: { n: string } }): Promise<string> {
  const n = Number(input.testCase.n);
  appendFileSync('calls', n + '\\n');
  if (n >= ${STUCK} && process.env.RESUMING !== '1') await new Promise(() => {});
  return 'x'.repeat(1000) + n;
}
`,
    },
    ['concurrency: 20'],
    ROWS,
  );
}

/** Starts a run to r.json and kills it once every case that can finish is journaled. */
async function killed(dir: string): Promise<void> {
  const { child, gone } = start(dir, ['-o', 'r.json']);
  const ok = await waitUntil(() => caseLines(dir) >= STUCK - 1, 300);
  child.kill('SIGKILL');
  await gone;
  assert.ok(ok, `the finished cases reached the journal (${caseLines(dir)})`);
}

async function resumed(dir: string): Promise<void> {
  const before = calls(dir);
  const r = await runCli(['run', '--resume', 'r.json'], { cwd: dir, env: { RESUMING: '1' } });
  assert.equal(r.code, 1, r.stderr); // the cases answer x…, not "x": they fail, as results
  assert.match(r.stderr, /recovered 1,490 of 1,500 cases/);
  assert.equal(calls(dir) - before, ROWS - STUCK + 1, 'only the missing cases ran');
  const cases = artifactAt(join(dir, 'r.json')).runs[0]!.cases;
  assert.equal(cases.length, ROWS);
  assert.deepEqual(
    cases.map((c) => c.output),
    Array.from({ length: ROWS }, (_, i) => 'x'.repeat(1000) + (i + 1)),
  );
}

describe('evals run: large and older recovery journals', () => {
  it('a journal of several megabytes is recovered whole, in testset order', async () => {
    const dir = bigProject();
    await killed(dir);
    assert.ok(statSync(casesFileOf(dir)).size > 1.2e6, 'the cases span several read windows');
    await resumed(dir);
  });

  // The same cases in an older format: the journal's header and frame, then the case lines,
  // tagged as that format tags them, in the journal itself; no folder.
  const older = (dir: string, version: 1 | 2): void => {
    const [head = '', frame = ''] = readFileSync(journalOf(dir), 'utf8').split('\n');
    const lines = readFileSync(casesFileOf(dir), 'utf8')
      .split('\n')
      .filter((line) => CASE_LINE.test(line));
    const cases =
      version === 1 ? lines.map((line) => `0 ${line.trim().replace(/,$/, '')}`) : ['R 0', ...lines];
    const text = [
      head.replace('"evalgateJournal":3', `"evalgateJournal":${version}`),
      frame,
      ...cases,
    ];
    assert.match(text[0]!, new RegExp(`^\\{"evalgateJournal":${version},`));
    assert.match(frame, /^F /);
    writeFileSync(journalOf(dir), `${text.join('\n')}\n`);
    for (const folder of casesFolders(dir)) rmSync(folder, { recursive: true });
  };

  it('a version 1 journal (RUN JSON lines) left by an older evalgate is recovered', async () => {
    const dir = bigProject();
    await killed(dir);
    older(dir, 1);
    await resumed(dir);
  });

  it('a version 2 journal (case lines after R lines) left by an older evalgate is recovered', async () => {
    const dir = bigProject();
    await killed(dir);
    older(dir, 2);
    await resumed(dir);
  });
});
