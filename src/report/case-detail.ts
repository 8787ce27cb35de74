/**
 * One case as `evals show` prints it: where it comes from, its inputs, its output, every
 * evaluation (score, threshold, pass, the reason its evaluator gave, the error with its causes),
 * its trials and its model calls. Long values are cut with a note unless `full`; an error is cut
 * in the middle, never at its end, where its cause is. Pure: data in, text out.
 */
import { describeThreshold } from '../run/threshold.ts';
import { printable } from '../shared/text-table.ts';
import type { CaseResult, EvaluationResult, RunResult, TrialResult } from '../types/index.ts';
import { canonicalJson } from '../shared/canonical-json.ts';
import type { Painter } from './ansi.ts';
import { caseLabel, fitBeside } from './case-text.ts';
import { reasonOf, reasonWithTrial } from './evaluation-reason.ts';
import { outputText, shortenText } from './failure-details.ts';
import {
  describeRun,
  describeThresholdFor,
  describeUsage,
  formatCount,
  formatScore,
} from './labels.ts';
import { oneLine } from '../shared/one-line.ts';

/** How much of each value a case detail shows. */
export interface DetailOptions {
  /** Show every value whole. */
  full: boolean;
  paint: Painter;
  /**
   * The terminal's width, when known: the run's name (its grid values) is cut in its middle to
   * fit, unless `full`. The values of the case are never cut to it.
   */
  width?: number | undefined;
}

/** Characters and lines of a value shown without `--full`. */
const SHOWN_CHARS = 600;
const SHOWN_LINES = 12;
/** An error is shown whole up to this; longer, its middle is left out. */
const ERROR_CHARS = 2000;
const INDENT = '  ';
/** Characters of each reason on a trial's line: enough for `expected "…", got "…"`. */
const TRIAL_REASON_CHARS = 160;

/** The text of one case of `run`, several lines, ending with a newline. */
export function renderCaseDetail(
  run: RunResult,
  result: CaseResult,
  options: DetailOptions,
): string {
  const { paint } = options;
  const status = result.error !== null ? 'errored' : result.passed ? 'passed' : 'failed';
  const mark =
    status === 'passed'
      ? paint.green('✓')
      : status === 'errored'
        ? paint.yellow('!')
        : paint.red('✗');
  const word =
    status === 'passed'
      ? paint.green('PASSED')
      : status === 'errored'
        ? paint.yellow('ERRORED')
        : paint.red('FAILED');
  const source = result.source ? `${result.source.file}:${result.source.line}` : '(inline case)';
  const flaky = result.flaky === true ? `  ${paint.yellow('flaky')}` : '';
  const lines = [
    `${mark} ${paint.bold(printable(result.id))}  ${word}${flaky}`,
    field(
      'run',
      fitBeside(describeRun(run), FIELD_WIDTH, options.full ? undefined : options.width),
    ),
    field('source', printable(source)),
  ];
  const label = caseLabel(result);
  if (label !== null) lines.push(field('label', printable(label)));
  lines.push(fieldsBlock('inputs', result.data, options));
  // What the target sent (a model's rendered messages, a request, a command line), scrubbed by
  // the run: what a failing case is debugged from, before what came back.
  if (result.sent !== undefined) lines.push(block('sent', result.sent, options));
  if (result.output === '') {
    // Said, not left blank (a command that failed before writing to stdout).
    lines.push(field('output', options.paint.dim('empty (no characters)')));
  } else if (result.output !== null || result.error === null) {
    lines.push(block('output', valueText(result.output), options));
  }
  if (result.error !== null)
    lines.push(block('error', errorText(result.error, options), options, false));
  // Said beside the output it is about: why a number there is not the one the answer sent.
  for (const warning of result.warnings ?? []) lines.push(block('warning', warning, options));
  lines.push(`${INDENT}duration  ${formatCount(Math.round(result.durationMs))} ms`);
  if (result.evaluations.length > 0) {
    lines.push(`${INDENT}evaluations:`);
    const nameWidth = Math.max(...result.evaluations.map((e) => printable(e.evaluator).length));
    for (const evaluation of result.evaluations) {
      lines.push(...evaluationLines(evaluation, nameWidth, result.trials !== undefined, options));
    }
  }
  if (result.trials !== undefined) lines.push(...trialLines(result.trials, options));
  // describeUsage names itself (`model calls: 3 · tokens: …`): no field label before it.
  if (result.usage !== undefined) lines.push(`${INDENT}${describeUsage(result.usage)}`);
  return `${lines.join('\n')}\n`;
}

