/**
 * Why a grid point's newly failing cases are an alarm, in plain words. A bold, open list that
 * does not say why it is bold reads as the old one that was bold in every pull request, noise
 * included: so every form says under an alarm's heading its reasons, the same ones that decide
 * it (`newlyFailingAlarm` is "some reason"), and heads a folded list with what the pass rate can
 * tell.
 */
import { formatP } from './comparison-numbers.ts';
import { formatCount, plural } from './labels.ts';
import { shownLabel } from './shown-label.ts';
import type { RunComparison } from '../types/comparison.ts';

/** The parts of a run its reasons are read from. */
export type AlarmRun = Pick<
  RunComparison,
  'passRate' | 'evaluators' | 'verdicts' | 'trialsAgreed'
> &
  Partial<Pick<RunComparison, 'evaluatorsOnlyInHead'>>;

/**
 * One reason: `key`, the words that stand for it over several grid points (no numbers, so equal
 * reasons of two grid points merge); `text`, what one grid point says, with its figures.
 */
export interface AlarmReason {
  key: string;
  text: string;
}

/**
 * Why the newly failing cases of `run` are an alarm, the most concrete first; [] when they are
 * none. A judge's agreement κ is left out: it measures the judge against people, not whether
 * cases pass.
 */
export function alarmReasons(run: AlarmRun): AlarmReason[] {
  const reasons: AlarmReason[] = [];
  if (run.verdicts?.base === 'pass' && run.verdicts.head === 'fail') {
    // The grid point passed its gate in BASE and fails it now: these cases are likely why.
    const key = 'passed its gate in BASE and fails it now';
    reasons.push({ key, text: `the grid point ${key}` });
  }
  const rows = [run.passRate, ...run.evaluators];
  for (const row of rows) {
    const name = 'evaluator' in row ? row.evaluator : 'pass rate';
    const shown = shownLabel(row);
    // The figure the verdict rests on: Holm's p for a regression (what the gate acts on), the
    // q-value for a possible one.
    // A pass rate that counts evaluators BASE did not run may have fallen by them alone.
    const added = 'evaluator' in row ? '' : addedEvaluators(run);
    if (shown === 'regressed') {
      const holm = row.adjustedP === null ? '' : `, Holm ${formatP(row.adjustedP)}`;
      reasons.push({ key: `${name} regressed${added}`, text: `${name} regressed${holm}${added}` });
    } else if (shown === 'possible regression') {
      const q = row.qValue === null ? '' : `, q ${formatP(row.qValue).slice(2)}`;
      const key = `${name} possibly regressed${added}`;
      reasons.push({ key, text: `${name} possibly regressed${q}${added}` });
    }
  }
  if (run.trialsAgreed === true) {
    // No trial ever disagreed with another: there is no run-to-run noise for a flip to be.
    const key = 'every trial agreed in BASE and in HEAD so each flip is a real change';
    reasons.push({ key, text: key });
  }
  if (run.passRate.label === 'too few cases') {
    const key = 'too few paired cases to tell these flips from noise';
    const text = `${plural(run.passRate.paired, 'paired case')}: too few to tell these flips from noise`;
    reasons.push({ key, text });
  }
  return reasons;
}

/**
 * `, though HEAD adds evaluator f, which BASE did not check` when HEAD runs evaluators BASE did not:
 * a case failing one of them fails now without having changed, so the pass rate's drop may be
 * the new check, not a regression. '' otherwise.
 */
function addedEvaluators(run: AlarmRun): string {
  const ids = run.evaluatorsOnlyInHead ?? [];
  if (ids.length === 0) return '';
  const named = ids.length === 1 ? 'evaluator' : 'evaluators';
  return `, though HEAD adds ${named} ${ids.join(', ')}, which BASE did not check`;
}

/**
 * Why alarmed newly failing cases are an alarm, a line each, for the runs they come from: one
 * grid point's reasons with their figures (`pass rate regressed, Holm p = 0.010`), or over
 * several each reason once after the grid points it holds at (`at each of the 2 grid points:
 * passed its gate in BASE and fails it now; pass rate regressed`, `at 1 grid point: e0
 * regressed`). Said under the list's heading, which stays `Newly failing (3)`: several reasons
 * after the count made a heading of a paragraph. [] when none is an alarm.
 */
export function alarmLines(runs: readonly AlarmRun[]): string[] {
  const each = runs.map(alarmReasons).filter((reasons) => reasons.length > 0);
  const [only] = each;
  if (each.length === 1 && only !== undefined) return only.map((r) => r.text);
  const counts = new Map<string, number>();
  for (const reasons of each) {
    for (const { key } of reasons) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  // Reasons that hold at as many grid points said together, the widest first.
  const byCount = new Map<number, string[]>();
  for (const [key, n] of counts) byCount.set(n, [...(byCount.get(n) ?? []), key]);
  return [...byCount]
    .sort(([a], [b]) => b - a)
    .map(([n, keys]) => {
      const where =
        n === each.length ? `each of the ${formatCount(n)} grid points` : plural(n, 'grid point');
      return `at ${where}: ${keys.join('; ')}`;
    });
}

/** {@link alarmLines} on one line, `; ` between them; '' when none is an alarm. */
export function alarmAside(runs: readonly AlarmRun[]): string {
  return alarmLines(runs).join('; ');
}

/** What every form says before an alarm's reasons, under its heading. */
export const ALARM_LEAD = 'an alarm because:';
