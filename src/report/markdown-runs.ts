/**
 * The markdown report for one plan of what fits: the heading, the verdict sentence and the
 * compact table, the intro and the comparison's details, then per run its counts and evaluator
 * table, failed gate conditions, flaky cases and failing cases, then notes on what was left out.
 */
import type { EvaluatorSummary, RunResult } from '../types/index.ts';
import { flakyLabel, formatCount, formatMean, formatPercent, plural, shortId } from './labels.ts';
import { renderFailingCases, SEE_ARTIFACT, type ShownRepeats } from './markdown-cases.ts';
import type { ReportModel, RunView } from './markdown-model.ts';
import { codeSpan, escapeMarkdownText, tableRow } from './markdown-text.ts';
import { agreementLine, agreementsOf } from './agreement-text.ts';

/** Which parts of the model one rendering shows. */
export interface Plan {
  /** Indexes of the runs rendered; the others are counted in a note. */
  runs: ReadonlySet<number>;
  /** Indexes of the runs whose evaluator rows are rendered. */
  evaluatorRows: ReadonlySet<number>;
  /** Per run index, how many failing cases are listed. */
  cases: readonly number[];
}

/** Flaky cases named in a run's flaky line; the rest are counted. */
const LISTED_FLAKY_CASES = 10;

/** The whole document for `plan`, ending with a newline. */
export function renderDocument(model: ReportModel, plan: Plan): string {
  const blocks: string[] = [];
  blocks.push(model.marker ? `${model.marker}\n${model.heading}` : model.heading);
  blocks.push(model.verdict);
  if (model.overview) blocks.push(model.overview);
  blocks.push(model.intro.join('\n\n'));
  if (model.comparison) blocks.push(model.comparison);
  const repeats = shownRepeats(model.views, plan);
  model.views.forEach((view, index) => {
    if (!plan.runs.has(index)) return;
    blocks.push(
      renderRun(view, plan.evaluatorRows.has(index), plan.cases[index] ?? 0, model, repeats),
    );
  });
  const hidden = model.views.length - plan.runs.size;
  if (hidden > 0) {
    const failing = model.views.filter(
      (view, index) => !plan.runs.has(index) && view.run.verdict === 'fail',
    ).length;
    const runs = plan.runs.size > 0 ? plural(hidden, 'more run') : plural(hidden, 'run');
    const ofThem = failing > 0 ? `, ${formatCount(failing)} of them failing` : '';
    blocks.push(`… ${runs} not shown${ofThem} ${SEE_ARTIFACT}`);
  }
  // Per-run notes stay short (there can be hundreds); one line says where the rest is.
  const cutInRuns = model.views.some(
    (view, index) =>
      plan.runs.has(index) &&
      ((!plan.evaluatorRows.has(index) && Object.keys(view.run.summary.evaluators).length > 0) ||
        (view.failing.length > 0 && (plan.cases[index] ?? 0) === 0)),
  );
  if (cutInRuns) blocks.push(`_What is not shown here is in the results artifact._`);
  return `${blocks.join('\n\n')}\n`;
}

/** For each repeated failure, the entry `plan` renders first: the one shown whole. */
function shownRepeats(views: readonly RunView[], plan: Plan): ShownRepeats {
  const shown = new Map<number, { view: RunView; index: number }>();
  views.forEach((view, runIndex) => {
    if (!plan.runs.has(runIndex)) return;
    const count = Math.min(plan.cases[runIndex] ?? 0, view.listable);
    for (let index = 0; index < count; index++) {
      const repeat = view.repeats.get(index);
      if (repeat !== undefined && !shown.has(repeat.group))
        shown.set(repeat.group, { view, index });
    }
  });
  return shown;
}

function renderRun(
  view: RunView,
  withEvaluators: boolean,
  shownCases: number,
  model: ReportModel,
  repeats: ShownRepeats,
): string {
  const { run } = view;
  const blocks: string[] = [];

  const icon = run.verdict === 'pass' ? '✅' : '❌';
  blocks.push(`### ${icon} ${view.label}`);

  const { summary } = run;
  const rows = [
    '| | mean | pass rate | passed | failed | errored |',
    '| :-- | --: | --: | --: | --: | --: |',
    tableRow([
      `**${plural(summary.cases, 'case')}**`,
      '',
      orDash(summary.passRate, formatPercent),
      formatCount(summary.passed),
      formatCount(summary.failed),
      formatCount(summary.errored),
    ]),
  ];
  const evaluators = Object.entries(summary.evaluators);
  if (withEvaluators) {
    for (const [id, stats] of evaluators) rows.push(evaluatorRow(id, stats));
  }
  blocks.push(rows.join('\n'));
  if (!withEvaluators && evaluators.length > 0) {
    blocks.push(`_${plural(evaluators.length, 'evaluator row')} not shown_`);
  }
  const agreements = agreementsOf(summary.evaluators);
  if (agreements.length > 0) {
    blocks.push(
      agreements.map(([id, a]) => `- ${escapeMarkdownText(agreementLine(id, a))}`).join('\n'),
    );
  }

  const failedConditions = run.gate.conditions.filter((condition) => !condition.passed);
  if (failedConditions.length > 0) {
    blocks.push(
      failedConditions
        .map(
          (condition) =>
            `- ✗ ${escapeMarkdownText(condition.name)}: expected ${escapeMarkdownText(condition.expected)}, got ${escapeMarkdownText(condition.actual)}`,
        )
        .join('\n'),
    );
  }

  const flakyLine = renderFlakyLine(run);
  if (flakyLine) blocks.push(flakyLine);

  const failingBlock = renderFailingCases(view, shownCases, model.sourceRoot, repeats);
  if (failingBlock) blocks.push(failingBlock);
  return blocks.join('\n\n');
}

function evaluatorRow(id: string, stats: EvaluatorSummary): string {
  return tableRow([
    escapeMarkdownText(id),
    orDash(stats.mean, formatMean),
    orDash(stats.passRate, formatPercent),
    formatCount(stats.passed),
    formatCount(stats.failed),
    formatCount(stats.errors),
  ]);
}

/** `0.860` or `86.0%`; `—` when there is no value (no case scored, no threshold). */
function orDash(value: number | null, format: (value: number) => string): string {
  return value === null ? '—' : format(value);
}

/**
 * With trials: `**2 flaky cases** (…): `a1b2c3` 2/3 · `d4e5f6` 1/3`, passed and failed ones
 * alike, each with its trials passed / run; '' when no case is flaky. Bounded, so it never
 * competes with the failing cases for the budget.
 */
function renderFlakyLine(run: RunResult): string {
  const flaky = run.cases.filter((result) => result.flaky === true);
  if (flaky.length === 0) return '';
  const listed = flaky.slice(0, LISTED_FLAKY_CASES).map((result) => {
    const rate = (flakyLabel(result) ?? '').replace(/^flaky /, '');
    return `${codeSpan(shortId(result.id))} ${rate}`;
  });
  if (flaky.length > listed.length)
    listed.push(`… ${formatCount(flaky.length - listed.length)} more`);
  return `**${plural(flaky.length, 'flaky case')}** (passed some trials, failed others; trials passed): ${listed.join(' · ')}`;
}
