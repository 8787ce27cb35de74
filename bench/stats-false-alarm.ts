/**
 * How often evalgate cries wolf on a whole pull request, and how often it sees a real drop:
 *
 *   npx tsx bench/stats-false-alarm.ts [--seed N] [--runs N] [--large]
 *
 * For every scenario (bench/stats-model.ts: binary pass/fail at several pass rates, graded
 * scores, trials, 20 / 100 / 1,000 cases, 2 suites × 2 grid points × 3 evaluators, and a family
 * of 72 rows) it simulates `--runs` pull requests that change nothing (A/A, 150 by default) and
 * `--runs / 2` that lower pass rates or scores by 5 or 10 points (A/B), compares each with
 * `compareArtifacts` and gates it as `regressions: block` does, and reads the labels a reader
 * of the PR comment sees (`shownLabel`). Prints markdown tables; the same seed and runs always
 * print the same figures. Exits 1 when a scenario's A/A block rate, the rate at which some
 * row shows a warning (`regressed` or `possible regression`), or the rate at which some grid
 * point shows its newly failing cases as an alarm (bold and open; before, every list of newly
 * failing cases was one), is clearly above the documented 5% (its binomial tail at 5% below
 * 0.001). It also counts how the folded lists are worded: how many say no drop happened
 * ("within the noise", or with one trial a case "a drop of 10.0 pp ruled out"), and, with a real
 * drop, how often a dropped grid point's list is worded so.
 *
 * `--large` runs only two families of 500 rows (5 suites × 20 grid points × 4 evaluators, 1,000
 * cases: binary and graded), `--runs` pull requests that change nothing each (40 by default,
 * some 3 seconds a pull request), and counts beside the rate the rows whose own p reached Holm's
 * first threshold 0.05 / 500: with valid p-values at most 0.05 of them a pull request.
 */
import {
  addBatch,
  emptyBatch,
  rowsOf,
  simulateBatch,
  tailAtLeast,
  upper95,
  type BatchResult,
  type Drop,
  type Scenario,
} from './stats-model.ts';

const usage = 'usage: npx tsx bench/stats-false-alarm.ts [--seed N] [--runs N] [--large]';
const argv = process.argv.slice(2);
const option = (name: string, fallback: number): number => {
  const at = argv.indexOf(name);
  if (at < 0) return fallback;
  const value = Number(argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) {
    console.error(usage);
    process.exit(2);
  }
  return value;
};
const seed = option('--seed', 1);
const large = argv.includes('--large');
const runs = option('--runs', large ? 40 : 150);

const grid = { suites: 2, gridPoints: 2, evaluators: 3 };
const binary = (passRate: number, cases: number, trials = 1): Scenario => ({
  name: `binary p=${passRate}, ${cases} cases${trials > 1 ? `, ${trials} trials` : ''}`,
  kind: 'binary',
  passRate,
  cases,
  trials,
  ...grid,
});
const graded = (cases: number, trials: number, baseTrials?: number): Scenario => ({
  name: `graded, ${cases} cases, ${baseTrials === undefined ? `${trials} trials` : `BASE ${baseTrials} / HEAD ${trials} trials`}`,
  kind: 'continuous',
  passRate: 0,
  cases,
  trials,
  ...(baseTrials === undefined ? {} : { baseTrials }),
  ...grid,
});

const NULL_SCENARIOS: Scenario[] = [
  ...[0.5, 0.8, 0.95].flatMap((p) => [20, 100, 1000].map((n) => binary(p, n))),
  binary(0.8, 100, 3),
  ...[20, 100, 1000].map((n) => graded(n, 3)),
  graded(100, 3, 1),
  {
    ...graded(100, 1),
    name: 'graded, 100 cases, 3 suites × 4 points × 5 evaluators',
    suites: 3,
    gridPoints: 4,
    evaluators: 5,
  },
];

const DROP_SCENARIOS: [Scenario, Drop][] = [
  ...[0.05, 0.1].flatMap((delta) =>
    (['one run', 'every run'] as const).map((where): [Scenario, Drop] => [
      binary(0.8, 100),
      { delta, where },
    ]),
  ),
  [binary(0.8, 1000), { delta: 0.05, where: 'one run' }],
  [binary(0.8, 20), { delta: 0.1, where: 'every run' }],
  [graded(100, 3), { delta: 0.05, where: 'one run' }],
];

const LARGE_SCENARIOS: Scenario[] = [binary(0.8, 1000), graded(1000, 3)].map((scenario) => ({
  ...scenario,
  name: `${scenario.name}, 5 suites × 20 points × 4 evaluators`,
  suites: 5,
  gridPoints: 20,
  evaluators: 4,
}));

