/**
 * The markdown report the GitHub Action posts: the sticky PR comment, the check run's summary and
 * the job summary are all this one document, rendered under different size budgets. Pure: the
 * artifact (and an optional baseline) in, a string out.
 *
 * Everything that comes from users or models (ids, params, outputs, error messages, metadata)
 * goes through `escapeMarkdownText`, `codeSpan` or `codeBlock`, so it cannot open HTML, close the
 * `<details>`, break a table, link, or notify anyone.
 */
import type { CaseResult, EvaluatorSummary, ResultsArtifact, RunResult } from '../types/index.ts';
import { runKey } from '../shared/run-key.ts';
import {
  clipText,
  evaluationReason,
  failedEvaluations,
  outputText,
  repoPath,
  shortenText,
  showInvisible,
} from './failure-details.ts';
import {
  describeCaseFailure,
  describeFailedEvaluation,
  describeUsage,
  flakyLabel,
  formatCount,
  formatParams,
  formatPercent,
  plural,
  shortId,
} from './labels.ts';
import { formatDuration } from './progress.ts';
import type { ReportedArtifact, ReportedCase, ReportedRun } from './reported-cases.ts';

/** GitHub's limit on a PR comment body and on a check run's `output.summary`. */
export const PR_COMMENT_MAX_CHARS = 65_536;

/**
 * GitHub's limit on a step's job summary is 1 MiB of UTF-8; this is that many characters, so a
 * caller with much non-ASCII output should pass less (see `maxChars`).
 */
export const JOB_SUMMARY_MAX_CHARS = 1_048_576;

/** How `renderMarkdownReport` titles, links and sizes the report. */
export interface MarkdownOptions {
  /** Heading, e.g. "evals: evals.yaml". */
  title: string;
  /** A hidden HTML comment placed first (the sticky-comment marker), or '' for none. */
  marker: string;
  /**
   * Hard limit on the returned text's length in characters (65,536 for a PR comment and
   * check-run summary; 1 MiB for the job summary). Measured in UTF-16 code units, which is never
   * less than GitHub's count of characters.
   */
  maxChars: number;
  /** Repo-relative folder of the config ('' at the repo root), so case sources can be shown as repo paths like `evals/testsets/qa.csv:12`. */
  sourceRoot: string;
  /** An earlier results artifact to show deltas against, or null. */
  baseline: ResultsArtifact | null;
  /**
   * Trusted markdown shown under the totals, e.g. the statistical comparison with a baseline
   * (`renderComparisonMarkdown`). It counts against `maxChars` like everything else.
   */
  preamble?: string;
  /** Optional links: the workflow run, the check run. */
  links?: { run?: string; checkRun?: string };
}

// Per-case bounds: one case must never crowd out the others, and an entry's size is what the
// budget search trades against the rest of the document.
const OUTPUT_MAX_CHARS = 300;
const OUTPUT_MAX_LINES = 12;
const ERROR_MAX_CHARS = 600;
const ERROR_MAX_LINES = 8;
const REASON_MAX_CHARS = 200;
const EVALUATIONS_PER_CASE = 5;
const TITLE_MAX_CHARS = 200;
const LABEL_MAX_CHARS = 200;
/** Failing cases placed before the evaluator rows of passing runs: a few examples beat more rows. */
const PRIORITY_CASES = 5;
const LISTED_GONE_RUNS = 10;
/** Flaky cases named in a run's flaky line; the rest are counted. */
const LISTED_FLAKY_CASES = 10;

const SEE_ARTIFACT = '(see the results artifact)';

/**
 * Renders the report. The text is never longer than `options.maxChars`: when everything does not
 * fit, sections are dropped in reverse priority (failing cases beyond the first few, then the
 * evaluator rows of passing runs, then the first few cases, then the evaluator rows of failing
 * runs, then whole runs, passing ones first) and each cut says what is missing. Cuts happen
 * between blocks, never inside a tag or a code block. Ends with a newline.
 */