/** `trials: 1 of 2 passed`, then a line a trial: its mark, duration, scores and why it failed. */
function trialLines(trials: readonly TrialResult[], options: DetailOptions): string[] {
  const { paint } = options;
  const passed = trials.filter((trial) => trial.passed).length;
  const lines = [`${INDENT}trials: ${formatCount(passed)} of ${formatCount(trials.length)} passed`];
  trials.forEach((trial, index) => {
    const scores = trial.evaluations
      .map(
        (e) =>
          `${printable(e.evaluator)} ${e.score === null ? 'error' : formatScore(e.score, e.threshold)}`,
      )
      .join(', ');
    const what =
      trial.error !== null
        ? `error: ${errorText(trial.error, options)}`
        : [scores, ...trialReasons(trial.evaluations)].join(' \u2014 ');
    lines.push(
      `${INDENT}${INDENT}${index + 1}. ${trial.passed ? paint.green('\u2713') : paint.red('\u2717')} ${formatCount(Math.round(trial.durationMs))} ms  ${printable(oneLine(what))}`,
    );
  });
  return lines;
}

/**
 * Why the evaluations of one trial failed, `exact: expected "Paris", got "Lyon"` each, cut to
 * `TRIAL_REASON_CHARS`: the case's evaluations explain one failing trial each, so a trial that
 * failed otherwise (the failing trial of a flaky case that passed) says why here.
 */
function trialReasons(evaluations: readonly EvaluationResult[]): string[] {
  const reasons: string[] = [];
  for (const evaluation of evaluations) {
    if (evaluation.passed !== false) continue;
    const reason = reasonOf(evaluation);
    if (reason !== null) {
      reasons.push(`${evaluation.evaluator}: ${shortenText(oneLine(reason), TRIAL_REASON_CHARS)}`);
    }
  }
  return reasons;
}

/**
 * `✗ exact  0  needs ≥ 1`, then the reason its evaluator gave (with trials, `trial 2: …`, the
 * trial it came from: see `fromTrial` in docs/artifact.md), then the error's lines.
 */
function evaluationLines(
  evaluation: EvaluationResult,
  nameWidth: number,
  hasTrials: boolean,
  options: DetailOptions,
): string[] {
  const { paint } = options;
  const mark =
    evaluation.error !== null
      ? paint.yellow('!')
      : evaluation.passed === true
        ? paint.green('✓')
        : evaluation.passed === false
          ? paint.red('✗')
          : paint.dim('·');
  const score =
    evaluation.score === null ? '—' : formatScore(evaluation.score, evaluation.threshold);
  const parts = [
    `${mark} ${paint.bold(printable(evaluation.evaluator).padEnd(nameWidth))}`,
    score.padStart(5),
    evaluation.threshold === null
      ? 'no threshold'
      : evaluation.score === null
        ? `needs ${describeThreshold(evaluation.threshold)}`
        : `needs ${describeThresholdFor(evaluation.threshold, evaluation.score)}`,
  ];
  const reason = reasonWithTrial(evaluation, hasTrials);
  const under = `${INDENT}${INDENT}${INDENT}`;
  const lines = [`${INDENT}${INDENT}${parts.join('  ')}`];
  if (reason !== null) lines.push(indentLines(printableLines(cut(reason, options)), under));
  if (evaluation.error !== null) {
    lines.push(
      indentLines(printableLines(`error: ${errorText(evaluation.error, options)}`), under),
    );
  }
  if (evaluation.usage !== undefined) lines.push(`${under}${describeUsage(evaluation.usage)}`);
  return lines;
}

/** `label  value` on one line, or `label:` and the value indented under it when it has lines. */
function block(label: string, text: string, options: DetailOptions, shorten = true): string {
  const shown = printableLines(shorten ? cut(text, options) : text);
  if (!shown.includes('\n') && shown.length <= 80) return field(label, shown);
  return `${INDENT}${label}:\n${indentLines(shown, `${INDENT}${INDENT}`)}`;
}

/** Columns before a field's text: the indent, the label padded to 8, two spaces. */
const FIELD_WIDTH = 12;

function field(label: string, text: string): string {
  return `${INDENT}${label.padEnd(8)}  ${text}`;
}

