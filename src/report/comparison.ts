/**
 * Text, markdown and JSON forms of a `Comparison`. Pure and deterministic: no clock, no locale,
 * numbers at a fixed precision and a fixed order, so the same comparison always renders to the
 * same bytes (a CI log or a PR comment can be diffed and cached).
 *
 * Order: the runs with a regression first, and in each run the rows by label (regressed,
 * improved, unchanged, too few cases), so a reviewer reads the bad news first.
 */
import { painter, type Painter } from './ansi.ts';
import { showInvisible } from './failure-details.ts';
import { formatCount, formatParams, formatPercent, plural, shortId } from './labels.ts';
import { codeSpan, escapeMarkdownText } from './markdown.ts';
import { renderTable } from '../shared/text-table.ts';
import type {
  ArtifactInfo,
  CaseRef,
  ChangeCounts,
  ChangeLabel,
  Comparison,
  EvaluatorChange,
  PassRateChange,
  RunComparison,
  RunRef,
} from '../types/comparison.ts';

/** How `renderComparisonText` lays out its text. */
export interface ComparisonTextOptions {
  /** Emit ANSI colors (red regressed, green improved). The caller decides from the stream and NO_COLOR. */
  color: boolean;
}

/** How `renderComparisonMarkdown` sizes its case lists. */
export interface ComparisonMarkdownOptions {
  /**
   * Cases listed per list (newly failing, fixed, …) and run before `… N more`; 10 by default.
   * Lower it to keep a comment with many grid points under GitHub's size limit.
   */
  maxListedCases?: number;
}

/** Cases listed per list and run; the rest are counted (the JSON form has them all). */
export const MAX_LISTED_COMPARE_CASES = 10;

/** Runs listed as present on one side only; the rest are counted. */
const MAX_LISTED_RUNS = 10;

/** The comparison as indented JSON, ending with a newline. Key order is the model's. */
export function renderComparisonJson(comparison: Comparison): string {
  return `${JSON.stringify(comparison, null, 2)}\n`;
}

/** The comparison for a terminal, ending with a newline. */
export function renderComparisonText(
  comparison: Comparison,
  options: ComparisonTextOptions,
): string {
  const paint = painter(options.color);
  const blocks: string[] = [];
  blocks.push(
    [
      `${paint.bold('BASE')} ${clean(describeArtifact(comparison.base))}`,
      `${paint.bold('HEAD')} ${clean(describeArtifact(comparison.head))}`,
      countsLine(comparison.counts, (text) => paint.bold(paint.red(text))),
    ].join('\n'),
  );
  for (const run of orderRuns(comparison.runs)) {
    blocks.push(textRun(run, comparison.settings.confidence, paint));
  }
  for (const [title, runs] of oneSidedRuns(comparison)) {
    blocks.push([title, ...listRuns(runs).map((line) => `  ${clean(line)}`)].join('\n'));
  }
  blocks.push(paint.dim(footnote(comparison)));
  return `${blocks.join('\n\n')}\n`;
}

/**
 * The comparison as GitHub-flavoured markdown, for the PR comment and the job summary, ending
 * with a newline. Every id, suite, param and path goes through `escapeMarkdownText` or
 * `codeSpan`. Case lists are cut at `maxListedCases` per list and run.
 */
export function renderComparisonMarkdown(
  comparison: Comparison,
  options: ComparisonMarkdownOptions = {},
): string {
  const maxListed = options.maxListedCases ?? MAX_LISTED_COMPARE_CASES;
  const blocks: string[] = [];
  blocks.push(
    `Compared with ${describeArtifactMarkdown(comparison.base)}: ${countsLine(comparison.counts, (text) => `**${text}**`)}`,
  );
  for (const run of orderRuns(comparison.runs)) {
    blocks.push(markdownRun(run, comparison.settings.confidence, maxListed));
  }
  for (const [title, runs] of oneSidedRuns(comparison)) {
    blocks.push(
      [`**${title}**`, '', ...listRuns(runs).map((line) => `- ${escapeMarkdownText(line)}`)].join(
        '\n',
      ),
    );
  }
  blocks.push(`_${escapeMarkdownText(footnote(comparison))}_`);
  return `${blocks.join('\n\n')}\n`;
}

// ---------------------------------------------------------------------------------------------
// Shared wording
// ---------------------------------------------------------------------------------------------

