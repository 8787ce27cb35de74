/**
 * `npm run bench [-- --peers] [-- --json out.json]`: each scenario is timed next to a baseline
 * measured in the same run, and the table prints the ratio, so a slow or busy machine slows both
 * sides alike. Paired scenarios alternate their two sides run by run for the same reason.
 *
 * (a) runner overhead at 10k and 100k cases vs a hand-written loop (bench/floor.mjs), the
 *     function in JavaScript on both sides; at 100k also in TypeScript, for reference
 * (b) latency-bound: 2,000 cases sleeping 20 ms at concurrency 100 vs the ideal schedule
 * (c) cold start of a 1-case TypeScript suite vs `node -e 0`
 * (d) with --peers only: the same suite side by side with promptfoo (bench/peers.ts)
 * (e) peak RSS at 10k, 100k and 200k cases, and its slope per 10k cases
 * (f) a command target: 200 cases each starting `node -e` at concurrency 8 vs `xargs -P 8`
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  interleaved,
  interleavedSamples,
  measure,
  median,
  ratioRange,
  root,
  type Row,
  type Sample,
} from './measure.ts';
import { fixedAgainst, meets, type Limit } from './limits.ts';
import { runPeers } from './peers.ts';
import {
  COMMAND_SCRIPT,
  TYPESCRIPT_CONFIG,
  writeCommandSuite,
  writeLatencySuite,
  writeOverheadSuite,
} from './suites.ts';

const argv = process.argv.slice(2);
const withPeers = argv.includes('--peers');
const jsonAt = argv.indexOf('--json');
const jsonOut = jsonAt >= 0 ? argv[jsonAt + 1] : undefined;
if (jsonAt >= 0 && (jsonOut === undefined || jsonOut.startsWith('--'))) {
  console.error('usage: npm run bench -- [--peers] [--json out.json]');
  process.exit(2);
}

// lib/ may be rebuilt while a bench runs (`npm run build` empties it first, and a shared working
// tree has other builds), so every scenario runs a private copy of the CLI taken now: one build
// throughout. It stays inside the repository so the bundle's imports of tsx and friends resolve
// from node_modules as they do from lib/. Both temporary folders go however the bench ends.
const snapshot = join(root, 'bench', `.snapshot-${process.pid}`);
const work = mkdtempSync(join(tmpdir(), 'evalgate-bench-'));
process.on('exit', () => {
  rmSync(work, { recursive: true, force: true });
  rmSync(snapshot, { recursive: true, force: true });
});
for (const part of ['bin', 'lib', 'schemas', 'package.json']) {
  // Declaration files are left out so that tsc and eslint over bench/ never see the copy.
  cpSync(join(root, part), join(snapshot, part), {
    recursive: true,
    filter: (from) => !from.endsWith('.d.ts'),
  });
}
const bin = join(snapshot, 'bin', 'evals.js');
const floorScript = join(root, 'bench', 'floor.mjs');

const rows: Row[] = [];

// With a limit, a figure gains digits rather than round across it (bench/limits.ts).
const mb = (b: number, limit?: Limit) => {
  const m = b / 1024 / 1024;
  return `${limit ? fixedAgainst(m, 0, limit) : m.toFixed(0)} MB`;
};
const ms = (t: number, limit?: Limit) =>
  t >= 10_000
    ? `${(t / 1000).toFixed(1)} s`
    : `${limit ? fixedAgainst(t, 0, limit) : t.toFixed(0)} ms`;
const x = (r: number, limit?: Limit) => `${limit ? fixedAgainst(r, 2, limit) : r.toFixed(2)}×`;
const evals =
  (dir: string, config = 'evals.yaml') =>
  () =>
    measure([bin, 'run', config, '-o', 'out.json'], dir);
const floorOf = (dir: string) => () => measure([floorScript, 'cases.csv', 'floor.json'], dir);

/** An (a) row: the overhead suite's run against the loop's, with the target if it has one. */
function overheadRow(
  id: string,
  scenario: string,
  run: Sample,
  floor: Sample,
  o: { runs: string; target?: string; wall?: Limit; ratio?: Limit },
): Row {
  const ratio = run.wallMs / floor.wallMs;
  const met = o.wall ? meets(run.wallMs, o.wall) : o.ratio ? meets(ratio, o.ratio) : null;
  return {
    id,
    scenario,
    evalgate: ms(run.wallMs, o.wall),
    baseline: `hand-written loop: ${ms(floor.wallMs)}`,
    ratio: x(ratio, o.ratio),
    target: o.target ?? '—',
    met,
    runs: o.runs,
    data: { wallMs: run.wallMs, floorMs: floor.wallMs },
  };
}

