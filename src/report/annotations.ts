/**
 * Check-run annotations for the cases that did not pass, placed on their rows in the testset
 * files (or on the config for cases with no source), and the few of them that the workflow-
 * command fallback can show when the Checks API cannot be used. Pure: artifact in, plain objects
 * out; the action layer sends them.
 *
 * Annotations are plain text in GitHub's UI, so nothing here is markdown-escaped: lengths are
 * bounded to what the API accepts, and control characters are written out (`\u0000`).
 */
import type { CaseResult, ResultsArtifact, RunResult } from '../types/index.ts';
import type { ReportedArtifact } from './reported-cases.ts';
import {
  ANNOTATION_TEXT_BUDGET_BYTES,
  ANNOTATION_TITLE_MAX_CHARS,
  MAX_WORKFLOW_COMMAND_ANNOTATIONS,
} from './github-limits.ts';
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
  errorGist,
  formatCount,
  formatParams,
  plural,
  shortId,
} from './labels.ts';
import { groupBy } from '../shared/group-by.ts';

/** One check-run annotation, shaped as the Checks API takes it (`output.annotations[]`). */
export interface Annotation {
  /** Repository-relative POSIX path. */
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: 'failure' | 'warning' | 'notice';
  title: string;
  message: string;
  raw_details?: string;
}

/** Where the config lives, to turn config-relative sources into repository paths. */
export interface AnnotationOptions {
  /** The config's folder relative to the repository root, `''` at the root. */
  sourceRoot: string;
  /** The config file relative to the repository root: where cases without a source point. */
  configPath: string;
}

/** One annotation as a workflow command (`::error file=…,line=…,title=…::message`) takes it. */
export interface WorkflowCommandAnnotation {
  file: string;
  line: number;
  title: string;
  message: string;
}

/**
 * The check run's note when it got only the first `shown` of `total` annotations (the Action's
 * `max-annotations`): how many failing rows went without one, and where they are.
 */
export function unannotatedText(shown: number, total: number): string {
  const rows = plural(total, 'failing row');
  return shown === 0
    ? `No annotations for the ${rows} (\`max-annotations\` is 0): every one is in the results artifact.`
    : `Annotations on the first ${formatCount(shown)} of the ${rows} (\`max-annotations\`); every one is in the results artifact.`;
}

const ERROR_MAX_CHARS = 4_000;
const REASON_MAX_CHARS = 1_000;
const OUTPUT_MAX_CHARS = 2_000;

/**
 * One `failure` annotation per case that failed or errored, on its source row, ordered by path
 * then line. A case that did not pass in several runs (grid points, or suites sharing a testset)
 * gets one annotation listing each run, not one per run stacked on the same line. Cases without
 * a source point at line 1 of the config.
 *
 * A row with a case kept without its details (`detailed: false`: past the first failing cases of
 * its run the reports keep whole) gets none: it comes after at least as many annotated rows of the
 * same file as the check run takes, so it would not be shown. {@link countFailingRows} counts it.
 */
export function buildAnnotations(
  artifact: Pick<ReportedArtifact, 'runs'>,
  options: AnnotationOptions,
): Annotation[] {
  const groups = new Map<
    string,
    { path: string; line: number; row?: string | undefined; failures: Failure[] }
  >();
  const detailedIds = new Set<string>();
  for (const run of artifact.runs) {
    for (const result of run.cases) {
      if (result.passed || !result.detailed) continue;
      const { path, line, row } = placeOf(result, options);
      const key = rowKey(row ?? path, line, result);
      let group = groups.get(key);
      if (!group) {
        group = { path, line, row, failures: [] };
        groups.set(key, group);
      }
      group.failures.push({ run, result });
      detailedIds.add(result.id);
    }
  }
  // A second pass for the cases kept without details: only to leave out the rows they share
  // (a row's key is only worked out for an id that has one).
  for (const run of artifact.runs) {
    for (const result of run.cases) {
      if (result.passed || result.detailed || !detailedIds.has(result.id)) continue;
      const { path, line, row } = placeOf(result, options);
      groups.delete(rowKey(row ?? path, line, result));
    }
  }

  const annotations = [...groups.values()].map(({ path, line, row, failures }): Annotation => {
    const where = row === undefined ? '' : `The row at ${row}, outside the repository:\n`;
    const annotation: Annotation = {
      path,
      start_line: line,
      end_line: line,
      annotation_level: 'failure',
      title: annotationTitle(failures),
      message: capBytes(`${where}${annotationMessage(failures)}`, ANNOTATION_TEXT_BUDGET_BYTES),
    };
    const details = rawDetails(failures);
    if (details !== null) annotation.raw_details = capBytes(details, ANNOTATION_TEXT_BUDGET_BYTES);
    return annotation;
  });
  return annotations.sort(
    (a, b) =>
      compareText(a.path, b.path) || a.start_line - b.start_line || compareText(a.title, b.title),
  );
}

