/**
 * What `isolation: worker` costs next to `isolation: process`, on the built CLI: a suite of
 * trivial synchronous TypeScript calls (`is-equals` on each), run alternately each way.
 *
 *   npm run build && node --import tsx bench/isolation.ts [cases] [repeats] [concurrency] [ts|js]
 *
 * Prints, for each isolation, the median wall time (spawn to exit) and the median time of the
 * run itself (the artifact's durationMs), and the per-call overhead of worker threads: the
 * difference of the run times over the cases, and how much longer the worker side takes to start
 * (its threads, each loading the module, through tsx for TypeScript). Defaults: 2000 cases, 5
 * repeats, concurrency 8 (as many threads), TypeScript.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const cases = Number(process.argv[2] ?? 2000);
const repeats = Number(process.argv[3] ?? 5);
const concurrency = Number(process.argv[4] ?? 8);
const typescript = process.argv[5] !== 'js';
const file = typescript ? 'fn.ts' : 'fn.mjs';

type Isolation = 'process' | 'worker';
interface Timing {
  wallMs: number;
  runMs: number;
}

// A copy of the built package, so a `npm run build` elsewhere meanwhile cannot pull lib/ away.
const root = join(import.meta.dirname, '..');
const snapshot = mkdtempSync(join(tmpdir(), 'evalgate-bench-isolation-pkg-'));
for (const part of ['bin', 'lib', 'package.json']) {
  cpSync(join(root, part), join(snapshot, part), { recursive: true });
}
symlinkSync(join(root, 'node_modules'), join(snapshot, 'node_modules'));
const bin = join(snapshot, 'bin', 'evals.js');

function project(isolation: Isolation): string {
  const dir = mkdtempSync(join(tmpdir(), `evalgate-bench-isolation-${isolation}-`));
  const suite = [
    'version: 1',
    'suites:',
    '  - id: s',
    '    testset: { path: rows.csv }',
    `    function: ./${file}#fn`,
    `    isolation: ${isolation}`,
    `    concurrency: ${concurrency}`,
    '    evaluators:',
    '      - { use: is-equals, with: { expected: "{{case.q}}" } }',
    '',
  ];
  writeFileSync(join(dir, 'evals.yaml'), suite.join('\n'));
  const rows = ['q', ...Array.from({ length: cases }, (_, i) => `q${i}`), ''];
  writeFileSync(join(dir, 'rows.csv'), rows.join('\n'));
  writeFileSync(
    join(dir, file),
    typescript
      ? 'export const fn = ({ testCase }: { testCase: { q: string } }): string => testCase.q;\n'
      : 'export const fn = ({ testCase }) => testCase.q;\n',
  );
  return dir;
}

function runOnce(dir: string): Timing {
  const started = performance.now();
  const r = spawnSync(process.execPath, [bin, 'run', '-o', 'r.json'], {
    cwd: dir,
    encoding: 'utf8',
  });
  const wallMs = performance.now() - started;
  if (r.status !== 0) throw new Error(`evals run exited ${r.status}: ${r.stderr}`);
  const artifact = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as { durationMs: number };
  return { wallMs, runMs: artifact.durationMs };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

const sides: Isolation[] = ['process', 'worker'];
const dirs = new Map(sides.map((side) => [side, project(side)]));
const times = new Map<Isolation, Timing[]>(sides.map((side) => [side, []]));
// One untimed warm-up each (tsx's transform cache, the OS file cache), then alternate.
for (const side of sides) runOnce(dirs.get(side)!);
for (let i = 0; i < repeats; i++) {
  for (const side of sides) times.get(side)!.push(runOnce(dirs.get(side)!));
}
const summary = (side: Isolation): Timing => ({
  wallMs: median(times.get(side)!.map((t) => t.wallMs)),
  runMs: median(times.get(side)!.map((t) => t.runMs)),
});
const p = summary('process');
const w = summary('worker');
const language = typescript ? 'TypeScript' : 'JavaScript';
console.log(
  `${cases} cases, a trivial sync ${language} function, concurrency ${concurrency}, median of ${repeats}`,
);
console.log('isolation  wall ms  run ms');
for (const [side, t] of [
  ['process', p],
  ['worker', w],
] as const) {
  console.log(
    `${side.padEnd(9)} ${t.wallMs.toFixed(0).padStart(8)} ${t.runMs.toFixed(0).padStart(7)}`,
  );
}
console.log(
  `worker/process: wall ${(w.wallMs / p.wallMs).toFixed(2)}x, run ${(w.runMs / p.runMs).toFixed(2)}x; ` +
    `per call ${(((w.runMs - p.runMs) / cases) * 1000).toFixed(0)} us more; ` +
    `start-up and exit ${(w.wallMs - w.runMs - (p.wallMs - p.runMs)).toFixed(0)} ms more`,
);
for (const dir of [...dirs.values(), snapshot]) rmSync(dir, { recursive: true, force: true });
