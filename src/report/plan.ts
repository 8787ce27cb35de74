/**
 * A run's plan as `evals run --dry-run` prints it: per suite what produces the outputs, the
 * testset, the runs (grid points × cases × trials), the evaluators and the model calls the
 * built-in judges make at most; then the totals. Pure: the plan in, text out.
 */
import { caseExecutionsToRun, NO_CASES_NOTE, suitesWithoutCases } from '../plan/plan.ts';
import type { PlannedEvaluator, RunPlan, SuitePlan } from '../plan/types.ts';
import { formatCount, formatParams, plural } from './labels.ts';
import { printable, textWidth } from '../shared/text-table.ts';
import { fitBeside } from './case-text.ts';

/** How many grid points a suite's plan names one by one before it counts the rest. */
const LISTED_POINTS = 6;

/**
 * The plan as text, ending with a newline; the line of grid points cut to fit `width` (the
 * terminal's, when known). Cut before it is scrubbed: the scrubber finds a secret cut by `…`.
 */
export function renderPlan(plan: RunPlan, width?: number): string {
  const lines: string[] = [`Plan of ${plan.config}${planNotes(plan)}`, ''];
  let runs = 0;
  let executions = 0;
  let calls = 0;
  const uncounted = new Set<string>();
  const empty = new Set(suitesWithoutCases(plan));
  for (const suite of plan.suites) {
    lines.push(...renderSuite(suite, empty.has(suite), width), '');
    runs += suite.runs.length;
    executions += caseExecutionsToRun(suite);
    calls += suite.modelCalls.perCase * caseExecutionsToRun(suite);
    for (const part of suite.modelCalls.unknown) uncounted.add(`${suite.id}: ${part}`);
  }
  lines.push(
    `Total: ${plural(plan.suites.length, 'suite')}, ${plural(runs, 'run')}, ` +
      `${plural(executions, 'case execution')} to run, at most ${plural(calls, 'model call')} ` +
      `from model targets and built-in judges${uncounted.size > 0 ? ' (calls made by code, commands and HTTP endpoints are not counted)' : ''}`,
    'Nothing was run (--dry-run).',
  );
  return `${lines.join('\n')}\n`;
}

function planNotes(plan: RunPlan): string {
  const notes = [
    ...(plan.shard ? [`shard ${plan.shard.index}/${plan.shard.count}`] : []),
    ...(plan.resume
      ? [`resuming ${plan.resume.from}: ${plural(plan.resume.kept, 'case result')} kept`]
      : []),
  ];
  return notes.length > 0 ? ` (${notes.join('; ')})` : '';
}

function renderSuite(suite: SuitePlan, failsEmpty: boolean, width?: number): string[] {
  const { testset } = suite;
  const where = testset.path === null ? 'inline cases' : testset.path;
  const at = testset.ref === null ? '' : ` at ${testset.ref}`;
  const cases = suite.runs[0]?.cases.length ?? 0;
  // A case taken over from an interrupted run brings all its trials with it.
  const takenOver = suite.runs.reduce((sum, run) => sum + (run.done?.size ?? 0), 0) * suite.trials;
  const lines = [
    `${suite.id}: ${suite.target}`,
    `  testset     ${where}${at} · revision ${testset.revision.slice(0, 12)} · ${plural(suite.rows, 'row')}` +
      (cases === suite.rows ? '' : `, ${formatCount(cases)} selected`),
    `  runs        ${plural(suite.runs.length, 'grid point')} × ${plural(cases, 'case')} × ` +
      `${plural(suite.trials, 'trial')} = ${plural(caseExecutionsToRun(suite) + takenOver, 'case execution')}` +
      (takenOver > 0
        ? `, ${formatCount(takenOver)} taken over from the interrupted run, ${formatCount(caseExecutionsToRun(suite))} to run`
        : ''),
  ];
  if (failsEmpty) lines.push(`  warning     ${NO_CASES_NOTE}`);
  const points = suite.runs
    .map((run) => printable(formatParams(run.params, ' ')))
    .filter((p) => p !== '');
  if (points.length > 0) {
    const listed = points.slice(0, LISTED_POINTS).join(' · ');
    const more =
      points.length > LISTED_POINTS
        ? ` · … ${formatCount(points.length - LISTED_POINTS)} more`
        : '';
    // Long grid values give way to fit the terminal, cut in the middle of the list.
    lines.push(`              ${fitBeside(listed, 14 + textWidth(more), width)}${more}`);
  }
  lines.push(
    `  concurrency ${suite.concurrency} cases in flight, ` +
      (suite.timeoutMs === null ? 'no time limit' : `${formatCount(suite.timeoutMs)} ms a call`),
    `  evaluators  ${
      suite.evaluators.length === 0 ? 'none' : suite.evaluators.map(plannedEvaluatorText).join(', ')
    }`,
    `  model calls at most ${formatCount(suite.modelCalls.perCase * caseExecutionsToRun(suite))}` +
      (suite.modelCalls.unknown.length > 0 ? ' counted' : '') +
      (suite.modelCalls.perCase > 0
        ? ` (${plural(suite.modelCalls.perCase, 'call')} a case execution)`
        : '') +
      uncountedText(suite.modelCalls.unknown),
  );
  return lines;
}

/**
 * What may call models uncounted, said as that: a bare "at most 0; not counted: evaluator
 * IsFriendly" read as "IsFriendly makes no calls" for an SDK judge class named in evals.yaml.
 */
function uncountedText(unknown: readonly string[]): string {
  if (unknown.length === 0) return '';
  const last = unknown.at(-1) ?? '';
  const listed = unknown.length === 1 ? last : `${unknown.slice(0, -1).join(', ')} and ${last}`;
  return `; not counted: ${listed} may make model calls of ${unknown.length === 1 ? 'its' : 'their'} own`;
}

/** `exact`, `tone (llm-judge at http://127.0.0.1:8000/v1)`: an evaluator as the plan lists it. */
function plannedEvaluatorText(evaluator: PlannedEvaluator): string {
  const { id, use, callsTo } = evaluator;
  const what = [...(id === use ? [] : [use]), ...(callsTo !== undefined ? [callsTo] : [])];
  return what.length === 0 ? id : `${id} (${what.join(' ')})`;
}