export function renderMarkdownReport(artifact: ReportedArtifact, options: MarkdownOptions): string {
  const model = buildModel(artifact, options);
  return fitToBudget(model, Math.max(0, Math.floor(options.maxChars)));
}

// ---------------------------------------------------------------------------------------------
// Model: everything computed once, before the budget search renders it repeatedly
// ---------------------------------------------------------------------------------------------

interface ReportModel {
  marker: string;
  /** Heading line, without the marker. */
  heading: string;
  /** Totals, links, interruption and baseline lines: always shown when anything is. */
  intro: string[];
  views: RunView[];
  /** Runs of the baseline that did not run this time (already rendered), or ''. */
  goneRuns: string;
  sourceRoot: string;
}

interface RunView {
  run: ReportedRun;
  /** `capitals · model=large temperature=0`, escaped. */
  label: string;
  /** `null` when no baseline was given at all. */
  comparison: RunComparison | null;
  failing: ReportedCase[];
  /**
   * How many of `failing` can be listed: those kept in detail, which come first (the reports
   * keep the first failing cases of a run whole, see `ReportedCase.detailed`).
   */
  listable: number;
  /** Rendered case entries, filled on demand: only the ones that fit are ever rendered. */
  entries: (string | undefined)[];
}

interface RunComparison {
  /** The baseline's run with the same suite and params; `null`: a new run. */
  baseline: RunResult | null;
  /** Case id → passed, in the baseline run. */
  before: Map<string, boolean>;
  newlyFailing: number;
  fixed: number;
}

function buildModel(artifact: ReportedArtifact, options: MarkdownOptions): ReportModel {
  const baselineRuns = new Map<string, RunResult>();
  for (const run of options.baseline?.runs ?? []) baselineRuns.set(runKey(run), run);
  const matched = new Set<string>();

  const views = artifact.runs.map((run): RunView => {
    let comparison: RunComparison | null = null;
    if (options.baseline !== null) {
      const key = runKey(run);
      const baseline = baselineRuns.get(key) ?? null;
      if (baseline !== null) matched.add(key);
      comparison = compareRuns(run, baseline);
    }
    const failing = run.cases.filter((result) => !result.passed);
    const undetailed = failing.findIndex((result) => !result.detailed);
    const listable = undetailed === -1 ? failing.length : undetailed;
    return { run, label: runLabel(run), comparison, failing, listable, entries: [] };
  });

  const gone = [...baselineRuns].filter(([key]) => !matched.has(key)).map(([, run]) => run);
  return {
    marker: options.marker,
    heading: `## ${verdictBadge(artifact)} · ${escapeMarkdownText(clipText(options.title, TITLE_MAX_CHARS))}`,
    intro: renderIntro(artifact, options, views, gone.length),
    views,
    goneRuns: renderGoneRuns(gone),
    sourceRoot: options.sourceRoot,
  };
}

function compareRuns(run: RunResult, baseline: RunResult | null): RunComparison {
  const before = new Map<string, boolean>();
  for (const result of baseline?.cases ?? []) before.set(result.id, result.passed);
  let newlyFailing = 0;
  let fixed = 0;
  for (const result of run.cases) {
    const passedBefore = before.get(result.id);
    if (passedBefore === true && !result.passed) newlyFailing++;
    if (passedBefore === false && result.passed) fixed++;
  }
  return { baseline, before, newlyFailing, fixed };
}

function runLabel(run: Pick<RunResult, 'suite' | 'params'>): string {
  const params = formatParams(run.params, ' ');
  return escapeMarkdownText(
    clipText(params ? `${run.suite} · ${params}` : run.suite, LABEL_MAX_CHARS),
  );
}

function verdictBadge(artifact: ResultsArtifact): string {
  if (artifact.interrupted) return '⚠️ interrupted';
  return artifact.verdict === 'pass' ? '✅ pass' : '❌ fail';
}