/**
 * A case's inputs: an object as `key  value` lines (strings as they are, other values as compact
 * JSON), anything else as a value.
 */
function fieldsBlock(label: string, data: unknown, options: DetailOptions): string {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return block(label, valueText(data), options);
  }
  const entries = Object.entries(data as Record<string, unknown>);
  const keyWidth = Math.min(20, Math.max(0, ...entries.map(([key]) => printable(key).length)));
  const lines = entries.map(([key, value]) => {
    const text = printableLines(
      cut(typeof value === 'string' ? value : outputText(value), options),
    );
    const [first = '', ...rest] = text.split('\n');
    const under = ' '.repeat(keyWidth + 2);
    return [
      `${printable(key).padEnd(keyWidth)}  ${first}`,
      ...rest.map((line) => under + line),
    ].join('\n');
  });
  return `${INDENT}${label}:\n${indentLines(lines.join('\n'), `${INDENT}${INDENT}`)}`;
}

/** A value as text: strings as they are, anything else as indented JSON. */
function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object') return outputText(value);
  try {
    return JSON.stringify(value, null, 2) ?? outputText(value);
  } catch {
    return outputText(value);
  }
}

function cut(text: string, options: DetailOptions): string {
  if (options.full) return text;
  const shortened = shortenText(text, SHOWN_CHARS, SHOWN_LINES);
  return shortened === text ? text : `${shortened} (--full shows all)`;
}

/** An error whole, or its start and its end around a note when it is very long. */
function errorText(error: string, options: DetailOptions): string {
  const chars = Array.from(error);
  if (options.full || chars.length <= ERROR_CHARS) return error;
  const head = chars.slice(0, ERROR_CHARS / 4).join('');
  const tail = chars.slice(-(ERROR_CHARS * 3) / 4).join('');
  return `${head} … (${formatCount(chars.length - ERROR_CHARS)} characters left out; --full shows all) … ${tail}`;
}

/** Control characters shown as `\u001b`, line breaks kept. */
function printableLines(text: string): string {
  return text.split(/\r?\n/).map(printable).join('\n');
}

function indentLines(text: string, indent: string): string {
  return text
    .split('\n')
    .map((line) => `${indent}${line}`)
    .join('\n');
}

/**
 * A case's result in the baseline (`evals show --baseline`), printed under the case: its status,
 * its inputs when they are not HEAD's (`head`; a case is paired by id, and an id can hash only
 * some columns), what its target sent when that is not HEAD's, output, error, warnings, every evaluation and its trials, as the case's own are
 * printed; `name` is the baseline file. `base` was scrubbed whole before it reached here; cut
 * here as the case's values are.
 */
export function renderBaselineDetail(
  base: CaseResult | undefined,
  name: string,
  options: DetailOptions,
  head?: CaseResult,
): string {
  const { paint } = options;
  const heading = `${INDENT}${paint.bold('in BASE')} (${printable(name)}):`;
  if (base === undefined) return `${heading} no result for this case (not in the baseline)\n`;
  const word =
    base.error !== null
      ? paint.yellow('ERRORED')
      : base.passed
        ? paint.green('PASSED')
        : paint.red('FAILED');
  const lines = [`${heading} ${word}`];
  if (head !== undefined && canonicalJson(head.data) !== canonicalJson(base.data)) {
    lines.push(fieldsBlock('inputs', base.data, options));
  }
  // What the target sent then, when it is not what it sends now (a prompt or a command changed):
  // often the reason the answer changed.
  if (base.sent !== undefined && base.sent !== head?.sent) {
    lines.push(block('sent', base.sent, options));
  }
  if (base.output !== null || base.error === null) {
    lines.push(block('output', valueText(base.output), options));
  }
  if (base.error !== null)
    lines.push(block('error', errorText(base.error, options), options, false));
  for (const warning of base.warnings ?? []) lines.push(block('warning', warning, options));
  if (base.evaluations.length > 0) {
    lines.push(`${INDENT}evaluations:`);
    const nameWidth = Math.max(...base.evaluations.map((e) => printable(e.evaluator).length));
    for (const evaluation of base.evaluations) {
      lines.push(...evaluationLines(evaluation, nameWidth, base.trials !== undefined, options));
    }
  }
  if (base.trials !== undefined) lines.push(...trialLines(base.trials, options));
  return `${lines.join('\n')}\n`;
}
