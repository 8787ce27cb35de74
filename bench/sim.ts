/**
 * `npm run sim`: how often the regression gate blocks a pull request, measured on seeded
 * simulated pull requests (bench/compare-sim.ts), and whether it sees a real change. Prints the
 * figures and exits 1 when one misses the issue's bar:
 *
 * - 400 pull requests that change nothing (4 grid points × 5 evaluators, 100 cases): the gate
 *   blocks at most 7.5% (5% plus sampling error), score rows have p < 0.05 in 5% ± 1%, and their
 *   p-values are uniform (Kolmogorov–Smirnov at α = 0.01);
 * - 200 pull requests that lower every score by 0.05: the gate blocks at least 80%.
 *
 * `-- --prs N` scales both batches (N null, N/2 shifted); `-- --json out.json` also writes them.
 */
import { writeFileSync } from 'node:fs';
import { ISSUE_SHAPE, ksCritical01, ksUniform, simulate } from './compare-sim.ts';

const argv = process.argv.slice(2);
const prsAt = argv.indexOf('--prs');
const nullPrs = prsAt >= 0 ? Number(argv[prsAt + 1]) : 400;
const jsonAt = argv.indexOf('--json');
const jsonOut = jsonAt >= 0 ? argv[jsonAt + 1] : undefined;
if (!Number.isInteger(nullPrs) || nullPrs < 2 || (jsonAt >= 0 && jsonOut === undefined)) {
  console.error('usage: npm run sim -- [--prs N] [--json out.json]');
  process.exit(2);
}

const started = performance.now();
const quiet = simulate(nullPrs, 1, ISSUE_SHAPE, 0);
const shifted = simulate(Math.floor(nullPrs / 2), 1_000_000, ISSUE_SHAPE, -0.05);
const seconds = (performance.now() - started) / 1000;

const ks = ksUniform(quiet.pValues);
const figures = {
  shape: ISSUE_SHAPE,
  nullPrs: quiet.prs,
  falseBlocks: quiet.blocked,
  falseBlockRate: quiet.blocked / quiet.prs,
  blockedHolmPerRun: quiet.blockedHolmPerRun,
  blockedUncorrected: quiet.blockedUncorrected,
  rowRate: quiet.rowsFlagged / quiet.rows,
  rows: quiet.rows,
  passRateRowRate: quiet.passRatesFlagged / quiet.passRates,
  ksDistance: ks,
  ksCritical: ksCritical01(quiet.pValues.length),
  shiftedPrs: shifted.prs,
  detected: shifted.blocked,
  detectionRate: shifted.blocked / shifted.prs,
  seconds,
};
const checks: [string, boolean][] = [
  [`false blocks ≤ 7.5%`, figures.falseBlockRate <= 0.075],
  [`per-row p < 0.05 in 5% ± 1%`, Math.abs(figures.rowRate - 0.05) <= 0.01],
  [`per-row p uniform (KS at α = 0.01)`, ks < figures.ksCritical],
  [`−0.05 on every row detected ≥ 80%`, figures.detectionRate >= 0.8],
];

const pct = (rate: number): string => `${(rate * 100).toFixed(1)}%`;
console.log(
  [
    `${quiet.prs} pull requests changing nothing (${ISSUE_SHAPE.gridPoints} grid points × ${ISSUE_SHAPE.evaluators} evaluators, ${ISSUE_SHAPE.cases} cases, score noise ${ISSUE_SHAPE.noise}):`,
    `  blocked by the regression gate: ${quiet.blocked} (${pct(figures.falseBlockRate)})`,
    `  (Holm within each grid point only, as before: ${quiet.blockedHolmPerRun} (${pct(quiet.blockedHolmPerRun / quiet.prs)}); no correction: ${quiet.blockedUncorrected} (${pct(quiet.blockedUncorrected / quiet.prs)}))`,
    `  score rows with p < 0.05: ${quiet.rowsFlagged} of ${quiet.rows} (${pct(figures.rowRate)}); pass-rate rows: ${pct(figures.passRateRowRate)}`,
    `  KS distance of the score rows' p-values from uniform: ${ks.toFixed(4)} (critical at α = 0.01: ${figures.ksCritical.toFixed(4)})`,
    `${shifted.prs} pull requests lowering every score by 0.05: blocked ${shifted.blocked} (${pct(figures.detectionRate)})`,
    ...checks.map(([name, ok]) => `${ok ? 'ok  ' : 'FAIL'} ${name}`),
    `${seconds.toFixed(1)} s`,
  ].join('\n'),
);
if (jsonOut !== undefined) writeFileSync(jsonOut, `${JSON.stringify(figures, null, 2)}\n`);
if (checks.some(([, ok]) => !ok)) process.exitCode = 1;
