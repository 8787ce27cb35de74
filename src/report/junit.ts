/**
 * JUnit XML (`--junit FILE`) for CI systems that show test reports: one `<testsuite>` per run,
 * one `<testcase>` per case, then, for a run cut short, one skipped `(not run)` testcase for the
 * cases it never ran, and a `(gate)` testcase when the gate failed for a reason the cases' own
 * testcases do not show. Pure: artifact (and its cases) in, XML text out, as one string or in
 * pieces, so a run's cases can come one at a time from the case spool rather than memory.
 */
import { gridValueText } from '../shared/grid-value-text.ts';
import { oneLine } from '../shared/one-line.ts';
import { posix } from 'node:path';
import { ExactSum } from '../run/exact-sum.ts';
import type {
  CaseResult,
  EvaluationResult,
  GateCondition,
  ResultsArtifact,
  RunResult,
} from '../types/index.ts';
import { caseReasons } from './case-lines.ts';
import { reasonWithTrial } from './evaluation-reason.ts';
import { goneSuitesXml } from './junit-gone-suites.ts';
import {
  describeFailedEvaluation,
  describeThresholdFor,
  errorGist,
  flakyLabel,
  formatCount,
  formatMean,
  formatParams,
  plural,
} from './labels.ts';
import { cutReason } from './reason-cut.ts';

/**
 * Columns of each reason in a failure's `message`, which CI tools show on one line: enough for
 * `exact 0 (needs ≥ 1): expected "…", got "…"`; the element's text has everything whole.
 */
const MESSAGE_REASON_WIDTH = 400;

/**
 * A run's case counts as JUnit has them, and the sum of case times (exact, so it does not
 * depend on the order cases are added in: finishing order or testset order).
 */
export class JUnitTotals {
  tests = 0;
  failures = 0;
  errors = 0;
  readonly #time = new ExactSum();

  add(result: CaseResult): void {
    this.tests++;
    if (result.error !== null) this.errors++;
    else if (!result.passed) this.failures++;
    this.#time.add(result.durationMs);
  }

  get timeMs(): number {
    return this.#time.value();
  }
}

/** Where the report's runs take their cases from: each run's totals, and its cases in order. */
export interface JUnitCases {
  totals(run: number): JUnitTotals;
  cases(run: number): Iterable<CaseResult>;
}

/**
 * Cases that can be read more than once (`cases(run)` starts over each time): a run's are read
 * once for its totals, which its `<testsuite>` tag carries, and again to render them, so a run
 * read a case at a time from a file is never held in memory.
 */
export function rereadableCases(cases: (run: number) => Iterable<CaseResult>): JUnitCases {
  return {
    totals(run) {
      const totals = new JUnitTotals();
      for (const result of cases(run)) totals.add(result);
      return totals;
    },
    cases,
  };
}

/** Renders the artifact as a JUnit XML document (UTF-8, ends with a newline). */
export function renderJUnit(artifact: ResultsArtifact): string {
  const source = rereadableCases((run) => artifact.runs[run]?.cases ?? []);
  return [...junitChunks(artifact, source)].join('');
}