/** A ratio per round of interleaved samples: `a`'s run against `b`'s of the same round. */
function roundRatios(
  a: Sample[] | undefined,
  b: Sample[] | undefined,
  ratio: (a: number, b: number) => number,
): number[] {
  return (a ?? []).map((sample, i) => ratio(sample.wallMs, b?.[i]?.wallMs ?? NaN));
}

// Progress goes to stderr so that stdout is only the table.
const step = (what: string) => console.error(`bench: ${what}`);

// (c) first: later scenarios use its start-up figure. Node's own start-up is the baseline.
step('cold start (1-case TypeScript suite vs node -e 0), 9 runs each');
const one = join(work, 'one');
writeOverheadSuite(one, 1);
const oneTs = evals(one, TYPESCRIPT_CONFIG);
const [nodeStart, oneRun] = await interleaved(9, [() => measure(['-e', '0'], work), oneTs]);
const coldLimit: Limit = { bound: 500, keep: 'below' };
rows.push({
  id: 'cold-start',
  scenario: '(c) 1-case TS suite, cold start',
  evalgate: ms(oneRun.wallMs, coldLimit),
  baseline: `node -e 0: ${ms(nodeStart.wallMs)}`,
  ratio: x(oneRun.wallMs / nodeStart.wallMs),
  target: 'wall < 500 ms',
  met: meets(oneRun.wallMs, coldLimit),
  runs: 'median of 9',
  data: { wallMs: oneRun.wallMs, nodeMs: nodeStart.wallMs, rssBytes: oneRun.rssBytes },
});

// (a) runner overhead, 10k: the loop does the same reads, calls, checks and JSON write.
step('10k cases × 3 evaluators vs hand-written loop, 5 runs each');
const k10 = join(work, 'k10');
writeOverheadSuite(k10, 10_000);
const [run10k, floor10k] = await interleaved(5, [evals(k10), floorOf(k10)]);
rows.push(
  overheadRow('overhead-10k', '(a) 10k cases × 3 evaluators, wall', run10k, floor10k, {
    runs: 'median of 5',
    target: 'wall < 1.5 s',
    wall: { bound: 1500, keep: 'below' },
  }),
);