function renderIntro(
  artifact: ReportedArtifact,
  options: MarkdownOptions,
  views: readonly RunView[],
  goneCount: number,
): string[] {
  const lines: string[] = [];
  const total = { cases: 0, passed: 0, failed: 0, errored: 0 };
  for (const run of artifact.runs) {
    total.cases += run.summary.cases;
    total.passed += run.summary.passed;
    total.failed += run.summary.failed;
    total.errored += run.summary.errored;
  }
  const failedRuns = artifact.runs.filter((run) => run.verdict === 'fail').length;
  const runs = `${plural(artifact.runs.length, 'run')}${failedRuns > 0 ? ` (${formatCount(failedRuns)} failed)` : ''}`;
  lines.push(
    `**${runs}** · ${plural(total.cases, 'case')}: ${formatCount(total.passed)} passed, ` +
      `${formatCount(total.failed)} failed, ${formatCount(total.errored)} errored · ` +
      formatDuration(artifact.durationMs, true),
  );
  if (artifact.interrupted) {
    lines.push('The run was interrupted before every case finished, so the verdict is **fail**.');
  }
  if (artifact.usage !== undefined) lines.push(escapeMarkdownText(describeUsage(artifact.usage)));

  const links = [
    options.links?.run ? `[workflow run](${safeUrl(options.links.run)})` : null,
    options.links?.checkRun ? `[check run](${safeUrl(options.links.checkRun)})` : null,
  ].filter((link) => link !== null);
  if (links.length > 0) lines.push(links.join(' · '));

  if (options.baseline !== null) lines.push(renderBaselineLine(options.baseline, views, goneCount));
  if (options.preamble) lines.push(options.preamble.trim());
  return lines;
}

function renderBaselineLine(
  baseline: ResultsArtifact,
  views: readonly RunView[],
  goneCount: number,
): string {
  let newlyFailing = 0;
  let fixed = 0;
  let newRuns = 0;
  for (const view of views) {
    if (!view.comparison) continue;
    if (view.comparison.baseline === null) newRuns++;
    newlyFailing += view.comparison.newlyFailing;
    fixed += view.comparison.fixed;
  }
  const sha = baseline.git?.sha ? ` at ${codeSpan(baseline.git.sha.slice(0, 7))}` : '';
  const ref = baseline.git?.ref ? ` on ${codeSpan(baseline.git.ref)}` : '';
  const date = /^\d{4}-\d{2}-\d{2}/.exec(baseline.startedAt)?.[0];
  const parts = [
    newlyFailing > 0
      ? `**${formatCount(newlyFailing)} newly failing**`
      : `${formatCount(newlyFailing)} newly failing`,
    `${formatCount(fixed)} fixed`,
    newRuns > 0 ? plural(newRuns, 'new run') : null,
    goneCount > 0 ? `${formatCount(goneCount)} no longer run` : null,
  ].filter((part) => part !== null);
  return `Compared with the baseline${sha}${ref}${date ? ` (${date})` : ''}: ${parts.join(' · ')}`;
}

function renderGoneRuns(gone: readonly RunResult[]): string {
  if (gone.length === 0) return '';
  const listed = gone.slice(0, LISTED_GONE_RUNS).map((run) => `- ${runLabel(run)}`);
  if (gone.length > listed.length) {
    listed.push(`- … ${formatCount(gone.length - listed.length)} more`);
  }
  return [`**No longer run** (in the baseline only):`, '', ...listed].join('\n');
}

/**
 * A link target as given by the caller (the Actions run URL), made unable to end the link early
 * or to start HTML: spaces, brackets and parentheses are percent-encoded.
 */