/** {@link renderJUnit} in pieces, with each run's cases taken from `source`. */
export function* junitChunks(artifact: ResultsArtifact, source: JUnitCases): Generator<string> {
  const suites = artifact.runs.map((run, index) => suiteTotals(run, source.totals(index)));
  const gone = artifact.missingSuites ?? [];
  const attributes = attrs({
    name: 'evalgate',
    tests: sum(suites.map((totals) => totals.tests)) + gone.length,
    failures: sum(suites.map((totals) => totals.failures)) + gone.length,
    errors: sum(suites.map((totals) => totals.errors)),
    // The suites' times summed, as each suite's is its cases': the run's wall time (the
    // artifact's durationMs) is shorter when cases ran concurrently, and a total below one of
    // its suites reads as an error. Every `time` here is time spent in cases.
    time: seconds(sum(suites.map((totals) => totals.timeMs))),
    timestamp: artifact.startedAt,
  });
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${attributes}>\n`;
  for (const [index, run] of artifact.runs.entries()) {
    const totals = suites[index]!;
    const name = junitSuiteName(run);
    yield `${suiteHead(run, name, totals)}\n`;
    for (const result of source.cases(index)) {
      yield `${renderCase(result, name, artifact.config)}\n`;
    }
    if (totals.notRun > 0) yield `${renderNotRun(run, name, totals.notRun, artifact)}\n`;
    if (totals.gateFailed) yield `${renderGate(run, name)}\n`;
    yield '  </testsuite>\n';
  }
  yield goneSuitesXml(gone, { text: escapeXmlText, attribute: escapeXmlAttribute });
  yield '</testsuites>\n';
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/** `capitals` or `capitals [model=large, temperature=0]`: unique per grid point. */
export function junitSuiteName(run: Pick<RunResult, 'suite' | 'params'>): string {
  const params = formatParams(run.params, ', ');
  return params ? `${run.suite} [${params}]` : run.suite;
}

/**
 * A `<testsuite>`'s counts: its cases', plus the `(not run)` testcase (skipped) when cases it
 * planned never ran, and the gate's testcase when it has one.
 */
interface SuiteTotals {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  timeMs: number;
  /** Planned cases with no result: the run was cut short (`testset.cases` is what it planned). */
  notRun: number;
  gateFailed: boolean;
}

function suiteTotals(run: RunResult, cases: JUnitTotals): SuiteTotals {
  const notRun = Math.max(0, run.testset.cases - cases.tests);
  const gateFailed = showsGate(run, cases);
  return {
    tests: cases.tests + (notRun > 0 ? 1 : 0) + (gateFailed ? 1 : 0),
    failures: cases.failures + (gateFailed ? 1 : 0),
    errors: cases.errors,
    skipped: notRun > 0 ? 1 : 0,
    timeMs: cases.timeMs,
    notRun,
    gateFailed,
  };
}

/**
 * Whether a failed run gets a `(gate)` testcase: unless its failing cases say all there is to say
 * (`all cases pass` is its only failed condition, and a case testcase failed or errored). A gate
 * can fail while every case passed (an evaluator mean below its bound), or for what no case
 * shows (`complete`: cases never ran; `minPassRate`: too many failed). Without the testcase the
 * report would hide why a run whose verdict is fail failed.
 */
function showsGate(run: RunResult, cases: JUnitTotals): boolean {
  if (run.verdict !== 'fail') return false;
  const failed = run.gate.conditions.filter((condition) => !condition.passed);
  const casesSayIt = cases.failures + cases.errors > 0;
  return !(casesSayIt && failed.length > 0 && failed.every(isAllCasesPass));
}

function isAllCasesPass(condition: GateCondition): boolean {
  return condition.name === 'all cases pass';
}

/** The `<testsuite>` start tag and its properties. */
function suiteHead(run: RunResult, name: string, totals: SuiteTotals): string {
  const properties = [
    property('revision', run.testset.revision),
    run.testset.path === null ? null : property('testset', run.testset.path),
    run.testset.ref === null ? null : property('ref', run.testset.ref),
    ...Object.entries(run.params).map(([key, value]) =>
      property(`param.${key}`, gridValueText(value)),
    ),
  ].filter((line) => line !== null);
  const attributes = attrs({
    name,
    tests: totals.tests,
    failures: totals.failures,
    errors: totals.errors,
    skipped: totals.skipped,
    // Sum of case times, as JUnit consumers expect; cases ran concurrently, so this may exceed
    // the run's wall time (the `<testsuites>` total is the sum of these, never less than one).
    time: seconds(totals.timeMs),
  });
  return [
    `  <testsuite${attributes}>`,
    '    <properties>',
    ...properties,
    '    </properties>',
  ].join('\n');
}

/**
 * One case. Its name is its whole id: consumers key a test's history by classname + name, and a
 * case id is unique within a run and stays the same when rows are added above it, where a line
 * number would shift and a cut id (`question-00…`) would name many cases alike. Where it comes
 * from goes in the `file` and `line` attributes. A flaky case (trials) keeps its name, so CI
 * history still matches it across runs; the flakiness goes in the failure or error message
 * (`flaky 1/3; …`), or, when it passed, in a `<system-out>` line, since JUnit has no "passed,
 * but unstable" status.
 */
function renderCase(result: CaseResult, classname: string, config: string): string {
  // The classname carries the grid point: two grid points of one suite must not collide.
  const open = `    <testcase${attrs({
    name: result.id,
    classname,
    time: seconds(result.durationMs),
    file: result.source ? rowFile(config, result.source.file) : undefined,
    line: result.source?.line,
  })}`;
  const flaky = flakyLabel(result);
  const prefix = flaky === null ? '' : `${flaky}; `;
  if (result.error !== null) {
    return `${open}>\n      <error${attrs({ message: prefix + errorGist(result.error), type: 'error' })}>${escapeXmlText(result.error)}</error>\n    </testcase>`;
  }
  if (!result.passed) {
    // Each reason as the summary gives it, with what its evaluator said (and, with trials, from
    // which trial): `exact 0 (needs ≥ 1): trial 2: expected "Paris", got "Lyon"`.
    const reasons = caseReasons(result).map((reason) =>
      cutReason(oneLine(reason), MESSAGE_REASON_WIDTH),
    );
    const message = prefix + reasons.join('; ');
    return `${open}>\n      <failure${attrs({ message, type: 'evaluation' })}>${escapeXmlText(failureBody(result))}</failure>\n    </testcase>`;
  }
  // What the target noted about the output (an integer past 2^53 read as another), said beside it.
  const out = [...(flaky === null ? [] : [`${flaky} trials passed`]), ...warningLines(result)];
  if (out.length > 0) {
    return `${open}>\n      <system-out>${escapeXmlText(out.join('\n'))}</system-out>\n    </testcase>`;
  }
  return `${open}/>`;
}

/**
 * Per failing evaluation: its reason (with the evaluator's whole error) and, when it returned
 * any, its metadata as JSON. When no evaluation failed (an `any` or custom pass condition said
 * no), every evaluation is listed so the reader sees what the condition was given. With trials,
 * first how many passed and the rule, and each evaluation in trials: its mean score against the
 * threshold alone (`exact 0.333 (needs ≥ 1)`) misread a majority of trials as a mean.
 */
function failureBody(result: CaseResult): string {
  const failed = result.evaluations.filter((evaluation) => evaluation.passed === false);
  const blocks = (failed.length > 0 ? failed : result.evaluations).map((evaluation) => {
    const head =
      evaluation.error === null
        ? (inTrials(evaluation) ?? describeFailedEvaluation(evaluation))
        : `${evaluation.evaluator}: error: ${evaluation.error}`;
    return evaluation.metadata === null ? head : `${head}\n${safeJson(evaluation.metadata)}`;
  });
  const trials = result.trials;
  if (trials !== undefined) {
    const passed = trials.filter((trial) => trial.passed).length;
    const errored = trials.filter((trial) => trial.error !== null).length;
    const why = errored === 0 ? '' : ` (${formatCount(errored)} with an error)`;
    blocks.unshift(
      `${formatCount(passed)} of ${plural(trials.length, 'trial')} passed, ${formatCount(trials.length - passed)} failed${why}: a case passes when more than half of its trials pass`,
    );
  }
  return [...blocks, ...warningLines(result)].join('\n\n');
}

function warningLines(result: CaseResult): string[] {
  return (result.warnings ?? []).map((warning) => `warning: ${warning}`);
}

/**
 * A failed evaluation over trials in words, with one failing trial's reason: `exact: passed 1 of
 * 3 trials, needs more than half (a trial passes with a score ≥ 1; mean score 0.333)` and `trial 2:
 * expected "Paris", got "Lyon"`. Null for one trial.
 */
function inTrials(evaluation: EvaluationResult): string | null {
  const { scored, passedTrials, trials } = evaluation.metadata ?? {};
  if (typeof scored !== 'number' || typeof passedTrials !== 'number' || evaluation.score === null)
    return null;
  const rule =
    evaluation.threshold === null
      ? ''
      : `a trial passes with a score ${describeThresholdFor(evaluation.threshold, evaluation.score)}; `;
  const head = `${evaluation.evaluator}: passed ${formatCount(passedTrials)} of ${plural(scored, 'trial')}${trials === scored ? '' : ' that scored it'}, needs more than half (${rule}mean score ${formatMean(evaluation.score)})`;
  const reason = reasonWithTrial(evaluation, true);
  return reason === null ? head : `${head}\n${reason}`;
}

/**
 * A row's file as seen from where the run started (what a CI tool that annotates from `file`
 * resolves): the artifact keeps it relative to the config's folder.
 */
function rowFile(config: string, file: string): string {
  return posix.isAbsolute(file) ? file : posix.join(posix.dirname(config), file);
}

/**
 * The cases a run planned and never ran, as one skipped testcase stating how many: the artifact
 * counts them (`testset.cases`) but does not say which they were.
 */
function renderNotRun(
  run: RunResult,
  classname: string,
  notRun: number,
  artifact: ResultsArtifact,
): string {
  const why = artifact.interrupted ? 'the run was interrupted' : 'the run ended before them';
  const message = `${formatCount(notRun)} of the ${plural(run.testset.cases, 'planned case')} ${notRun === 1 ? 'was' : 'were'} never run: ${why}`;
  return [
    // In parentheses, as `(gate)` is: it reads as no case of the testset.
    `    <testcase${attrs({ name: '(not run)', classname, time: seconds(0) })}>`,
    `      <skipped${attrs({ message })}/>`,
    '    </testcase>',
  ].join('\n');
}

function renderGate(run: RunResult, classname: string): string {
  const failed = run.gate.conditions.filter((condition) => !condition.passed);
  const reasons = failed.map((c) => `${c.name}: expected ${c.expected}, got ${c.actual}`);
  const message = reasons.length > 0 ? reasons.join('; ') : 'gate failed';
  return [
    // In parentheses: no case id of the suite can then name a testcase like it.
    `    <testcase${attrs({ name: '(gate)', classname, time: seconds(0) })}>`,
    `      <failure${attrs({ message, type: 'gate' })}>${escapeXmlText(reasons.join('\n'))}</failure>`,
    '    </testcase>',
  ].join('\n');
}

function property(name: string, value: string): string {
  return `      <property${attrs({ name, value })}/>`;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(
      value,
      (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item),
      2,
    );
  } catch {
    return String(value);
  }
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** ` a="1" b="x"`, escaped for an attribute value; an `undefined` value is left out. */
function attrs(values: Record<string, string | number | undefined>): string {
  return Object.entries(values)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([key, value]) => ` ${key}="${escapeXmlAttribute(String(value))}"`)
    .join('');
}

/**
 * Characters XML 1.0 cannot hold at all, not even as references: most C0 controls, lone
 * surrogates, U+FFFE and U+FFFF. Model output contains such things; they are dropped.
 */
const INVALID_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Escapes element text; a carriage return becomes a reference so parsers keep it. */
export function escapeXmlText(value: string): string {
  return value.replace(INVALID_XML, '').replace(/[&<>\r]/g, (char) => TEXT_ENTITIES[char] ?? char);
}

/**
 * Escapes an attribute value. Tab, newline and carriage return become character references,
 * because a parser would otherwise normalise them to spaces.
 */
export function escapeXmlAttribute(value: string): string {
  return value
    .replace(INVALID_XML, '')
    .replace(/[&<>"'\t\n\r]/g, (char) => ATTRIBUTE_ENTITIES[char] ?? char);
}

const TEXT_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '\r': '&#13;',
};
const ATTRIBUTE_ENTITIES: Record<string, string> = {
  ...TEXT_ENTITIES,
  '"': '&quot;',
  "'": '&apos;',
  '\t': '&#9;',
  '\n': '&#10;',
};
