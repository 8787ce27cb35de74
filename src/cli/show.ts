/**
 * `evals show RESULTS.json`: the cases of a results artifact, read a case at a time, selected by
 * the flags and printed in full (`report/case-detail.ts`) or as JSON. Why any case failed, without
 * opening the JSON.
 */
import { openResultsFile } from '../pipeline/artifact-files.ts';
import { recordedBaseline } from '../artifact/merge-baseline.ts';
import { terminalWidth, useColor, type CommandContext } from '../pipeline/context.ts';
import { painter } from '../report/ansi.ts';
import { renderBaselineDetail, renderCaseDetail } from '../report/case-detail.ts';
import { baselineKey } from '../report/html-model-base.ts';
import { readBaselineCases } from '../pipeline/baseline-cases.ts';
import { fitBeside } from '../report/case-text.ts';
import {
  interruptedOnly,
  notRunFacts,
  notRunNote,
  whyRunsFailed,
  type ShownArtifact,
  type ShownRun,
} from '../report/show-gate.ts';
import { describeRun, formatCount, plural } from '../report/labels.ts';
import {
  caseIdMatch,
  describeFilters,
  paramValue,
  runSelected,
  statusSelected,
  type ShowFilters,
} from '../report/show-select.ts';
import { printable, textWidth } from '../shared/text-table.ts';
import { usageError } from '../shared/errors.ts';
import type { CaseResult, Params } from '../types/index.ts';
import {
  badOption,
  gridFilters,
  optionError,
  positional,
  positiveInt,
  type ParsedArgs,
} from './args.ts';
import { SHOW } from './commands.ts';
import { mergedShards } from '../artifact/partial-merge.ts';
import { writtenByRunTestSuite } from '../plan/resume.ts';
import { shownValue } from '../shared/shown-value.ts';

const DEFAULT_LIMIT = 20;
/** A run the artifact lacks (never: `shown` holds its own runs' indexes). */
const EMPTY = { suite: '', params: {} };

/** A case to print, with the index of its run. */
interface Shown {
  run: number;
  result: CaseResult;
}

