/**
 * A case in detail, in a panel over the page: inputs, output, expected and the difference
 * between the two (words added and removed, by jsdiff; none for a case that errored, which has
 * no output), every evaluation with its reason or error, the trials and the model calls.
 */
import type { CaseView, ReportModel } from '../src/report/html-model.ts';
import { cutText, startOf } from '../src/shared/cut-text.ts';
import { count, el, milliseconds, score } from './dom.ts';
import { baselinePart } from './baseline.ts';
import { diffView } from './diff.ts';

/** The detail's output of a case that errored, which has none. */
const NO_OUTPUT = 'no output (the case errored)';

/** The detail's output of a case whose output is the empty string. */
const EMPTY_OUTPUT = 'empty (no characters)';

/** The panel; `show` fills it with a case and opens it. */
export function detailPanel(model: ReportModel): {
  panel: HTMLElement;
  show: (view: CaseView) => void;
} {
  const body = el('div', { class: 'body' });
  const close = el('button', { type: 'button', class: 'close', 'aria-label': 'close' }, '×');
  const panel = el(
    'aside',
    { id: 'detail', hidden: '', role: 'dialog', 'aria-label': 'case detail' },
    close,
    body,
  );
  // Keyboard users land in the panel when it opens and back on the row (or link) that opened
  // it when it closes; otherwise the detail is many Tab presses away, past every row drawn.
  let opener: Element | null = null;
  const hide = (): void => {
    if (panel.hasAttribute('hidden')) return;
    panel.setAttribute('hidden', '');
    if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    opener = null;
  };
  close.addEventListener('click', hide);
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') hide();
  });
  const show = (view: CaseView): void => {
    if (panel.hasAttribute('hidden')) opener = document.activeElement;
    body.replaceChildren(...content(model, view));
    panel.removeAttribute('hidden');
    body.scrollTop = 0;
    close.focus();
  };
  return { panel, show };
}

function content(model: ReportModel, view: CaseView): HTMLElement[] {
  const parts: HTMLElement[] = [
    el('h2', {}, `${view.status.toUpperCase()}${view.flaky ? ' (flaky)' : ''} · ${view.id}`),
    el(
      'p',
      { class: 'meta' },
      [
        model.runs[view.run]?.name,
        view.source ?? 'inline case',
        milliseconds(view.durationMs),
        ...(view.tags.length > 0 ? [`tags: ${view.tags.join(', ')}`] : []),
      ].join(' · '),
    ),
  ];
  // Opened from the comparison's newly failing list or the table, the case says what made it
  // news: it passed in the baseline. Without it the detail read as any failure of this run.
  if (view.newlyFailing === true) {
    parts.push(
      el(
        'p',
        { id: 'detail-newly-failing', class: 'warning' },
        el('strong', {}, 'Newly failing:'),
        ` passed in the baseline, ${view.status} now.`,
      ),
    );
  }
  if (view.fixed === true) {
    parts.push(
      el(
        'p',
        { id: 'detail-fixed', class: 'note' },
        el('strong', {}, 'Fixed:'),
        ' did not pass in the baseline, passes now.',
      ),
    );
  }
  if (view.label !== null) parts.push(el('p', { class: 'label' }, view.label));
  // The row's reason, whole (its cell is cut): the same words as the table's why column.
  if (view.why !== undefined) parts.push(el('p', { id: 'detail-why', class: 'why bad' }, view.why));
  // What it answered in the baseline, beside what it answers now (newly failing, fixed).
  parts.push(...baselinePart(model, view));
  parts.push(block('Inputs', view.inputs, 'detail-inputs'));
  // What the target sent (rendered messages, a request, a command line), before what came back.
  if (view.sent !== undefined) parts.push(block('Sent', view.sent, 'detail-sent'));
  if (view.error !== null) parts.push(block('Error', view.error, 'detail-error'));
  const output = view.output;
  // An errored case has no output: saying so, rather than showing `null`, which would read as
  // what the function returned; and nothing to diff what was expected against.
  // An empty one (a command that failed before writing to stdout) is said to be empty, not drawn
  // as a blank box that reads as a page that failed to fill it.
  const noText = output === null ? NO_OUTPUT : output === '' ? EMPTY_OUTPUT : null;
  parts.push(
    noText !== null
      ? el(
          'div',
          { class: 'block' },
          el('h3', {}, 'Output'),
          el('p', { id: 'detail-output', class: 'dim' }, noText),
        )
      : block('Output', shownOutput(model, output ?? ''), 'detail-output'),
  );
  // Beside the output it is about: why a number there is not the one the answer sent.
  for (const warning of view.warnings ?? []) {
    parts.push(
      el('p', { class: 'warning detail-warning' }, el('strong', {}, 'Warning:'), ` ${warning}`),
    );
  }
  const compared = view.compared;
  if (compared !== null) {
    parts.push(block('Expected', compared.expected, 'detail-expected'));
  }
  // Not for a case that errored: its evaluators never compared what it kept of its output (a
  // failed command's stdout) with anything, and a diff would read as though they had.
  if (compared !== null && output !== null && view.status !== 'errored') {
    // Against what an evaluation compared when it recorded that (a field of the output), so
    // the other fields of the output do not show as differences; the heading says which.
    parts.push(
      el('h3', { id: 'detail-diff-title' }, `Expected vs ${compared.what}`),
      diffView(
        compared.expected,
        compared.actual ?? startOf(output, model.maxShownChars),
        'detail-diff',
      ),
    );
  }
  parts.push(el('h3', {}, 'Evaluations'), evaluationsPart(view));
  if (view.trials !== null) {
    parts.push(
      el(
        'h3',
        {},
        `Trials (${count(view.trials.filter((t) => t.passed).length)} of ${count(view.trials.length)} passed)`,
      ),
      el(
        'ol',
        { class: 'trials' },
        ...view.trials.map((t) =>
          el(
            'li',
            { class: t.passed ? 'ok' : 'bad' },
            `${t.passed ? '✓' : '✗'} ${milliseconds(t.durationMs)} · ${t.error ?? [t.scores.map((e) => `${e.evaluator} ${e.score === null ? 'error' : score(e.score)}`).join(', '), ...t.reasons].join(' — ')}`,
          ),
        ),
      ),
    );
  }
  if (view.usage !== null)
    parts.push(
      el('h3', {}, 'Model calls of the target'),
      el('p', { id: 'detail-usage' }, view.usage),
    );
  return parts;
}

