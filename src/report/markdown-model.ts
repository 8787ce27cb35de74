/**
 * The markdown report's model: everything about the document that does not depend on its size
 * budget, worked out once (run labels, the comparison with a baseline, the failing cases, the
 * intro lines) before the budget search renders it again and again.
 */
import type { ResultsArtifact, RunResult } from '../types/index.ts';
import { runKey } from '../shared/run-key.ts';
import { clipText } from './failure-details.ts';
import { describeRun, describeUsage, formatCount, plural } from './labels.ts';
import { codeSpan, describeOriginMarkdown, escapeMarkdownText } from './markdown-text.ts';
import { formatDuration } from './progress.ts';
import type { ReportedArtifact, ReportedCase, ReportedRun } from './reported-cases.ts';
import { runTotals } from './totals.ts';

/** How `renderMarkdownReport` titles, links and sizes the report. */
export interface MarkdownOptions {
  /** Heading, e.g. "evals: evals.yaml". */
  title: string;
  /** A hidden HTML comment placed first (the sticky-comment marker), or '' for none. */
  marker: string;
  /**
   * Hard limit on the returned text's length in characters (65,536 for a PR comment, 65,535 for
   * a check-run summary, 1 MiB for the job summary: see `github-limits.ts`). Measured in UTF-16
   * code units, which is never less than GitHub's count of characters.
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
  /**
   * Where the HTML report was written (repository-relative), said under the totals; the
   * documented workflow uploads it with actions/upload-artifact.
   */
  htmlReport?: string;
}

/** The document before it is sized: what every rendering of it shares. */
export interface ReportModel {
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

/** One run as the report shows it. */
export interface RunView {
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

/** A run next to the baseline's run with the same suite and params. */
export interface RunComparison {
  /** The baseline's run with the same suite and params; `null`: a new run. */
  baseline: RunResult | null;
  /** Case id → passed, in the baseline run. */
  before: Map<string, boolean>;
  newlyFailing: number;
  fixed: number;
}

const TITLE_MAX_CHARS = 200;
const LABEL_MAX_CHARS = 200;
const LISTED_GONE_RUNS = 10;

/** The model of the report on `artifact`, titled, linked and compared as `options` say. */
export function buildModel(artifact: ReportedArtifact, options: MarkdownOptions): ReportModel {
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
  return escapeMarkdownText(clipText(describeRun(run), LABEL_MAX_CHARS));
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
  const total = runTotals(artifact.runs);
  const runs = `${plural(total.runs, 'run')}${total.failedRuns > 0 ? ` (${formatCount(total.failedRuns)} failed)` : ''}`;
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
  if (options.htmlReport !== undefined) {
    lines.push(
      `HTML report: ${codeSpan(options.htmlReport)} (charts and every case; kept by the workflow's upload-artifact step)`,
    );
  }

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
  const parts = [
    newlyFailing > 0
      ? `**${formatCount(newlyFailing)} newly failing**`
      : `${formatCount(newlyFailing)} newly failing`,
    `${formatCount(fixed)} fixed`,
    newRuns > 0 ? plural(newRuns, 'new run') : null,
    goneCount > 0 ? `${formatCount(goneCount)} no longer run` : null,
  ].filter((part) => part !== null);
  return `Compared with the baseline${describeOriginMarkdown(baseline)}: ${parts.join(' · ')}`;
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