/** `1 regression · 2 improvements · 5 unchanged · 1 with too few cases`; regressions emphasized. */
function countsLine(counts: ChangeCounts, emphasize: (text: string) => string): string {
  const regressions = plural(counts.regressed, 'regression');
  return [
    counts.regressed > 0 ? emphasize(regressions) : regressions,
    plural(counts.improved, 'improvement'),
    `${formatCount(counts.unchanged)} unchanged`,
    `${formatCount(counts.tooFewCases)} with too few cases`,
  ].join(' · ');
}

function footnote(comparison: Comparison): string {
  const { settings } = comparison;
  const percent = Math.round(settings.confidence * 100);
  return (
    `Scores: ${percent}% CI of the paired mean difference (bootstrap, ${formatCount(settings.iterations)} resamples, seed ${settings.seed}); ` +
    `pass rate: exact McNemar test. Unchanged means no significant change either way, not proof of equality; ` +
    `rows with fewer than ${settings.minPaired} paired cases get no verdict.`
  );
}

/** `evals.yaml · 3f9a1c2 (main) · 2024-05-01` */
function describeArtifact(info: ArtifactInfo): string {
  const parts = [info.config];
  const sha = info.git?.sha ? info.git.sha.slice(0, 7) : null;
  const ref = info.git?.ref ?? null;
  if (sha !== null || ref !== null) {
    parts.push(
      [sha, ref === null ? null : sha === null ? ref : `(${ref})`].filter(Boolean).join(' '),
    );
  }
  const date = /^\d{4}-\d{2}-\d{2}/.exec(info.startedAt)?.[0];
  if (date) parts.push(date);
  return parts.join(' · ');
}

function describeArtifactMarkdown(info: ArtifactInfo): string {
  const sha = info.git?.sha ? ` at ${codeSpan(info.git.sha.slice(0, 7))}` : '';
  const ref = info.git?.ref ? ` on ${codeSpan(info.git.ref)}` : '';
  const date = /^\d{4}-\d{2}-\d{2}/.exec(info.startedAt)?.[0];
  return `${codeSpan(info.config)}${sha}${ref}${date ? ` (${date})` : ''}`;
}

function runTitle(run: RunRef): string {
  const params = formatParams(run.params, ' ');
  return params ? `${run.suite} · ${params}` : run.suite;
}

function oneSidedRuns(comparison: Comparison): [string, RunRef[]][] {
  const lists: [string, RunRef[]][] = [
    ['Runs only in BASE (not run in HEAD):', comparison.onlyInBase],
    ['Runs only in HEAD (new, nothing to compare with):', comparison.onlyInHead],
  ];
  return lists.filter(([, runs]) => runs.length > 0);
}

function listRuns(runs: readonly RunRef[]): string[] {
  const lines = runs.slice(0, MAX_LISTED_RUNS).map(runTitle);
  if (runs.length > lines.length) lines.push(`… ${formatCount(runs.length - lines.length)} more`);
  return lines;
}

const LABEL_ORDER: Record<ChangeLabel, number> = {
  regressed: 0,
  improved: 1,
  unchanged: 2,
  'too few cases': 3,
};

/** Runs with a regression first, otherwise in HEAD's order (the sort is stable). */
function orderRuns(runs: readonly RunComparison[]): RunComparison[] {
  const regressed = (run: RunComparison): number =>
    run.passRate.label === 'regressed' || run.evaluators.some((row) => row.label === 'regressed')
      ? 0
      : 1;
  return [...runs].sort((a, b) => regressed(a) - regressed(b));
}

type Row =
  { kind: 'pass rate'; change: PassRateChange } | { kind: 'evaluator'; change: EvaluatorChange };

/** The pass-rate row and the evaluator rows, by label; the pass rate first among equals. */
function orderRows(run: RunComparison): Row[] {
  const rows: Row[] = [
    { kind: 'pass rate', change: run.passRate },
    ...run.evaluators.map((change): Row => ({ kind: 'evaluator', change })),
  ];
  return rows.sort((a, b) => LABEL_ORDER[a.change.label] - LABEL_ORDER[b.change.label]);
}

interface RowText {
  name: string;
  /** `0.81 → 0.86 (+0.05, 95% CI +0.02…+0.08)` */
  change: string;
  /** `p = 0.003`, `McNemar p = 0.021`, or '' */
  test: string;
  label: ChangeLabel;
  /** `(4 paired)` after `too few cases`, else ''. */
  note: string;
}

