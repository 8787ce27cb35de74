/**
 * How long the HTML report takes to build its page in headless Chromium for a large artifact:
 * two runs of N/2 cases each (default N = 100,000), 10% failing `exact` with an
 * `expected …, got …` reason and 1% errored, as a real suite that went wrong would be.
 *
 *   npm run build && node --import tsx bench/report-page.ts [--baseline] [cases] [repeats] [other.html …]
 *
 * With `--baseline`, a baseline artifact of the same cases is written too, where another 10%
 * failed (so 10% of the cases are newly failing and 10% fixed), and the report is written by
 * `evals report big.json --baseline base.json`: the comparison, its case lists and the baseline
 * results of the changed cases (at most 1,000) in the page. The time `evals report` took is
 * printed.
 *
 * Writes the report with this build, then loads it and each `other.html` (the same artifact's
 * report written by another build, to compare with) in turn, `repeats` rounds, every other round
 * in the reverse order. Prints the file
 * sizes and, per load, the time from navigation to the filled table (read in the page,
 * `performance.now()`, so browser start is excluded), the status filter and a search (timed in
 * the page around the event the table listens to); then each file's median build time.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { buildArtifact, serializeArtifact } from '../src/artifact/artifact.ts';
import type { CaseResult, RunResult } from '../src/types/index.ts';

const withBaseline = process.argv[2] === '--baseline';
const args = withBaseline ? process.argv.slice(3) : process.argv.slice(2);
const total = Number(args[0] ?? 100_000);
const repeats = Number(args[1] ?? 3);
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** `shift` moves which tenth of the cases fails: the baseline's is another than HEAD's. */
function caseOf(n: number, point: number, shift = 0): CaseResult {
  const errored = n % 100 === 50 + point;
  const failed = !errored && n % 10 === (point + shift) % 10;
  return {
    id: `case-${String(n).padStart(6, '0')}-${point}`,
    contentId: `c${n}`.padEnd(64, '0'),
    source: { file: 'testsets/big.csv', line: n + 2 },
    data: { question: `question ${n}`, expected: `answer ${n}` },
    output: errored ? null : `answer ${failed ? n + 1 : n} ${'lorem ipsum '.repeat(10)}`,
    error: errored ? `Error: upstream returned 503 for case ${n}\n    at call (m.mjs:3:9)` : null,
    durationMs: 40 + (n % 50),
    passed: !failed && !errored,
    evaluations: errored
      ? []
      : [
          {
            evaluator: 'exact',
            score: failed ? 0 : 1,
            threshold: { gte: 1 },
            passed: !failed,
            metadata: failed ? { expected: `answer ${n}`, actual: `answer ${n + 1}` } : null,
            error: null,
            durationMs: 0.1,
          },
        ],
  };
}

function runOf(point: number, cases: number, shift = 0): RunResult {
  const results = Array.from({ length: cases }, (_, n) => caseOf(n, point, shift));
  const failed = results.filter((c) => c.error === null && !c.passed).length;
  const errored = results.filter((c) => c.error !== null).length;
  const passed = cases - failed - errored;
  return {
    suite: 'big',
    params: { model: point === 0 ? 'small' : 'large' },
    testset: { path: 'testsets/big.csv', ref: null, commit: null, revision: 'r', cases },
    verdict: 'fail',
    gate: {
      conditions: [
        {
          name: 'all cases pass',
          expected: '0 failed, 0 errored',
          actual: `${failed} failed, ${errored} errored`,
          passed: false,
        },
      ],
    },
    summary: {
      cases,
      passed,
      failed,
      errored,
      passRate: passed / cases,
      evaluators: {
        exact: {
          count: cases - errored,
          mean: passed / (cases - errored),
          passed,
          failed,
          errors: 0,
          passRate: passed / (cases - errored),
        },
      },
    },
    cases: results,
  };
}

const dir = mkdtempSync(join(tmpdir(), 'evalgate-report-bench-'));
const artifactOf = (shift: number, startedAt: string) =>
  buildArtifact({
    toolVersion: '0.1.0',
    config: 'evals.yaml',
    configHash: 'h',
    git: null,
    startedAt: new Date(startedAt),
    durationMs: 2500,
    interrupted: false,
    runs: [runOf(0, total / 2, shift), runOf(1, total / 2, shift)],
  });
writeFileSync(join(dir, 'big.json'), serializeArtifact(artifactOf(0, '2025-01-02T00:00:00Z')));
if (withBaseline) {
  writeFileSync(join(dir, 'base.json'), serializeArtifact(artifactOf(5, '2025-01-01T00:00:00Z')));
}
const cli = resolve(import.meta.dirname, '../bin/evals.js');
const reportArgs = [cli, 'report', 'big.json', '-o', 'big.html'];
if (withBaseline) reportArgs.push('--baseline', 'base.json');
const reportStart = performance.now();
const written = spawnSync(process.execPath, reportArgs, { cwd: dir, encoding: 'utf8' });
const reportMs = performance.now() - reportStart;
if (written.status !== 0) throw new Error(`evals report failed: ${written.stderr}`);
console.log(
  `${total.toLocaleString('en')} cases in ${dir}${withBaseline ? ', with a baseline' : ''}`,
);
console.log(`evals report ${reportArgs.slice(2).join(' ')}: ${(reportMs / 1000).toFixed(1)} s`);

const files = [join(dir, 'big.html'), ...args.slice(2).map((file) => resolve(file))];
for (const file of files) {
  console.log(`${file}: ${(readFileSync(file).length / 1e6).toFixed(1)} MB`);
}
const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
const loads = files.map((): number[] => []);
for (let round = 0; round < repeats; round++) {
  // Every other round in the reverse order, so that neither file always loads first.
  const order = [...files.entries()];
  if (round % 2 === 1) order.reverse();
  for (const [at, file] of order) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(pathToFileURL(file).href);
    await page.waitForFunction(
      `(document.getElementById('case-count')?.textContent ?? '').endsWith(' cases') && document.querySelector('#case-rows .case') !== null`,
      undefined,
      { timeout: 120_000, polling: 5 },
    );
    const ms = await page.evaluate<number>('performance.now()');
    loads[at]?.push(ms);
    const timed = (id: string, event: string, value: string): Promise<number> =>
      page.evaluate<number>(
        `(() => { const c = document.getElementById(${JSON.stringify(id)}); const t = performance.now(); c.value = ${JSON.stringify(value)}; c.dispatchEvent(new Event(${JSON.stringify(event)})); return performance.now() - t; })()`,
      );
    const filterMs = await timed('filter-status', 'change', 'not-passed');
    const searchMs = await timed('filter-search', 'input', 'answer 4240 ');
    console.log(
      `round ${round + 1} ${file}: page built in ${ms.toFixed(0)} ms; status filter ${filterMs.toFixed(0)} ms; search ${searchMs.toFixed(0)} ms`,
    );
    await page.close();
  }
}
await browser.close();
for (const [at, file] of files.entries()) {
  const sorted = [...(loads[at] ?? [])].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  console.log(
    `${file}: median page build ${median.toFixed(0)} ms (${sorted.map((ms) => ms.toFixed(0)).join(', ')})`,
  );
}