/** Prints the selected cases; 0, or a UsageError (exit 2) for a bad file or flag. */
export function showCommand(args: ParsedArgs<typeof SHOW>, ctx: CommandContext): number {
  const { values } = args;
  const path = positional(args.positionals, 0);
  const limit =
    values.limit === undefined ? DEFAULT_LIMIT : positiveInt(SHOW, '--limit', values.limit);
  const filters: ShowFilters = {
    ...(values.failed ? { failed: true } : {}),
    ...(values.errored ? { errored: true } : {}),
    ...(values.flaky ? { flaky: true } : {}),
    ...(values.case !== undefined ? { casePrefix: values.case } : {}),
    ...(values.suite ? { suites: values.suite } : {}),
    ...(values.grid ? { grid: gridFilters(values.grid, SHOW) } : {}),
  };
  if (filters.casePrefix === '') throw optionError(SHOW, '--case', 'the start of a case id', '""');
  const file = openResultsFile(path, ctx, 'evals show:');
  const runs = file.artifact.runs;
  checkRunFilters(runs, filters);

  // A case whose whole id is --case's wins over the cases it is the start of (`--case c1` is
  // not c10…c19 too), so both are collected until the end says which.
  const exact = { shown: [] as Shown[], matched: 0, any: false };
  const prefixed = { shown: [] as Shown[], matched: 0, any: false };
  runs.forEach((run, index) => {
    if (!runSelected(run, filters)) return;
    for (const result of file.cases(index)) {
      const byId =
        filters.casePrefix === undefined ? 'prefix' : caseIdMatch(result.id, filters.casePrefix);
      if (byId === null) continue;
      const bucket = byId === 'exact' ? exact : prefixed;
      bucket.any = true;
      if (!statusSelected(result, filters)) continue;
      bucket.matched++;
      if (bucket.shown.length < limit) bucket.shown.push({ run: index, result });
    }
  });
  const { shown, matched } = exact.any ? exact : prefixed;
  // Each shown case's result in the baseline, read a case at a time and scrubbed before any cut.
  const basePath = values.baseline;
  const keys = new Set(shown.map(({ run, result }) => baselineKey(runs[run] ?? EMPTY, result.id)));
  const base =
    basePath === undefined
      ? undefined
      : readBaselineCases(basePath, ctx, (key) => keys.has(key), undefined, Infinity).cases;
  const baseOf = ({ run, result }: Shown): CaseResult | undefined =>
    base?.get(baselineKey(runs[run] ?? EMPTY, result.id));
  // An id no case has is a mistake (exit 2). A case that is there but matches no status flag
  // (`--case c1 --failed` when c1 passed) is an answer, as `--failed` alone matching nothing is.
  if (filters.casePrefix !== undefined && !exact.any && !prefixed.any) {
    const narrowed = filters.suites !== undefined || filters.grid !== undefined;
    throw badOption(
      SHOW,
      narrowed
        ? notInSelectedRuns(file, path, filters, filters.casePrefix)
        : `--case ${shownValue(filters.casePrefix)}: no case id starts with it in ${printable(path)}`,
    );
  }

  if (values.json === true) {
    const cases = shown.map((one) => ({
      suite: runs[one.run]?.suite,
      params: runs[one.run]?.params as Params,
      case: one.result,
      ...(base !== undefined && { baseline: baseOf(one) ?? null }),
    }));
    // The planned cases with no result, as data: what the note above the cases says in text.
    const { selected, artifact } = shownArtifact(file, path, filters);
    const notRun = notRunFacts(selected, artifact);
    file.noteUnknown();
    ctx.stdout.write(
      `${JSON.stringify({ shown: shown.length, matched, cases, notRun }, null, 2)}\n`,
    );
    return 0;
  }
  const paint = painter(useColor(ctx));
  const how = describeFilters(filters);
  const total = file.caseCounts.reduce((sum, count) => sum + count, 0);
  // Without a filter every case matches, so the count is the total's; only the cut is news.
  const width = terminalWidth(ctx);
  const cut = matched > shown.length ? `, first ${formatCount(shown.length)} below` : '';
  const counts = `${printable(path)}: ${plural(runs.length, 'run')}, ${plural(total, 'case')}`;
  const matching = `; ${formatCount(matched)} match `;
  // The filters echoed (a long `--grid` value) give way to fit the terminal; the counts do not.
  const taken = textWidth(counts) + textWidth(matching) + textWidth(cut);
  const matches = how === '' ? '' : `${matching}${fitBeside(printable(how), taken, width)}`;
  const heading = `${counts}${matches}${cut}`;
  const blocks = [heading];
  if (runs.length === 0) {
    blocks.push(
      `${printable(path)} holds no run, so there is no case to show: its suite ran nothing (a grid with an empty list of values makes no run; evals.yaml and runTestSuite refuse one)`,
    );
  } else if (matched === 0 && filters.casePrefix !== undefined) {
    blocks.push(
      `--case ${shownValue(filters.casePrefix)} is in ${printable(path)}, but none of its results in the runs selected matches ${statusFlags(filters)}`,
    );
  } else if (matched === 0) {
    // No case to show is not "nothing failed": a run can fail on its gate or be cut short.
    const { selected, artifact } = shownArtifact(file, path, filters);
    const none = noneMatch(filters);
    const byStatus = filters.failed === true || filters.errored === true || filters.flaky === true;
    // A run cut short before its cases finished has none to show: say so, and how to finish it.
    const explain = byStatus || file.artifact.interrupted;
    blocks.push(explain ? whyRunsFailed(none, selected, artifact, paint, width) : none);
  } else if (filters.casePrefix === undefined) {
    // The cases shown (the failed ones, say) are not all there is when some never ran.
    const { selected, artifact } = shownArtifact(file, path, filters);
    const note = notRunNote(selected, artifact);
    if (note !== null) blocks.push(note);
  }
  const detail = { full: values.full === true, paint, width };
  for (const one of shown) {
    const owner = runs[one.run];
    if (owner === undefined) continue;
    const baseText =
      basePath === undefined ? '' : renderBaselineDetail(baseOf(one), basePath, detail, one.result);
    blocks.push(`${renderCaseDetail(owner, one.result, detail)}${baseText}`.trimEnd());
  }
  if (matched > shown.length) {
    blocks.push(
      `${plural(matched - shown.length, 'more case')} ${matched - shown.length === 1 ? 'matches' : 'match'} (--limit N shows more; --case ID shows one)`,
    );
  }
  // Once every case shown is read: what a newer evalgate added to them was ignored.
  file.noteUnknown();
  ctx.stdout.write(`${blocks.join('\n\n')}\n`);
  return 0;
}

/** The selected runs with their case counts, and what the notes on them need of the artifact. */
function shownArtifact(
  file: ReturnType<typeof openResultsFile>,
  path: string,
  filters: ShowFilters,
): { selected: ShownRun[]; artifact: ShownArtifact } {
  const every = file.artifact.runs.map((run, index) => ({
    run,
    cases: file.caseCounts[index] ?? 0,
  }));
  const merge = mergedShards(file.artifact);
  const baseline = recordedBaseline(file.artifact)?.path;
  const artifact: ShownArtifact = {
    path,
    interruptedOnly: interruptedOnly(file.artifact.interrupted, every, merge !== undefined),
    ...(merge !== undefined ? { merge } : {}),
    writtenByRunTestSuite: writtenByRunTestSuite(file.artifact),
    ...(file.artifact.config !== undefined ? { config: file.artifact.config } : {}),
    pinIgnored: file.artifact.pinIgnored === true,
    ...(baseline !== undefined ? { baseline } : {}),
    missingSuites: (file.artifact.missingSuites ?? []).map((gone) => gone.text),
  };
  return { selected: every.filter(({ run }) => runSelected(run, filters)), artifact };
}

