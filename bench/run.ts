/**
 * `npm run bench`: each scenario is timed next to a baseline measured in the same run, and the
 * table prints the ratio, so a slow machine slows both sides alike. Medians of several runs.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'evals.js');
const probe = join(root, 'bench', 'rss-probe.cjs');
const work = mkdtempSync(join(tmpdir(), 'evalgate-bench-'));

interface Sample {
  wallMs: number;
  rssBytes: number;
}

/** Runs a command to completion and reports its wall time and peak RSS (via the preloaded probe). */
function measure(args: string[], cwd: string, expectExit: number[] = [0]): Sample {
  const rssFile = join(work, `rss-${process.hrtime.bigint()}`);
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--require', probe, ...args], {
    cwd,
    env: { ...process.env, BENCH_RSS_FILE: rssFile, NO_COLOR: '1' },
    encoding: 'utf8',
  });
  const wallMs = performance.now() - t0;
  if (!expectExit.includes(r.status ?? -1)) {
    throw new Error(`${args.join(' ')} exited ${r.status}\n${r.stderr}\n${r.stdout}`);
  }
  return { wallMs, rssBytes: Number(readFileSync(rssFile, 'utf8')) };
}

function median(samples: Sample[]): Sample {
  const by = <K extends keyof Sample>(k: K) =>
    samples.map((s) => s[k]).sort((a, b) => a - b)[samples.length >> 1] ?? 0;
  return { wallMs: by('wallMs'), rssBytes: by('rssBytes') };
}

function repeat(n: number, f: () => Sample): Sample {
  f(); // warm the file system cache and tsx's compile cache, as a second local run would be
  return median(Array.from({ length: n }, f));
}

function writeSuite(dir: string, cases: number, fnFile: string): void {
  mkdirSync(dir, { recursive: true });
  const lines = ['id,question,expected'];
  for (let i = 0; i < cases; i++) lines.push(`q${i},What is ${i} + 1?,${i + 1}`);
  writeFileSync(join(dir, 'cases.csv'), `${lines.join('\n')}\n`);
  writeFileSync(
    join(dir, fnFile),
    'export function answer({ testCase }: { testCase: { expected: string } }): string {\n  return `answer: ${testCase.expected}`;\n}\n',
  );
  writeFileSync(
    join(dir, 'evals.yaml'),
    `version: 1
suites:
  - id: bench
    testset: { path: cases.csv }
    hash: [id]
    function: ./${fnFile}#answer
    concurrency: 64
    evaluators:
      - { id: exact, use: is-equals, with: { expected: "answer: {{case.expected}}" } }
      - { id: contains, use: contains, with: { values: ["{{case.expected}}"] } }
      - { id: shape, use: regex, with: { pattern: "^answer: " } }
`,
  );
}

const rows: string[][] = [];
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;
const ms = (t: number) => `${t.toFixed(0)} ms`;

// Node's own start-up: the baseline for cold start.
const nodeStart = repeat(9, () => measure(['-e', '0'], work));

// (1) 10,000 cases × 3 deterministic evaluators, trivial synchronous TypeScript function.
const big = join(work, 'big');
writeSuite(big, 10_000, 'answer.ts');
const bigRun = repeat(3, () => measure([bin, 'run', 'evals.yaml', '-o', 'out.json'], big));
const floor = repeat(3, () =>
  measure([join(root, 'bench', 'floor.mjs'), 'cases.csv', 'floor.json'], big),
);
rows.push([
  '10k cases × 3 evaluators (TS fn), wall',
  ms(bigRun.wallMs),
  `hand-written loop ${ms(floor.wallMs)}`,
  `${(bigRun.wallMs / floor.wallMs).toFixed(2)}×`,
  '< 1500 ms',
]);
rows.push([
  '10k cases × 3 evaluators (TS fn), peak RSS',
  mb(bigRun.rssBytes),
  `hand-written loop ${mb(floor.rssBytes)}`,
  `${(bigRun.rssBytes / floor.rssBytes).toFixed(2)}×`,
  '< 200 MB',
]);

// (2) Cold start of a 1-case TypeScript suite.
const one = join(work, 'one');
writeSuite(one, 1, 'answer.ts');
const oneRun = repeat(9, () => measure([bin, 'run', 'evals.yaml', '-o', 'out.json'], one));
rows.push([
  '1-case TS suite, cold start',
  ms(oneRun.wallMs),
  `node -e 0 ${ms(nodeStart.wallMs)}`,
  `${(oneRun.wallMs / nodeStart.wallMs).toFixed(2)}×`,
  '< 500 ms',
]);

const header = ['scenario', 'evalgate', 'baseline (same run)', 'ratio', 'target'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ');
console.log(line(header));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const r of rows) console.log(line(r));
console.log(
  `\nnode ${process.version}, ${process.platform}/${process.arch}; medians of 3 (10k) and 9 (start-up) runs after one warm-up`,
);
rmSync(work, { recursive: true, force: true });