/**
 * The rows {@link buildAnnotations} would annotate if every case were kept in detail. Counted by
 * case id, whose strings the cases already hold, with the places each id failed at: a run where
 * every one of 200,000 cases failed is counted without a key per case.
 */
export function countFailingRows(
  artifact: Pick<ResultsArtifact, 'runs'>,
  options: AnnotationOptions,
): number {
  const places = new Map<string, string | string[]>();
  let rows = 0;
  for (const run of artifact.runs) {
    for (const result of run.cases) {
      if (result.passed) continue;
      const { path, line, row } = placeOf(result, options);
      const place = `${line}:${row ?? path}`;
      const seen = places.get(result.id);
      if (seen === undefined) places.set(result.id, place);
      else if (typeof seen === 'string') {
        if (seen === place) continue;
        places.set(result.id, [seen, place]);
      } else if (seen.includes(place)) continue;
      else seen.push(place);
      rows++;
    }
  }
  return rows;
}

/**
 * Where a case's annotation goes: its source row, or line 1 of the config without a source. A
 * row of a file outside the repository (`../shared/qa.csv`) goes on line 1 of the config too,
 * with its place in `row`: GitHub takes only repository-relative paths, and refuses the whole
 * request for one that is not.
 */
function placeOf(
  result: CaseResult,
  options: AnnotationOptions,
): { path: string; line: number; row?: string } {
  const config = { path: repoPath('', options.configPath), line: 1 };
  if (!result.source) return config;
  const path = repoPath(options.sourceRoot, result.source.file);
  const line = Math.max(1, result.source.line);
  return insideRepository(path) ? { path, line } : { ...config, row: `${path}:${line}` };
}