function rowText(row: Row, confidence: number): RowText {
  if (row.kind === 'pass rate') {
    const c = row.change;
    const change =
      c.baseRate === null || c.headRate === null || c.delta === null
        ? 'no case in both runs'
        : `${formatPercent(c.baseRate)} → ${formatPercent(c.headRate)} (${signed(c.delta * 100, 1)} pp; ` +
          `${formatCount(c.passToFail)} pass→fail, ${formatCount(c.failToPass)} fail→pass)`;
    return {
      name: 'pass rate',
      change,
      test: c.paired === 0 ? '' : `McNemar ${formatP(c.pValue)}`,
      label: c.label,
      note: c.label === 'too few cases' ? `(${formatCount(c.paired)} paired)` : '',
    };
  }
  const c = row.change;
  const change =
    c.baseMean === null || c.headMean === null || c.delta === null || c.ci === null
      ? 'no case scored in both runs'
      : `${c.baseMean.toFixed(2)} → ${c.headMean.toFixed(2)} (${signed(c.delta, 2)}, ` +
        `${Math.round(confidence * 100)}% CI ${signed(c.ci.low, 2)}…${signed(c.ci.high, 2)})`;
  return {
    name: c.evaluator,
    change,
    test: c.pValue === null ? '' : formatP(c.pValue),
    label: c.label,
    note: c.label === 'too few cases' ? `(${formatCount(c.paired)} paired)` : '',
  };
}

/**
 * `+0.05`, `-0.02`, `0.00` for exactly zero. A tiny non-zero value keeps its sign (`+0.00`), so
 * an interval bound never looks as if it sat on the other side of 0.
 */
function signed(value: number, digits: number): string {
  const text = Math.abs(value).toFixed(digits);
  if (value === 0) return text;
  return `${value > 0 ? '+' : '-'}${text}`;
}

/**
 * `p < 0.001`, `p = 0.034`, `p = 1`. Three decimals, except that a p-value under 0.05 never
 * prints as `0.050` (it shows four), so the number never contradicts the label.
 */
function formatP(p: number): string {
  if (p < 0.001) return 'p < 0.001';
  if (p >= 0.9995) return 'p = 1';
  const text = p.toFixed(3);
  return `p = ${p < 0.05 && text === '0.050' ? p.toFixed(4) : text}`;
}

interface CaseList {
  title: string;
  /** Said after the count: why the list is there. */
  note?: string;
  cases: readonly (CaseRef & { trialPassRate?: number | null })[];
  /** Bad news: emphasized. */
  alarm?: boolean;
}

function caseLists(run: RunComparison): CaseList[] {
  const { cases } = run;
  const lists: CaseList[] = [
    { title: 'newly failing', cases: cases.newlyFailing, alarm: true },
    { title: 'fixed', cases: cases.fixed },
    { title: 'added', cases: cases.added },
    { title: 'removed', cases: cases.removed },
    {
      title: 'testset row changed',
      note: 'not a behaviour change, left out of the statistics',
      cases: cases.contentChanged,
    },
    { title: 'flaky in HEAD', note: 'trials disagreed', cases: cases.flaky },
  ];
  return lists.filter((list) => list.cases.length > 0);
}

/** `q-017`, `testsets/qa.csv:18`, and for a flaky case `3 of 5 trials passed`-style detail. */
function caseText(ref: CaseList['cases'][number]): {
  id: string;
  source: string | null;
  detail: string | null;
} {
  return {
    id: shortId(ref.id),
    source: ref.source === null ? null : `${ref.source.file}:${ref.source.line}`,
    detail:
      ref.trialPassRate === undefined || ref.trialPassRate === null
        ? null
        : `${formatPercent(ref.trialPassRate)} of trials passed`,
  };
}

// ---------------------------------------------------------------------------------------------
// Text
// ---------------------------------------------------------------------------------------------