/** Runs named where `--case` matches outside the selection; the rest are counted. */
const LISTED_RUNS = 3;

/**
 * `--case X: no case id starts with it in the runs of r.json selected by --suite b; it is a case of
 * a`: the selection lacks the case, not the file, so the message says which and names the
 * runs that have it (read only now, on the way to the error).
 */
function notInSelectedRuns(
  file: ReturnType<typeof openResultsFile>,
  path: string,
  filters: ShowFilters,
  casePrefix: string,
): string {
  const runs = file.artifact.runs;
  const elsewhere: string[] = [];
  runs.forEach((run, index) => {
    if (runSelected(run, filters)) return;
    for (const result of file.cases(index)) {
      if (caseIdMatch(result.id, casePrefix) === null) continue;
      elsewhere.push(describeRun(run));
      return;
    }
  });
  const by = describeFilters({
    ...(filters.suites !== undefined ? { suites: filters.suites } : {}),
    ...(filters.grid !== undefined ? { grid: filters.grid } : {}),
  });
  const listed = elsewhere.slice(0, LISTED_RUNS).map(printable);
  const more = elsewhere.length - listed.length;
  const where =
    elsewhere.length === 0
      ? ''
      : `; it is a case of ${listed.join(', ')}${more > 0 ? ` and ${plural(more, 'more run')}` : ''}`;
  return `--case ${shownValue(casePrefix)}: no case id starts with it in the runs of ${printable(path)} selected by ${printable(by)}${where}`;
}

/** The status flags given, as typed: `--failed or --errored`. */
function statusFlags(filters: ShowFilters): string {
  return [
    filters.failed === true ? '--failed' : null,
    filters.errored === true ? '--errored' : null,
    filters.flaky === true ? '--flaky' : null,
  ]
    .filter((flag) => flag !== null)
    .join(' or ');
}

function noneMatch(filters: ShowFilters): string {
  const kinds = [
    filters.failed === true ? 'did not pass' : null,
    filters.errored === true ? 'errored' : null,
    filters.flaky === true ? 'is flaky' : null,
  ].filter((kind) => kind !== null);
  return kinds.length > 0
    ? `no case ${kinds.join(' or ')} in the runs selected`
    : 'no case in the runs selected';
}

/** A --suite or --grid that names nothing in the artifact is a mistake, not an empty result. */
function checkRunFilters(
  runs: readonly { suite: string; params: Params }[],
  filters: ShowFilters,
): void {
  const suites = [...new Set(runs.map((run) => run.suite))];
  for (const suite of filters.suites ?? []) {
    if (!suites.includes(suite)) {
      throw badOption(
        SHOW,
        `--suite ${shownValue(suite)}: no such suite in the results (suites: ${suites.map(printable).join(', ') || 'none'})`,
      );
    }
  }
  for (const [key, values] of Object.entries(filters.grid ?? {})) {
    const seen = [
      ...new Set(
        runs
          .filter((run) => Object.hasOwn(run.params, key))
          .map((run) => paramValue(run.params[key])),
      ),
    ];
    if (seen.length === 0) {
      const keys = [...new Set(runs.flatMap((run) => Object.keys(run.params)))];
      throw badOption(
        SHOW,
        `--grid ${shownValue(key)}: no run has this grid key (keys: ${keys.map(printable).join(', ') || 'none; no suite has a grid'})`,
      );
    }
    for (const value of values) {
      if (!seen.includes(value)) {
        throw badOption(
          SHOW,
          `--grid ${shownValue(key)}=${shownValue(value)}: no run has this value (values: ${seen.map(printable).join(', ')})`,
        );
      }
    }
  }
  // An artifact without runs (an empty grid) has nothing to select: the command says so.
  if (runs.length > 0 && !runs.some((run) => runSelected(run, filters))) {
    const grid = Object.entries(filters.grid ?? {}).map(([k, v]) => `${k}=${v.join('|')}`);
    const where = [
      filters.suites !== undefined ? `in ${filters.suites.join(', ')}` : undefined,
      grid.length > 0 ? `at ${grid.join(' ')}` : undefined,
    ].filter((part) => part !== undefined);
    throw usageError(
      'show.no-run',
      `no run is ${where.length > 1 ? 'both ' : ''}${where.join(' and ') || 'selected'} (see evals show --help)`,
    );
  }
}
