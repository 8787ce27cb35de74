/**
 * The markdown report's model: everything about the document that does not depend on its size
 * budget, worked out once (run labels, the statistical comparison with a baseline, the failing
 * cases, the intro lines) before the budget search renders it again and again.
 */
import type { Comparison, RunRef } from '../types/comparison.ts';
import type { CaseResult, RunResult } from '../types/index.ts';
import { runKey } from '../shared/run-key.ts';
import { comparisonDetails, comparisonHeadline, comparisonTable } from './comparison-markdown.ts';
import { clipText, failureReasons, outputText } from './failure-details.ts';
import { describeRun, describeUsage, formatCount, plural } from './labels.ts';
import type { Repeat } from './markdown-cases.ts';
import { pointName, runTable, verdictSentence } from './markdown-overview.ts';
import { codeSpan, escapeMarkdownText } from './markdown-text.ts';
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
  /** The one sentence with the verdict and why: the first paragraph. */
  verdict: string;
  /** The compact table under it (the statistical comparison's, else the runs'), or ''. */
  overview: string;
  /** The statistical comparison's case tables and statistics, sized to the budget, or ''. */
  comparison: string;
  /** Totals, links and interruption lines: always shown when anything is. */
  intro: string[];
  views: RunView[];
  sourceRoot: string;
}

/** One run as the report shows it. */
export interface RunView {
  run: ReportedRun;
  /** `capitals · model=large temperature=0`, escaped. */
  label: string;
  failing: ReportedCase[];
  /**
   * How many of `failing` can be listed: those kept in detail, which come first (the reports
   * keep the first failing cases of a run whole, see `ReportedCase.detailed`).
   */
  listable: number;
  /** Rendered case entries, filled on demand (see `caseEntry`): only those that fit are rendered. */
  entries: Map<string, string>;
  /** By index in `failing`: failures this run shares with other grid points. */
  repeats: Map<number, Repeat>;
}

const TITLE_MAX_CHARS = 200;
const LABEL_MAX_CHARS = 200;

/** The model of the report on `artifact`, titled, linked and compared as `options` say. */
export function buildModel(artifact: ReportedArtifact, options: MarkdownOptions): ReportModel {
  const views = artifact.runs.map((run): RunView => {
    const failing = run.cases.filter((result) => !result.passed);
    const undetailed = failing.findIndex((result) => !result.detailed);
    const listable = undetailed === -1 ? failing.length : undetailed;
    const view = { run, label: runLabel(run), failing, listable, entries: new Map() };
    return { ...view, repeats: new Map() };
  });
  markRepeats(views, artifact.runs);

  const stats = artifact.comparison ?? null;
  const missing = artifact.missingSuites ?? [];
  return {
    marker: options.marker,
    heading: `## ${escapeMarkdownText(clipText(options.title, TITLE_MAX_CHARS))}`,
    verdict: [
      verdictSentence(artifact.runs, artifact.verdict, artifact.interrupted, stats, missing.length),
      // No run of such a suite is in the report: said here, beside the verdict it decided.
      ...missing.map(
        ({ suite, text }) =>
          `❌ **Suite ${escapeMarkdownText(suite)} of the baseline is gone (its gate there: regressions: block):** ${escapeMarkdownText(text)}`,
      ),
      ...(artifact.goneSuiteWarnings ?? []).map(
        ({ suite, text }) =>
          `⚠️ **Suite ${escapeMarkdownText(suite)} of the baseline is gone (a warning here):** ${escapeMarkdownText(text)}`,
      ),
    ].join('\n\n'),
    overview: stats === null ? runTable(artifact.runs) : comparisonTable(stats),
    comparison: stats === null ? '' : fitComparison(stats, artifact, options.maxChars),
    intro: renderIntro(artifact, options),
    views,
    sourceRoot: options.sourceRoot,
  };
}

/**
 * The comparison's details at the largest size that takes at most a third of the budget: ten
 * cases a list and the statistics, then three cases, then no statistics, then counts only;
 * else a line saying where it is.
 */
function fitComparison(
  comparison: Comparison,
  artifact: ReportedArtifact,
  maxChars: number,
): string {
  const headCase = caseFinder(artifact);
  const room = maxChars / 3;
  const sizes = [
    { maxListedCases: 10, statistics: true },
    { maxListedCases: 3, statistics: true },
    { maxListedCases: 3, statistics: false },
    { maxListedCases: 0, statistics: false },
  ];
  for (const size of sizes) {
    const text = [
      comparisonHeadline(comparison),
      ...comparisonDetails(comparison, { ...size, headCase }),
    ].join('\n\n');
    if (text.length <= room) return text;
  }
  return '_The comparison with the baseline is too large for this report: see `comparison` in the results artifact, or `evals compare`._';
}

/** HEAD's case by run and id, for the comparison's case tables. */
function caseFinder(
  artifact: ReportedArtifact,
): (run: RunRef, id: string) => CaseResult | undefined {
  const byRun = new Map<string, Map<string, CaseResult>>();
  return (run, id) => {
    const key = runKey(run);
    let cases = byRun.get(key);
    if (cases === undefined) {
      cases = new Map();
      const found = artifact.runs.find((candidate) => runKey(candidate) === key);
      for (const result of found?.cases ?? []) cases.set(result.id, result);
      byRun.set(key, cases);
    }
    return cases.get(id);
  };
}

/**
 * Finds failures that repeat across grid points (same case, same output or error, same reasons)
 * among the cases listed in detail, so the report shows each once and names where it happens.
 */
function markRepeats(views: RunView[], runs: readonly RunResult[]): void {
  const groups = new Map<string, { view: RunView; index: number }[]>();
  for (const view of views) {
    for (let index = 0; index < view.listable; index++) {
      const result = view.failing[index];
      if (result === undefined) continue;
      const key = JSON.stringify([
        result.id,
        result.error,
        result.error === null ? outputText(result.output) : '',
        failureReasons(result, Infinity, Infinity),
      ]);
      const group = groups.get(key) ?? [];
      group.push({ view, index });
      groups.set(key, group);
    }
  }
  let number = 0;
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const points = group.map(({ view }) => pointName(view.run, runs));
    group.forEach(({ view, index }, position) => {
      view.repeats.set(index, { group: number, points, point: points[position] ?? '' });
    });
    number++;
  }
}

function runLabel(run: Pick<RunResult, 'suite' | 'params'>): string {
  return escapeMarkdownText(clipText(describeRun(run), LABEL_MAX_CHARS));
}

function renderIntro(artifact: ReportedArtifact, options: MarkdownOptions): string[] {
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
  return lines;
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