/**
 * The output as the detail shows it: whole up to the model's `maxShownChars`, then cut with a
 * note (the page holds it whole, so a search still finds text past the cut).
 */
function shownOutput(model: ReportModel, output: string): string {
  const { start, left } = cutText(output, model.maxShownChars);
  if (left === 0) return output;
  return `${start}\n… (${count(left)} more characters, which the search covers: evals show --full prints all)`;
}

function block(title: string, text: string, id: string): HTMLElement {
  return el('div', { class: 'block' }, el('h3', {}, title), el('pre', { id }, text));
}

/**
 * The evaluations table, or for a case that has none (its function threw, so no evaluator ran)
 * a line saying why, never a table of headings with no row.
 */
function evaluationsPart(view: CaseView): HTMLElement {
  if (view.evaluations.length > 0) return evaluationsTable(view);
  const why =
    view.error !== null
      ? 'none: the case errored before its evaluators ran'
      : 'none: no evaluator applies to this case';
  return el('p', { id: 'detail-evaluations', class: 'dim' }, why);
}

function evaluationsTable(view: CaseView): HTMLElement {
  const rows = view.evaluations.map((e) =>
    el(
      'tr',
      {
        class:
          e.error !== null ? 'err' : e.passed === false ? 'bad' : e.passed === true ? 'ok' : '',
      },
      el(
        'td',
        {},
        e.error !== null ? '!' : e.passed === true ? '✓' : e.passed === false ? '✗' : '·',
      ),
      el('td', {}, e.evaluator),
      el('td', { class: 'num' }, score(e.score)),
      el('td', {}, e.threshold ?? 'no threshold'),
      el('td', { class: 'reason' }, e.error !== null ? `error: ${e.error}` : (e.reason ?? '')),
      el('td', { class: 'dim' }, e.usage ?? ''),
    ),
  );
  return el(
    'table',
    { class: 'grid', id: 'detail-evaluations' },
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        ...['', 'evaluator', 'score', 'needs', 'reason', 'judge usage'].map((h) => el('th', {}, h)),
      ),
    ),
    el('tbody', {}, ...rows),
  );
}
