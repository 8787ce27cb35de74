/**
 * A run that could not start: an invalid config or `args` input (what `evals run` exits 2 on: a
 * bad key, a testset `ref:` a shallow clone lacks, a missing file), an invalid input of the Action
 * itself, or in `mode: report` a results file it refuses. No case ran, yet a branch protection
 * rule may wait on this report's check run: without one it would stay "Expected" on the pull
 * request for good. So the problems are rendered here (pure) into the check run's title, summary
 * and annotations and into a short job summary, and `publish-not-started.ts` posts them, then
 * fails the step.
 */
import type { AnnotationProperties } from '@actions/core';
import type { Annotation } from '../report/annotations.ts';

/** Why the run did not start, with its problems; each problem already scrubbed of secrets. */
export interface NotStarted {
  kind: 'not-started';
  /** The reason, completing "could not start: …", e.g. `the config is invalid`. */
  reason: string;
  /** The config, repository-relative: with `args`, names the check run and the comment. */
  configPath: string;
  /** The `evals run` arguments (none in `mode: report`), as the report identity reads them. */
  args: readonly string[];
  /** Every problem, in the order the run found them. */
  problems: readonly NotStartedProblem[];
  /** The step's failure message (`core.setFailed`), once everything is posted. */
  failure: string;
}

/** One problem, as the log says it, and where it is when that is a line of the repository. */
export interface NotStartedProblem {
  /** `evals.yaml:4:5  suites[0].testset.ref: …`, at most {@link PROBLEM_MAX_CHARS}. */
  text: string;
  /** The annotation's message: the problem without its place. */
  message: string;
  /** A repository-relative path and 1-based line; absent for a file outside it or no line. */
  at?: { path: string; line: number };
  /**
   * The step's error for it (`core.error`), masked by the runner rather than scrubbed, with its
   * place (`file`, `startLine`) when it has one; absent when the failure message says it all.
   * The place is left out when the check run carries the problem's annotation: GitHub would
   * show both on the pull request's diff.
   */
  log?: { message: string; properties: AnnotationProperties };
}

/**
 * A run refused before it started for reasons without a line in the repository (the Action's
 * inputs, a results file `mode: report` refuses): each message becomes a problem, scrubbed by
 * `scrub` and then cut short; `logged` says whether the step logs each as an error of its own.
 */
export function refusedRun(refusal: {
  reason: string;
  messages: readonly string[];
  configPath: string;
  args: readonly string[];
  failure: string;
  logged: boolean;
  scrub: (text: string) => string;
}): NotStarted {
  return {
    kind: 'not-started',
    reason: refusal.reason,
    configPath: refusal.configPath,
    args: refusal.args,
    failure: refusal.failure,
    problems: refusal.messages.map((message) => {
      const text = cut(refusal.scrub(message));
      return {
        text,
        message: text,
        ...(refusal.logged && { log: { message, properties: {} } }),
      };
    }),
  };
}

/** A problem's text is cut to this many characters (after its secrets were removed). */
export const PROBLEM_MAX_CHARS = 1_000;

/** How many problems the summaries list; the log (and the step's annotations) has every one. */
export const PROBLEMS_LISTED = 20;

/** GitHub's limit of check-run annotations in one request; a config's problems need no more. */
const ANNOTATIONS_MAX = 50;

/** `text` cut to `max` characters, with an ellipsis when cut. */
export function cut(text: string, max = PROBLEM_MAX_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}\u2026`;
}

/** The check run's title: `could not start: the config is invalid (2 problems)`. */
export function notStartedTitle(run: NotStarted): string {
  const n = run.problems.length;
  const count = n === 0 ? '' : ` (${n} problem${n === 1 ? '' : 's'})`;
  return cut(`could not start: ${run.reason}${count}`, 200);
}

/**
 * The Markdown of the check run's summary, the job summary and the PR comment: what did not
 * start and why, the first {@link PROBLEMS_LISTED} problems in a code block, and that nothing
 * ran, so there is no verdict. Under 30,000 characters: every limit it goes under is larger.
 */
export function notStartedMarkdown(run: NotStarted, title: string, note = ''): string {
  const listed = run.problems.slice(0, PROBLEMS_LISTED).map((problem) => problem.text);
  const more = run.problems.length - listed.length;
  const block = listed.join('\n');
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(block) + 1));
  return [
    `### ${escapeMarkdown(title)}: could not start`,
    '',
    ...(note === '' ? [] : [note, '']),
    `> [!CAUTION]\n> No case ran, so there is no verdict: ${escapeMarkdown(run.reason)}. Fix it and push again; the step's log and annotations say the same.`,
    '',
    ...(listed.length === 0 ? [] : [`${fence}text`, block, fence, '']),
    ...(more > 0 ? [`and ${more} more (the step's log lists every one).`, ''] : []),
  ].join('\n');
}

/** Check-run annotations at the problems' lines: at most one request's worth. */
export function notStartedAnnotations(run: NotStarted): Annotation[] {
  const annotations: Annotation[] = [];
  for (const problem of run.problems) {
    if (problem.at === undefined) continue;
    annotations.push({
      path: problem.at.path,
      start_line: problem.at.line,
      end_line: problem.at.line,
      annotation_level: 'failure',
      title: 'evalgate: invalid config',
      message: problem.message,
    });
    if (annotations.length === ANNOTATIONS_MAX) break;
  }
  return annotations;
}

function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return longest;
}

/** Text for a Markdown line: characters that would start markup are escaped. */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>#|!~]/g, (char) => `\\${char}`);
}