// (b) latency-bound: the runner should keep 100 calls in flight and add little beyond start-up.
// The start-up in its baseline is the 1-case suite again, interleaved with these runs: the
// load on a shared machine changes by the minute, and (c)'s figure from earlier could be from a
// quieter or busier spell. The same suite with a 0 ms sleep runs alongside, for reference: it
// shows how much of the wall is the 2,000 cases' own CPU work (CSV, calls, evaluators,
// artifact) rather than waiting, which the ideal-plus-start-up baseline does not allow for.
step(
  '2,000 cases × 20 ms sleep at concurrency 100, the same with 0 ms, 1-case start-up: 5 runs each',
);
const latency = { cases: 2000, sleepMs: 20, concurrency: 100 };
const lat = join(work, 'latency');
const lat0 = join(work, 'latency-0');
writeLatencySuite(lat, latency);
writeLatencySuite(lat0, { ...latency, sleepMs: 0 });
const latSamples = await interleavedSamples(5, [evals(lat), evals(lat0), oneTs]);
const [latRun, lat0Run, latStart] = latSamples.map(median) as [Sample, Sample, Sample];
const ideal = Math.ceil(latency.cases / latency.concurrency) * latency.sleepMs;
const latRatio = latRun.wallMs / (ideal + latStart.wallMs);
const latLimit: Limit = { bound: 1.1, keep: 'at-most' };
const latRounds = roundRatios(latSamples[0], latSamples[2], (run, start) => run / (ideal + start));
rows.push({
  id: 'latency',
  scenario: '(b) 2k cases × 20 ms sleep, concurrency 100',
  evalgate: ms(latRun.wallMs),
  baseline: `ideal ${ms(ideal)} + start-up ${ms(latStart.wallMs)}`,
  ratio: x(latRatio, latLimit),
  target: 'ratio ≤ 1.10×',
  met: meets(latRatio, latLimit),
  runs: `median of 5; round by round ${ratioRange(latRounds)}`,
  data: { wallMs: latRun.wallMs, idealMs: ideal, startupMs: latStart.wallMs },
});
rows.push({
  id: 'latency-0',
  scenario: '(b) same 2k cases, 0 ms sleep (reference)',
  evalgate: ms(lat0Run.wallMs),
  baseline: `start-up ${ms(latStart.wallMs)}`,
  ratio: x(lat0Run.wallMs / latStart.wallMs),
  target: '—',
  met: null,
  runs: 'median of 5',
  data: { wallMs: lat0Run.wallMs, startupMs: latStart.wallMs },
});

// (a) at 100k, where per-case overhead dominates start-up; its RSS also feeds (e).
// Five rounds rather than three: the 2-core VM's speed drifts within a minute, and this ratio sits
// near its target, so one slow spell should not decide the median.
step('100k cases × 3 evaluators vs hand-written loop, and in TypeScript: 5 runs each');
const k100 = join(work, 'k100');
writeOverheadSuite(k100, 100_000);
const k100Samples = await interleavedSamples(
  5,
  [evals(k100), floorOf(k100), evals(k100, TYPESCRIPT_CONFIG)],
  false,
);
const [run100k, floor100k, run100kTs] = k100Samples.map(median) as [Sample, Sample, Sample];
const k100Rounds = roundRatios(k100Samples[0], k100Samples[1], (run, floor) => run / floor);
rows.push(
  overheadRow('overhead-100k', '(a) 100k cases × 3 evaluators, wall', run100k, floor100k, {
    runs: `median of 5, no warm-up; round by round ${ratioRange(k100Rounds)}`,
    target: 'ratio ≤ 3.5×',
    ratio: { bound: 3.5, keep: 'at-most' },
  }),
);
// The same with the function in TypeScript: the loop has no TypeScript to load, so this ratio
// also holds tsx's start-up (a fixed cost, which (c) measures), not only the runner's overhead.
rows.push(
  overheadRow(
    'overhead-100k-ts',
    '(a) same, function in TypeScript (reference)',
    run100kTs,
    floor100k,
    {
      runs: 'median of 5, no warm-up',
    },
  ),
);