const pct = (k: number, n: number): string => `${((100 * k) / n).toFixed(1)}%`;
const started = performance.now();
if (large) {
  console.log(largeFamilies().join('\n'));
  console.log(`\n${((performance.now() - started) / 1000).toFixed(1)} s`);
  process.exit(process.exitCode ?? 0);
}
const out: string[] = [
  `seed ${seed}, ${runs} A/A and ${Math.max(1, Math.floor(runs / 2))} A/B pull requests per scenario; gate: regressions: block, α = 0.05, Holm over every row`,
  '',
  '### A/A: nothing changed',
  '',
  '| scenario | rows | blocked (PR verdict "regressed") | by a pass-rate row | 95% upper | any significant change | some row shown as a warning | 95% upper | (were it the own p < 0.05, as before) | (were it q < 0.10) | newly failing shown as an alarm | (before: every newly failing list) | folded lists worded as no drop ("within the noise" or "ruled out") |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
];
let failed = false;
/** `k/n (r%)`, flagged when a 5% rate would give k or more in n less than 0.1% of the time. */
const rate = (k: number, n: number): string => {
  const clearlyAbove = tailAtLeast(k, n, 0.05) < 0.001;
  if (clearlyAbove) failed = true;
  return `${k}/${n} (${pct(k, n)})${clearlyAbove ? ' **above 5%**' : ''}`;
};
const total: BatchResult = emptyBatch();
for (const [i, scenario] of NULL_SCENARIOS.entries()) {
  const r = simulateBatch(scenario, runs, seed, i);
  addBatch(total, r);
  out.push(
    `| ${scenario.name} | ${rowsOf(scenario)} | ${rate(r.blocked, r.prs)} | ${r.blockedByPassRate} | ${pct(upper95(r.blocked, r.prs), 1)} | ${pct(r.anySignificant, r.prs)} | ${rate(r.anyWarning, r.prs)} | ${pct(upper95(r.anyWarning, r.prs), 1)} | ${pct(r.anyRegressedP, r.prs)} | ${pct(r.anyRegressedQ10, r.prs)} | ${rate(r.newlyFailingAlarm, r.prs)} | ${pct(r.anyNewlyFailing, r.prs)} | ${r.noiseWorded}/${r.foldedLists} (${pct(r.noiseWorded, Math.max(1, r.foldedLists))}) |`,
  );
}
out.push(
  `| **all A/A** | | ${total.blocked}/${total.prs} (${pct(total.blocked, total.prs)}) | ${total.blockedByPassRate} | ${pct(upper95(total.blocked, total.prs), 1)} | ${pct(total.anySignificant, total.prs)} | ${total.anyWarning}/${total.prs} (${pct(total.anyWarning, total.prs)}) | ${pct(upper95(total.anyWarning, total.prs), 1)} | ${pct(total.anyRegressedP, total.prs)} | ${pct(total.anyRegressedQ10, total.prs)} | ${total.newlyFailingAlarm}/${total.prs} (${pct(total.newlyFailingAlarm, total.prs)}) | ${pct(total.anyNewlyFailing, total.prs)} | ${total.noiseWorded}/${total.foldedLists} (${pct(total.noiseWorded, Math.max(1, total.foldedLists))}) |`,
  '',
  '### A/B: a real drop (detected = blocked; labelled = some row shown as a warning)',
  '',
  "| scenario | drop | where | blocked | labelled | (were it q < 0.10) | newly failing shown as an alarm | a dropped grid point's list folded as no drop |",
  '|---|---:|---|---:|---:|---:|---:|---:|',
);
const dropRuns = Math.max(1, Math.floor(runs / 2));
for (const [i, [scenario, drop]] of DROP_SCENARIOS.entries()) {
  const r = simulateBatch(scenario, dropRuns, seed, 1000 + i, drop);
  out.push(
    `| ${scenario.name} | −${drop.delta * 100} points | ${drop.where} | ${r.blocked}/${r.prs} (${pct(r.blocked, r.prs)}) | ${r.anyWarning}/${r.prs} (${pct(r.anyWarning, r.prs)}) | ${pct(r.anyRegressedQ10, r.prs)} | ${r.newlyFailingAlarm}/${r.prs} (${pct(r.newlyFailingAlarm, r.prs)}) | ${r.droppedWordedNoise}/${r.prs} (${pct(r.droppedWordedNoise, r.prs)}) |`,
  );
}
out.push('', `${((performance.now() - started) / 1000).toFixed(1)} s`);
console.log(out.join('\n'));
if (failed) process.exitCode = 1;

/**
 * The 500-row families alone: how often they block, and how many rows reach 0.05 / F, which no
 * more than 0.05 a pull request may with valid p-values (Bonferroni: the block rate is at most
 * that). Sets the exit code as the main tables do.
 */
function largeFamilies(): string[] {
  const lines = [
    `seed ${seed}, ${runs} A/A pull requests per scenario; gate: regressions: block, α = 0.05, Holm over every row`,
    '',
    '| scenario | rows | blocked | 95% upper | some row shown as a warning | rows with p ≤ 0.05 / F | a pull request (at most 0.05) |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const [i, scenario] of LARGE_SCENARIOS.entries()) {
    const r = simulateBatch(scenario, runs, seed, 2000 + i);
    if (tailAtLeast(r.blocked, r.prs, 0.05) < 0.001) process.exitCode = 1;
    lines.push(
      `| ${scenario.name} | ${r.familyRows} | ${r.blocked}/${r.prs} (${pct(r.blocked, r.prs)}) | ${pct(upper95(r.blocked, r.prs), 1)} | ${r.anyWarning}/${r.prs} (${pct(r.anyWarning, r.prs)}) | ${r.tailRows} of ${r.rowsTested} | ${(r.tailRows / r.prs).toFixed(3)} |`,
    );
  }
  return lines;
}
