/**
 * A recovery journal larger than the reader's window (1 MB) is read a line at a time, and one
 * written by the previous journal format (version 1: `RUN JSON` lines) is still recovered: on
 * the built CLI, with a run killed for real.
 */
import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { functionProject, runCli } from './helpers/cli.ts';
import {
  artifactAt,
  calls,
  caseLines,
  CASE_LINE,
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
    assert.ok(statSync(journalOf(dir)).size > 1.2e6, 'the journal spans several read windows');
    await resumed(dir);
  });

  it('a version 1 journal (RUN JSON lines) left by an older evalgate is recovered', async () => {
    const dir = bigProject();
    await killed(dir);
    // The same journal in the older format: the header's version, and each case line tagged.
    let run = '0';
    const older = readFileSync(journalOf(dir), 'utf8')
      .split('\n')
      .flatMap((line, i) => {
        if (i === 0) return [line.replace('"evalgateJournal":2', '"evalgateJournal":1')];
        if (line.startsWith('R ')) {
          run = line.slice(2);
          return [];
        }
        return CASE_LINE.test(line) ? [`${run} ${line.trim().replace(/,$/, '')}`] : [line];
      })
      .join('\n');
    assert.match(older, /^\{"evalgateJournal":1,/);
    writeFileSync(journalOf(dir), older);
    await resumed(dir);
  });
});