function safeUrl(url: string): string {
  return url.replace(
    /[\s()<>[\]`"']/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}

// ---------------------------------------------------------------------------------------------
// Budget: which parts to render
// ---------------------------------------------------------------------------------------------

interface Plan {
  /** Indexes of the runs rendered; the others are counted in a note. */
  runs: ReadonlySet<number>;
  /** Indexes of the runs whose evaluator rows are rendered. */
  evaluatorRows: ReadonlySet<number>;
  /** Per run index, how many failing cases are listed. */
  cases: readonly number[];
}

/**
 * Grows the plan stage by stage, in priority order, each stage by binary search on how many
 * items of its list still fit. Every candidate is measured by rendering it, so notes about cut
 * content are always counted; the search only ever keeps a plan whose rendering fitted.
 */
function fitToBudget(model: ReportModel, maxChars: number): string {
  const indexes = model.views.map((_view, index) => index);
  const isFailing = (index: number): boolean => model.views[index]?.run.verdict === 'fail';
  const fits = (plan: Plan): boolean => renderDocument(model, plan).length <= maxChars;

  let plan: Plan = { runs: new Set(), evaluatorRows: new Set(), cases: indexes.map(() => 0) };
  if (!fits(plan)) return renderMinimal(model, maxChars);

  const runOrder = [...indexes.filter(isFailing), ...indexes.filter((i) => !isFailing(i))];
  plan = grow(plan, runOrder.length, fits, (count) => ({
    ...plan,
    runs: new Set(runOrder.slice(0, count)),
  }));

  const shown = indexes.filter((index) => plan.runs.has(index));
  const addEvaluatorRows = (order: readonly number[]): void => {
    const base = plan;
    plan = grow(base, order.length, fits, (count) => ({
      ...base,
      evaluatorRows: new Set([...base.evaluatorRows, ...order.slice(0, count)]),
    }));
  };
  const caseOrder = roundRobin(model.views, shown);
  const addCasesUpTo = (total: number): void => {
    const base = plan;
    const from = base.cases.reduce((sum, count) => sum + count, 0);
    plan = grow(base, Math.max(0, total - from), fits, (count) => ({
      ...base,
      cases: countCases(indexes.length, caseOrder, from + count),
    }));
  };

  addEvaluatorRows(shown.filter(isFailing));
  addCasesUpTo(Math.min(PRIORITY_CASES, caseOrder.length));
  addEvaluatorRows(shown.filter((index) => !isFailing(index)));
  addCasesUpTo(caseOrder.length);
  return renderDocument(model, plan);
}

/**
 * The plan for the largest `count` in [0, max] that fits, by binary search: rendered length
 * grows with `count`. `planFor(0)` is `current`, already known to fit, and is returned when
 * nothing more does.
 */
function grow(
  current: Plan,
  max: number,
  fits: (plan: Plan) => boolean,
  planFor: (count: number) => Plan,
): Plan {
  let best = current;
  let low = 0;
  let high = max;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    const candidate = planFor(mid);
    if (fits(candidate)) {
      best = candidate;
      low = mid;
    } else {
      high = mid - 1;
    }
  }
  return best;
}

/**
 * Failing cases in listing priority: the first of every run, then the second of every run, and
 * so on, so one grid point's long list does not hide every other run's failures. Each entry is a
 * run index.
 */
function roundRobin(views: readonly RunView[], runs: readonly number[]): number[] {
  const order: number[] = [];
  const longest = Math.max(0, ...runs.map((index) => views[index]?.listable ?? 0));
  for (let round = 0; round < longest; round++) {
    for (const index of runs) {
      if ((views[index]?.listable ?? 0) > round) order.push(index);
    }
  }
  return order;
}

/** Per run index, how many of the first `total` entries of `order` belong to it. */
function countCases(runCount: number, order: readonly number[], total: number): number[] {
  const counts = new Array<number>(runCount).fill(0);
  for (const index of order.slice(0, total)) counts[index] = (counts[index] ?? 0) + 1;
  return counts;
}

/**
 * When not even the heading and totals fit (a budget of a few hundred characters): the marker
 * and the verdict, then the verdict alone, then nothing. Still a valid document at every step.
 */
function renderMinimal(model: ReportModel, maxChars: number): string {
  const candidates = [
    [model.marker, model.heading, '', model.intro[0] ?? ''],
    [model.marker, model.heading],
    [model.heading],
  ].map((lines) => `${lines.filter((line, i) => i > 0 || line !== '').join('\n')}\n`);
  return candidates.find((text) => text.length <= maxChars) ?? '';
}

// ---------------------------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------------------------

function renderDocument(model: ReportModel, plan: Plan): string {
  const blocks: string[] = [];
  blocks.push(model.marker ? `${model.marker}\n${model.heading}` : model.heading);
  blocks.push(model.intro.join('\n\n'));
  model.views.forEach((view, index) => {
    if (!plan.runs.has(index)) return;
    blocks.push(renderRun(view, plan.evaluatorRows.has(index), plan.cases[index] ?? 0, model));
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
  if (model.goneRuns) blocks.push(model.goneRuns);
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

function renderRun(
  view: RunView,
  withEvaluators: boolean,
  shownCases: number,
  model: ReportModel,
): string {
  const { run, comparison } = view;
  const before = comparison?.baseline ?? null;
  const blocks: string[] = [];

  const icon = run.verdict === 'pass' ? '✅' : '❌';
  const isNew = comparison !== null && before === null;
  blocks.push(`### ${icon} ${view.label}${isNew ? ' · new run' : ''}`);

  const { summary } = run;
  const rows = [
    '| | mean | pass rate | passed | failed | errored |',
    '| :-- | --: | --: | --: | --: | --: |',
    tableRow([
      `**${plural(summary.cases, 'case')}**`,
      '',
      compareRate(summary.passRate, before ? before.summary.passRate : undefined),
      formatCount(summary.passed),
      formatCount(summary.failed),
      formatCount(summary.errored),
    ]),
  ];
  const evaluators = Object.entries(summary.evaluators);
  if (withEvaluators) {
    for (const [id, stats] of evaluators) {
      rows.push(evaluatorRow(id, stats, before, comparison !== null));
    }
  }
  blocks.push(rows.join('\n'));
  if (!withEvaluators && evaluators.length > 0) {
    blocks.push(`_${plural(evaluators.length, 'evaluator row')} not shown_`);
  }

  if (comparison !== null && before !== null && comparison.newlyFailing + comparison.fixed > 0) {
    const newly = `${formatCount(comparison.newlyFailing)} newly failing`;
    blocks.push(
      `vs baseline: ${comparison.newlyFailing > 0 ? `**${newly}**` : newly} · ${formatCount(comparison.fixed)} fixed`,
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

  const failingBlock = renderFailingCases(view, shownCases, model.sourceRoot);
  if (failingBlock) blocks.push(failingBlock);
  return blocks.join('\n\n');
}

function evaluatorRow(
  id: string,
  stats: EvaluatorSummary,
  before: RunResult | null,
  compared: boolean,
): string {
  const previous = before ? (before.summary.evaluators[id] ?? null) : undefined;
  // An evaluator the baseline run did not have: say so rather than show a delta from nothing.
  const isNew = compared && before !== null && previous === null;
  return tableRow([
    `${escapeMarkdownText(id)}${isNew ? ' (new)' : ''}`,
    compareMean(stats.mean, previous ? previous.mean : undefined),
    compareRate(stats.passRate, previous ? previous.passRate : undefined),
    formatCount(stats.passed),
    formatCount(stats.failed),
    formatCount(stats.errors),
  ]);
}

/** Cells are already escaped; a row is one line, so no cell can hold a newline. */
function tableRow(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

/**
 * `0.860`; against a baseline value (`undefined`: none) `0.812 → 0.860 (+0.048)`, or
 * `0.860 (±0.000)` when nothing changed at the shown precision.
 */
function compareMean(value: number | null, previous: number | null | undefined): string {
  return compare(
    value,
    previous,
    (v) => v.toFixed(3),
    (delta) => signed(delta, 3),
  );
}

/** `86.0%`; against a baseline rate `80.0% → 86.0% (+6.0 pp)`. */
function compareRate(value: number | null, previous: number | null | undefined): string {
  return compare(value, previous, formatPercent, (delta) => `${signed(delta * 100, 1)} pp`);
}

function compare(
  value: number | null,
  previous: number | null | undefined,
  format: (value: number) => string,
  formatDelta: (delta: number) => string,
): string {
  const now = value === null ? '—' : format(value);
  if (previous === undefined || (previous === null && value === null)) return now;
  if (previous === null || value === null) {
    return `${previous === null ? '—' : format(previous)} → ${now}`;
  }
  const delta = formatDelta(value - previous);
  return format(previous) === now && delta.startsWith('±')
    ? `${now} (${delta})`
    : `${format(previous)} → ${now} (${delta})`;
}

/** `+0.048`, `-0.120`, `±0.000` (a change too small to show is not shown as a gain or a loss). */
function signed(delta: number, digits: number): string {
  const text = Math.abs(delta).toFixed(digits);
  if (Number(text) === 0) return `±${text}`;
  return `${delta > 0 ? '+' : '-'}${text}`;
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

function renderFailingCases(view: RunView, shown: number, sourceRoot: string): string {
  const total = view.failing.length;
  if (total === 0) return '';
  if (shown === 0) return `_${plural(total, 'failing case')} not shown_`;
  const errored = view.failing.filter((result) => result.error !== null).length;
  const summary = `${plural(total, 'failing case')}${errored > 0 ? ` (${formatCount(errored)} errored)` : ''}`;
  const entries: string[] = [];
  for (let i = 0; i < Math.min(shown, view.listable); i++) {
    entries.push(caseEntry(view, i, sourceRoot));
  }
  const blocks = [`<details><summary>${summary}</summary>`, entries.join('\n')];
  if (shown < total) {
    blocks.push(`… ${plural(total - shown, 'more failing case')} not shown ${SEE_ARTIFACT}`);
  }
  // The blank line before `</details>` ends the list, so the tag is read as HTML, not as text of
  // the last item.
  blocks.push('</details>');
  return blocks.join('\n\n');
}

function caseEntry(view: RunView, index: number, sourceRoot: string): string {
  const cached = view.entries[index];
  if (cached !== undefined) return cached;
  const result = view.failing[index];
  const entry = result === undefined ? '' : renderCase(result, view.comparison, sourceRoot);
  view.entries[index] = entry;
  return entry;
}

/**
 * One failing case as a list item: id, source, status and how it compares with the baseline;
 * one sub-item per failing evaluation with its reason; then the output (or the function's
 * error) in a code block, shortened.
 */
function renderCase(
  result: CaseResult,
  comparison: RunComparison | null,
  sourceRoot: string,
): string {
  const errored = result.error !== null;
  const source = result.source
    ? codeSpan(`${repoPath(sourceRoot, result.source.file)}:${result.source.line}`)
    : 'no source';
  const head = [codeSpan(shortId(result.id)), source, errored ? '**errored**' : '**failed**'];
  const flaky = flakyLabel(result);
  if (flaky !== null) head.push(flaky);
  if (comparison?.baseline) {
    const before = comparison.before.get(result.id);
    if (before === true) head.push('newly failing');
    else if (before === undefined) head.push('new case');
  }
  const lines = [`- ${head.join(' · ')}`];

  if (errored) {
    lines.push(
      '',
      codeBlock(shortenText(result.error ?? '', ERROR_MAX_CHARS, ERROR_MAX_LINES), '  '),
    );
    return lines.join('\n');
  }

  const failed = failedEvaluations(result);
  const reasons =
    failed.length === 0
      ? describeCaseFailure(result).map(escapeMarkdownText)
      : failed.slice(0, EVALUATIONS_PER_CASE).map((evaluation) => {
          const reason = evaluationReason(evaluation);
          const text = escapeMarkdownText(describeFailedEvaluation(evaluation));
          return reason === null
            ? text
            : `${text} — ${escapeMarkdownText(shortenText(reason, REASON_MAX_CHARS))}`;
        });
  if (failed.length > EVALUATIONS_PER_CASE) {
    reasons.push(`… ${formatCount(failed.length - EVALUATIONS_PER_CASE)} more`);
  }
  lines.push(...reasons.map((reason) => `  - ${reason}`));
  lines.push(
    '',
    codeBlock(shortenText(outputText(result.output), OUTPUT_MAX_CHARS, OUTPUT_MAX_LINES), '  '),
  );
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Escaping
// ---------------------------------------------------------------------------------------------

const LINE_BREAKS = /\r\n?|[\n\u2028\u2029]/g;

/** `&`, `<`, `>` as entities (no HTML at all); the rest of the markdown punctuation backslashed. */
const MARKDOWN_SPECIAL = /[\\`*_[\]|~$!#<>&]/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** Zero-width: invisible when rendered, but GitHub's autolinkers no longer see the pattern. */
const ZWJ = '\u200d';
const ZWSP = '\u200b';

/**
 * Makes user text safe as markdown prose or a table cell, on one line: it shows as written and
 * cannot start a block (heading, list, quote), open or close HTML (`<details>` included), make
 * emphasis, code, math, links or images, split a table cell, mention a user or team, or
 * reference an issue.
 *
 * - line breaks and tabs become spaces; controls and bidi overrides show as `\uXXXX`;
 * - `&` `<` `>` become entities; `` \ ` * _ [ ] | ~ $ ! # `` are backslash-escaped (inside a
 *   table, GitHub splits cells only at a pipe that is not escaped);
 * - a leading `-`, `+`, `=` or `1.`/`1)` (then a space) is escaped so it cannot start a list or an underline;
 * - `@` gets a zero-width joiner after it (no mention), `#1`/`GH-1` a zero-width space before
 *   the number (no issue reference), `://` and `www.` one inside (no autolink).
 */
export function escapeMarkdownText(text: string): string {
  return showInvisible(text.replace(LINE_BREAKS, ' ').replace(/\t/g, ' '))
    .replace(MARKDOWN_SPECIAL, (char) => ENTITIES[char] ?? `\\${char}`)
    .replace(/^(\s*)([-+=])/, '$1\\$2')
    .replace(/^(\s*\d{1,9})([.)])(?=\s|$)/, '$1\\$2')
    .replace(/@/g, `@${ZWJ}`)
    .replace(/#(?=\d)/g, `#${ZWSP}`)
    .replace(/\b(gh)-(?=\d)/gi, `$1-${ZWSP}`)
    .replace(/:\/\//g, `:${ZWSP}//`)
    .replace(/\bwww\./gi, `www${ZWSP}.`);
}

/**
 * User text as inline code, on one line. The fence is one backtick longer than the longest run
 * of backticks inside, so nothing inside can close it; markdown, HTML, mentions and references
 * are inert in code. Not for table cells: a `|` inside would still split the cell.
 */
export function codeSpan(text: string): string {
  const flat = showInvisible(text.replace(LINE_BREAKS, ' '));
  if (flat === '') return '` `';
  const fence = '`'.repeat(longestRun(flat, '`') + 1);
  // A code span drops one space from each end, and a backtick at an end would join the fence.
  const pad =
    flat.startsWith('`') ||
    flat.endsWith('`') ||
    (flat.startsWith(' ') && flat.endsWith(' ') && flat.trim() !== '')
      ? ' '
      : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/**
 * User text as a fenced code block, every line prefixed with `indent` (so it stays inside a list
 * item). The fence is longer than any backtick run inside, so no line of the text can close it.
 */
export function codeBlock(text: string, indent = ''): string {
  const body = showInvisible(text.replace(/\r\n?/g, '\n'));
  const fence = '`'.repeat(Math.max(3, longestRun(body, '`') + 1));
  const lines = body.split('\n').map((line) => (line === '' ? '' : `${indent}${line}`));
  return [`${indent}${fence}`, ...lines, `${indent}${fence}`].join('\n');
}

function longestRun(text: string, char: string): number {
  let longest = 0;
  let current = 0;
  for (const c of text) {
    current = c === char ? current + 1 : 0;
    if (current > longest) longest = current;
  }
  return longest;
}
