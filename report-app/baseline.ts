/**
 * A changed case's detail beside its baseline (newly failing, fixed): BASE and HEAD side by
 * side (status, output, each evaluator's score and verdict), differences marked, and what
 * changed in the output from BASE to HEAD. The baseline's results come scrubbed and cut from
 * Node (`CaseView.base`); a changed case the page holds none for says why and how to see it.
 */
import type { CaseView, ReportModel } from '../src/report/html-model.ts';
import { startOf } from '../src/shared/cut-text.ts';
import { count, el, score } from './dom.ts';
import { diffView } from './diff.ts';

/** What marks a difference between BASE and HEAD (with its title). */
const CHANGED = '\u2260';

/** The baseline part of `view`'s detail; [] for a case that did not change. */
export function baselinePart(model: ReportModel, view: CaseView): HTMLElement[] {
  const base = view.base;
  if (base === undefined) {
    const held = model.baseCases;
    if ((view.newlyFailing !== true && view.fixed !== true) || held === null) return [];
    if (held.unread !== null) {
      return [
        el(
          'p',
          { id: 'detail-base-missing', class: 'note' },
          `The baseline's result of this case is not in the page: ${held.unread} (evals report RESULTS --baseline BASE -o FILE adds it).`,
        ),
      ];
    }
    // Read, but past the page's limit on them: where the rest are.
    return [
      el(
        'p',
        { id: 'detail-base-missing', class: 'note' },
        `The baseline's result of this case is not in the page: it holds ${count(held.held)} of the ${count(held.named)} changed cases. evals show RESULTS --case ${view.id} --baseline BASE prints it.`,
      ),
    ];
  }
  const headOutput = view.output;
  const outputChanged = !base.sameOutput;
  const headShown = headOutput === null ? null : startOf(headOutput, model.maxShownChars);
  const statusChanged = base.status !== view.status;
  const parts: HTMLElement[] = [
    el('h3', { id: 'detail-base-title' }, 'Baseline (BASE) vs this run (HEAD)'),
    el(
      'table',
      { class: 'grid sides', id: 'detail-base' },
      el('thead', {}, el('tr', {}, ...['', 'BASE', 'HEAD'].map((h) => el('th', {}, h)))),
      el(
        'tbody',
        {},
        sideRow('status', base.status, view.status, statusChanged),
        ...evaluationRows(view),
      ),
    ),
    el(
      'div',
      { class: 'sides-pre' },
      sideBlock(
        'BASE output',
        base.output ?? 'no output (the case errored)',
        'detail-base-output',
        outputChanged,
      ),
      sideBlock(
        'HEAD output',
        headShown ?? 'no output (the case errored)',
        'detail-head-output',
        outputChanged,
      ),
    ),
  ];
  // Beside BASE's output they are about, as HEAD's are beside its own: why a number there is
  // not the one the baseline's answer sent.
  for (const warning of base.warnings ?? []) {
    parts.push(
      el(
        'p',
        { class: 'warning detail-base-warning' },
        el('strong', {}, 'Warning in BASE:'),
        ` ${warning}`,
      ),
    );
  }
  if (base.why !== undefined) {
    parts.push(el('p', { id: 'detail-base-why', class: 'why' }, `In BASE: ${base.why}`));
  }
  if (base.error !== null) parts.push(el('pre', { id: 'detail-base-error' }, base.error));
  if (outputChanged && base.output !== null && headShown !== null) {
    parts.push(
      el('h3', {}, 'BASE output vs HEAD output'),
      diffView(base.output, headShown, 'detail-base-diff'),
    );
  }
  return parts;
}

/** A row per evaluator of either side: its score and verdict in BASE and in HEAD. */
function evaluationRows(view: CaseView): HTMLElement[] {
  const base = view.base?.evaluations ?? [];
  const names = [
    ...new Set([...base.map((e) => e.evaluator), ...view.evaluations.map((e) => e.evaluator)]),
  ];
  return names.map((name) => {
    const b = base.find((e) => e.evaluator === name);
    const h = view.evaluations.find((e) => e.evaluator === name);
    const shown = (e: { score: number | null; passed: boolean | null } | undefined): string =>
      e === undefined ? 'not run' : `${verdictMark(e.passed)} ${score(e.score)}`;
    const changed = b?.score !== h?.score || b?.passed !== h?.passed;
    return sideRow(name, shown(b), shown(h), changed);
  });
}

function verdictMark(passed: boolean | null): string {
  return passed === true ? '\u2713' : passed === false ? '\u2717' : '\u00b7';
}

function sideRow(name: string, base: string, head: string, changed: boolean): HTMLElement {
  return el(
    'tr',
    { class: changed ? 'changed' : '', 'data-name': name },
    el(
      'td',
      {},
      changed ? el('span', { class: 'mark', title: 'differs between BASE and HEAD' }, CHANGED) : '',
      ` ${name}`,
    ),
    el('td', { class: 'base' }, base),
    el('td', { class: 'head' }, head),
  );
}

function sideBlock(title: string, text: string, id: string, changed: boolean): HTMLElement {
  const heading = changed ? `${title} (differs)` : `${title} (same)`;
  return el(
    'div',
    { class: changed ? 'block changed' : 'block' },
    el('h3', {}, heading),
    el('pre', { id }, text),
  );
}