function textRun(run: RunComparison, confidence: number, paint: Painter): string {
  const lines = [
    `${paint.bold(clean(runTitle(run)))}  ${paint.dim(`${plural(run.passRate.paired, 'case')} compared`)}`,
  ];
  const rows = orderRows(run).map((row) => rowText(row, confidence));
  lines.push(
    ...renderTable(
      rows.map((row) => {
        const label = paintLabel(row.label, paint);
        return [
          clean(row.name),
          row.change,
          row.test,
          row.note ? `${label} ${paint.dim(row.note)}` : label,
        ];
      }),
      { indent: '  ' },
    ),
  );

  for (const list of caseLists(run)) {
    const title = `${list.title} (${formatCount(list.cases.length)})`;
    const note = list.note ? paint.dim(`: ${list.note}`) : '';
    lines.push(`  ${list.alarm ? paint.red(title) : title}${note}`);
    const shown = list.cases.slice(0, MAX_LISTED_COMPARE_CASES).map(caseText);
    // No source column when no case has one (cases given in code).
    const withSource = shown.some((entry) => entry.source !== null);
    lines.push(
      ...renderTable(
        shown.map((entry) => [
          clean(entry.id),
          ...(withSource ? [paint.dim(clean(entry.source ?? ''))] : []),
          ...(entry.detail === null ? [] : [entry.detail]),
        ]),
        { indent: '    ' },
      ),
    );
    if (list.cases.length > shown.length) {
      lines.push(`    … ${formatCount(list.cases.length - shown.length)} more`);
    }
  }

  const oneSided = evaluatorsOnOneSide(run);
  if (oneSided) lines.push(`  ${clean(oneSided)}`);
  return lines.join('\n');
}

function paintLabel(label: ChangeLabel, paint: Painter): string {
  switch (label) {
    case 'regressed':
      return paint.bold(paint.red(label));
    case 'improved':
      return paint.green(label);
    case 'too few cases':
      return paint.yellow(label);
    case 'unchanged':
      return label;
  }
}

function evaluatorsOnOneSide(run: RunComparison): string {
  const parts: string[] = [];
  if (run.evaluatorsOnlyInBase.length > 0) {
    parts.push(`evaluators only in BASE: ${run.evaluatorsOnlyInBase.join(', ')}`);
  }
  if (run.evaluatorsOnlyInHead.length > 0) {
    parts.push(`evaluators only in HEAD: ${run.evaluatorsOnlyInHead.join(', ')}`);
  }
  return parts.join(' · ');
}

/** One line of user text for a terminal: line breaks and tabs as spaces, controls written out. */
function clean(text: string): string {
  return showInvisible(text.replace(/\r\n?|[\n\t\u2028\u2029]/g, ' '));
}

// ---------------------------------------------------------------------------------------------
// Markdown
// ---------------------------------------------------------------------------------------------

const LABEL_ICONS: Record<ChangeLabel, string> = {
  regressed: '🔴',
  improved: '🟢',
  unchanged: '⚪',
  'too few cases': '➖',
};

function markdownRun(run: RunComparison, confidence: number, maxListed: number): string {
  const blocks: string[] = [
    `#### ${escapeMarkdownText(runTitle(run))} · ${plural(run.passRate.paired, 'case')} compared`,
  ];
  const rows = orderRows(run).map((row) => {
    const text = rowText(row, confidence);
    const name = row.kind === 'pass rate' ? '**pass rate**' : escapeMarkdownText(text.name);
    const label = text.label === 'regressed' ? '**regressed**' : text.label;
    const tail = [text.note, text.test].filter(Boolean).join(' · ');
    return `- ${LABEL_ICONS[text.label]} ${name}: ${text.change} ${label}${tail ? ` · ${tail}` : ''}`;
  });
  blocks.push(rows.join('\n'));

  for (const list of caseLists(run)) {
    const count = `${list.title[0]?.toUpperCase() ?? ''}${list.title.slice(1)} (${formatCount(list.cases.length)})`;
    const title = `${count}${list.note ? `, ${list.note}` : ''}:`;
    const shown = list.cases.slice(0, maxListed).map((ref) => {
      const { id, source, detail } = caseText(ref);
      const where = [source === null ? null : codeSpan(source), detail].filter(Boolean).join(', ');
      return where ? `${codeSpan(id)} (${where})` : codeSpan(id);
    });
    if (list.cases.length > shown.length) {
      shown.push(`… ${formatCount(list.cases.length - shown.length)} more`);
    }
    blocks.push(`${list.alarm ? `**${title}**` : title} ${shown.join(', ')}`);
  }

  const parts: string[] = [];
  if (run.evaluatorsOnlyInBase.length > 0) {
    parts.push(
      `Evaluators only in BASE: ${run.evaluatorsOnlyInBase.map((id) => codeSpan(id)).join(', ')}`,
    );
  }
  if (run.evaluatorsOnlyInHead.length > 0) {
    parts.push(
      `Evaluators only in HEAD: ${run.evaluatorsOnlyInHead.map((id) => codeSpan(id)).join(', ')}`,
    );
  }
  if (parts.length > 0) blocks.push(parts.join(' · '));
  return blocks.join('\n\n');
}
