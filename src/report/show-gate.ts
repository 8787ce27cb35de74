/**
 * Why a run failed when `evals show --failed` (or another status flag) finds no case to show:
 * an interrupted run whose finished cases all passed, or a gate condition (a mean, a pass rate)
 * that failed while every case passed. Show must never say "nothing failed" about a failed run.
 * Pure: the command hands in the runs it selected and their case counts.
 */
import type { Painter } from './ansi.ts';
import { describeRun, formatCount, plural } from './labels.ts';
import { printable } from '../shared/text-table.ts';
import type { RunResult } from '../types/index.ts';

/** A selected run, with how many cases the artifact holds for it (its `cases` may be unread). */
export interface ShownRun {
  run: Pick<RunResult, 'suite' | 'params' | 'verdict' | 'gate' | 'testset'>;
  cases: number;
}

/**
 * The lines saying why the selected runs failed, after `none` (what matched nothing, such as
 * `no case did not pass in the runs selected`); just `none` when every run passed and the
 * artifact is complete. Each failing run is named with its failing gate conditions, worded as
 * the run's summary words them, and an interrupted run says how many planned cases never ran
 * and the command that runs them (`resumePath`: the artifact as the user named it).
 */
export function whyRunsFailed(
  none: string,
  runs: readonly ShownRun[],
  interrupted: boolean,
  resumePath: string,
  paint: Painter,
): string {
  const failed = runs.filter(({ run }) => run.verdict === 'fail');
  if (failed.length === 0 && !interrupted) return none;
  const lines: string[] = [];
  const who = failed.length <= 1 ? 'the run' : `${formatCount(failed.length)} runs`;
  lines.push(`${none}, but ${who} failed:`);
  for (const { run, cases } of failed) {
    lines.push(`  ${printable(describeRun(run))}`);
    for (const condition of run.gate.conditions.filter((c) => !c.passed)) {
      const text = `${printable(condition.name)}: expected ${printable(condition.expected)}, got ${printable(condition.actual)}`;
      lines.push(`    ${paint.red('✗')} ${text}`);
    }
    if (cases < run.testset.cases) {
      const missing = run.testset.cases - cases;
      lines.push(
        `    interrupted: ${formatCount(missing)} of its ${plural(run.testset.cases, 'planned case')} never ran`,
      );
    }
  }
  if (interrupted) {
    lines.push(
      `  the run was interrupted (interrupted: true): it fails whatever its finished cases did; evals run --resume ${printable(resumePath)} runs what is left`,
    );
  }
  return lines.join('\n');
}