/** A normalized path that stays in the repository: neither `..`, `../…`, nor absolute. */
function insideRepository(path: string): boolean {
  return !(path === '..' || path.startsWith('../') || /^([A-Za-z]:)?\//.test(path));
}

/**
 * A row by place and identity: two cases on one line (inline cases without a source) stay
 * apart, one case in many runs comes together.
 */
function rowKey(path: string, line: number, result: CaseResult): string {
  return JSON.stringify([path, line, result.id]);
}

/**
 * The first `MAX_WORKFLOW_COMMAND_ANNOTATIONS` annotations as workflow commands take them, for
 * when the Checks API is out of reach (a fork PR, a token without `checks: write`).
 */
export function toWorkflowCommands(
  annotations: readonly Annotation[],
): WorkflowCommandAnnotation[] {
  return annotations.slice(0, MAX_WORKFLOW_COMMAND_ANNOTATIONS).map((annotation) => ({
    file: annotation.path,
    line: annotation.start_line,
    title: annotation.title,
    message: annotation.message,
  }));
}

interface Failure {
  run: RunResult;
  result: CaseResult;
}

/**
 * `capitals: case fr failed: exact 0 (needs ≥ 1)`, `capitals: case fr errored: TypeError: boom`,
 * `capitals: case fr failed in 2 runs: …`. One line, at most 255 characters.
 */
function annotationTitle(failures: readonly Failure[]): string {
  const first = failures[0];
  if (first === undefined) return '';
  const suites = [...new Set(failures.map(({ run }) => run.suite))].join(', ');
  const allErrored = failures.every(({ result }) => result.error !== null);
  const runs = failures.length > 1 ? ` in ${plural(failures.length, 'run')}` : '';
  // The reason shown is the first run's that failed on evaluations, when any did: that is the
  // one a reviewer can act on at this row.
  const shown = failures.find(({ result }) => result.error === null) ?? first;
  // The terminal's `error: …` prefix would repeat the status word in `errored: error: …`.
  const reasons =
    shown.result.error !== null
      ? [errorGist(shown.result.error)]
      : describeCaseFailure(shown.result);
  const reason =
    reasons.length > 1 ? `${reasons[0] ?? ''} (+${reasons.length - 1} more)` : (reasons[0] ?? '');
  const title = `${suites}: case ${shortId(first.result.id)} ${allErrored ? 'errored' : 'failed'}${runs}${reason ? `: ${reason}` : ''}`;
  return clipText(showInvisible(oneLine(title)), ANNOTATION_TITLE_MAX_CHARS);
}

/**
 * Per run: why the case did not pass. Failed evaluations with their score, threshold and
 * reason; or the function's whole error (shortened). Runs that failed the same way share one
 * entry (`model=small; model=large: failed`), so a grid does not repeat the same lines. With one
 * run and no grid there is no heading line.
 */
function annotationMessage(failures: readonly Failure[]): string {
  const labelled = failures.length > 1 || failures.some(({ run }) => hasParams(run));
  const entries = groupBy(failures, ({ result }) => {
    const status = result.error !== null ? 'errored' : 'failed';
    return `${status}\n${failureLines(result).join('\n')}`;
  });
  return [...entries]
    .map(([text, group]) => {
      if (!labelled) return text.slice(text.indexOf('\n') + 1);
      const [status = '', ...lines] = text.split('\n');
      const names = group.map(({ run }) => runName(run, failures)).join('; ');
      return [`${names}: ${status}`, ...lines.map((line) => (line ? `  ${line}` : line))].join(
        '\n',
      );
    })
    .join('\n\n');
}

function failureLines(result: CaseResult): string[] {
  if (result.error !== null) return [shortenText(result.error, ERROR_MAX_CHARS)];
  const failed = failedEvaluations(result);
  if (failed.length === 0) return describeCaseFailure(result);
  return failed.map((evaluation) => {
    const reason = evaluationReason(evaluation);
    // The terminal form keeps only an error's first line; here there is room for all of it.
    const head =
      evaluation.error !== null
        ? `${evaluation.evaluator}: error: ${shortenText(evaluation.error, ERROR_MAX_CHARS)}`
        : describeFailedEvaluation(evaluation);
    return reason === null ? head : `${head} — ${shortenText(reason, REASON_MAX_CHARS)}`;
  });
}

/**
 * The outputs, shortened; with several runs each distinct output once, headed by the runs that
 * produced it. `null` when no run produced one (the function errored everywhere).
 */
function rawDetails(failures: readonly Failure[]): string | null {
  const withOutput = failures.filter(
    ({ result }) => result.error === null && result.output !== null,
  );
  if (withOutput.length === 0) return null;
  const outputs = groupBy(withOutput, ({ result }) =>
    shortenText(outputText(result.output), OUTPUT_MAX_CHARS),
  );
  const [only] = outputs.keys();
  if (failures.length === 1 && only !== undefined) return only;
  return [...outputs]
    .map(([output, group]) => {
      const names = group.map(({ run }) => runName(run, failures)).join('; ');
      return `${names}:\n${output}`;
    })
    .join('\n\n');
}

/** `model=small temperature=0`; the suite is named too when the failures span several suites. */
function runName(run: RunResult, failures: readonly Failure[]): string {
  const params = formatParams(run.params, ' ');
  const manySuites = failures.some((failure) => failure.run.suite !== run.suite);
  if (!params) return run.suite;
  return manySuites ? `${run.suite} · ${params}` : params;
}

function hasParams(run: RunResult): boolean {
  return Object.keys(run.params).length > 0;
}

/** Titles are one line in the UI; ids and suite names could carry a newline. */
function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').replace(/\t/g, ' ');
}

/** Plain code-unit order: the same on every machine, unlike `localeCompare`. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Cuts text to at most `maxBytes` of UTF-8, at a code-point boundary, with a note. The API
 * counts bytes, and model output in CJK or emoji takes three or four bytes a character.
 */
function capBytes(raw: string, maxBytes: number): string {
  const text = showInvisible(raw.replace(/\r\n?/g, '\n'));
  if (utf8Bytes(text) <= maxBytes) return text;
  const note = ' … (cut to fit the annotation size limit)';
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    const size = utf8Length(char.codePointAt(0) ?? 0);
    if (bytes + size > maxBytes - note.length) {
      return `${text.slice(0, end)}${note}`;
    }
    bytes += size;
    end += char.length;
  }
  return text;
}

function utf8Bytes(text: string): number {
  let bytes = 0;
  for (const char of text) bytes += utf8Length(char.codePointAt(0) ?? 0);
  return bytes;
}

function utf8Length(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  if (codePoint < 0x10000) return 3;
  return 4;
}