// (e) memory. 200k is one run: it is the slowest scenario and its RSS varies little.
step('200k cases × 3 evaluators, 1 run');
const k200 = join(work, 'k200');
writeOverheadSuite(k200, 200_000);
const run200k = await evals(k200)();
rmSync(k200, { recursive: true, force: true });
const memRow = (
  id: string,
  n: string,
  s: Sample,
  floor: Sample | undefined,
  runs: string,
  limit?: Limit,
): Row => ({
  id,
  scenario: `(e) ${n} cases, peak RSS`,
  evalgate: mb(s.rssBytes, limit),
  baseline: floor ? `hand-written loop: ${mb(floor.rssBytes)}` : '—',
  ratio: floor ? x(s.rssBytes / floor.rssBytes) : '—',
  target: limit ? '< 300 MB' : '—',
  met: limit ? meets(s.rssBytes / 1024 / 1024, limit) : null,
  runs,
  data: { rssBytes: s.rssBytes, ...(floor ? { floorRssBytes: floor.rssBytes } : {}) },
});
rows.push(memRow('rss-10k', '10k', run10k, floor10k, 'median of 5'));
rows.push(memRow('rss-100k', '100k', run100k, floor100k, 'median of 5, no warm-up'));
rows.push(memRow('rss-200k', '200k', run200k, undefined, '1 run', { bound: 300, keep: 'below' }));
const slope = (run200k.rssBytes - run10k.rssBytes) / 19; // 190k more cases = 19 × 10k
rows.push({
  id: 'rss-slope',
  scenario: '(e) RSS slope, 10k → 200k',
  evalgate: `${(slope / 1024 / 1024).toFixed(1)} MB / 10k cases`,
  baseline: '—',
  ratio: '—',
  target: '—',
  met: null,
  runs: 'from the rows above',
  data: { bytesPer10k: slope },
});

// (f) a command target: the time is the processes' own start-up, so the runner should add little
// beyond its own start to what xargs takes for the same processes.
step('command target: 200 × node -e at concurrency 8 vs xargs -P 8, 3 runs each');
const cmd = join(work, 'command');
writeCommandSuite(cmd, 200, 8);
const [cmdRun, xargsRun] = await interleaved(3, [
  evals(cmd),
  () => measure([join(root, 'bench', 'xargs.mjs'), 'cases.csv', '8', COMMAND_SCRIPT], cmd),
]);
const cmdRatio = cmdRun.wallMs / xargsRun.wallMs;
const cmdLimit: Limit = { bound: 1.3, keep: 'at-most' };
rows.push({
  id: 'command-target',
  scenario: '(f) command target, 200 × node -e, concurrency 8',
  evalgate: ms(cmdRun.wallMs),
  baseline: `xargs -P 8: ${ms(xargsRun.wallMs)}`,
  ratio: x(cmdRatio, cmdLimit),
  target: 'ratio ≤ 1.30×',
  met: meets(cmdRatio, cmdLimit),
  runs: 'median of 3',
  data: { wallMs: cmdRun.wallMs, xargsMs: xargsRun.wallMs },
});

if (withPeers) rows.push(...(await runPeers(work, bin, step)));

print(rows);
if (jsonOut !== undefined) {
  const report = {
    node: process.version,
    platform: `${process.platform}/${process.arch}`,
    date: new Date().toISOString(),
    rows,
  };
  // npm runs scripts from the package root; a relative path means where npm was invoked.
  const at = resolve(process.env.INIT_CWD ?? process.cwd(), jsonOut);
  writeFileSync(at, `${JSON.stringify(report, null, 2)}\n`);
  console.error(`bench: wrote ${at}`);
}

function print(table: Row[]): void {
  const header = ['scenario', 'evalgate', 'baseline (same run)', 'ratio', 'target', 'met', 'runs'];
  const cells = table.map((r) => [
    r.scenario,
    r.evalgate,
    r.baseline,
    r.ratio,
    r.target,
    r.met === null ? '' : r.met ? 'yes' : 'NO',
    r.runs,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const c of cells) console.log(line(c));
  const notes = [
    `node ${process.version}, ${process.platform}/${process.arch}, ${cpus().length} CPUs.`,
    'Wall: spawn to exit of the child, start-up and writing results included.',
    "Peak RSS: the process's kernel maxRSS, written at exit by bench/rss-probe.cjs.",
    'Medians are of runs after one untimed warm-up run; 200k and promptfoo are single runs.',
  ];
  if (table.some((r) => r.id.startsWith('peers'))) {
    notes.push(
      'Peers (both tools): peak RSS is the largest of the summed VmRSS of the whole process tree ' +
        "(/proc sampled every 25 ms), any one process's VmHWM, and the root's maxRSS.",
    );
  }
  console.log(`\n${notes.join('\n')}`);
}
