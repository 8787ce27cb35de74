/**
 * The report page's script: reads the report model from the page's JSON block (data, never
 * code) and builds the page from it with DOM calls only.
 */
import type { CaseView, ReportModel } from '../src/report/html-model.ts';
import { chartsSection } from './charts.ts';
import { detailPanel } from './detail.ts';
import { count, el, section } from './dom.ts';
import { gateSection, matrixTable, runsTable, verdictBanner } from './summary.ts';
import { caseTable } from './table.ts';

function start(): void {
  const source = document.getElementById('report-data');
  const root = document.getElementById('app');
  if (source === null || root === null) return;
  const model = JSON.parse(source.textContent ?? '{}') as ReportModel;
  const inMatrix = new Set(model.matrices.map((m) => m.suite));
  const single = model.runs.filter((run) => !inMatrix.has(run.suite));
  const { panel, show } = detailPanel(model);
  const parts: (HTMLElement | null)[] = [
    verdictBanner(model),
    el(
      'div',
      { class: 'top' },
      section(
        'Grid',
        'matrices',
        ...model.matrices.map(matrixTable),
        single.length > 0 ? runsTable({ ...model, runs: single }) : null,
      ),
      chartsSection(model),
    ),
    gateSection(model),
    agreementSection(model),
    comparisonSection(model, show),
    caseTable(model, show),
    panel,
  ];
  root.replaceChildren(...parts.filter((part): part is HTMLElement => part !== null));
}

/** Each judge's agreement with the human labels (κ, accuracy), run by run; none without labels. */
function agreementSection(model: ReportModel): HTMLElement | null {
  const lines = model.runs.flatMap((run) =>
    run.agreement.map((line) => el('li', {}, `${run.name}: ${line}`)),
  );
  if (lines.length === 0) return null;
  return section('Judge agreement with human labels', 'agreement', el('ul', {}, ...lines));
}

/** Newly failing cases listed by name; the rest are counted (the case table has them all). */
const LISTED_NEWLY_FAILING = 50;

function comparisonSection(model: ReportModel, show: (view: CaseView) => void): HTMLElement | null {
  const comparison = model.comparison;
  if (comparison === null) return null;
  const f = (v: number | null): string => (v === null ? '—' : v.toFixed(3));
  const rows = comparison.rows.map((row) =>
    el(
      'tr',
      { class: row.label === 'regressed' ? 'bad' : row.label === 'improved' ? 'ok' : '' },
      ...[
        `${row.run}${row.incomplete}`,
        row.metric,
        f(row.base),
        f(row.head),
        f(row.delta),
        `[${f(row.low)}, ${f(row.high)}]${row.endsAtZero ? ' includes 0' : ''}`,
        row.label,
      ].map((text) => el('td', {}, text)),
    ),
  );
  return section(
    'Against the baseline',
    'comparison',
    el('p', { class: 'note' }, `baseline: ${comparison.base}`),
    ...comparison.warnings.map((warning) =>
      el('p', { class: 'warning' }, el('strong', {}, warning.title), ' ', warning.detail),
    ),
    el(
      'table',
      { class: 'grid' },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          ...['run', 'metric', 'base', 'head', 'Δ', 'CI', ''].map((h) => el('th', {}, h)),
        ),
      ),
      el('tbody', {}, ...rows),
    ),
    newlyFailingList(model, show),
  );
}

/**
 * The newly failing cases, each named as the case table names it (label, source line, run) and
 * opening its detail on click or Enter, not a paragraph of 64-character ids.
 */
function newlyFailingList(model: ReportModel, show: (view: CaseView) => void): HTMLElement | null {
  const failing = model.comparison?.newlyFailing ?? [];
  if (failing.length === 0) return null;
  const runIndex = new Map(model.runs.map((run, i) => [run.name, i]));
  const views = new Map(model.cases.map((view) => [`${view.run} ${view.id}`, view]));
  const items = failing.slice(0, LISTED_NEWLY_FAILING).map(({ run, id }) => {
    const view = views.get(`${runIndex.get(run) ?? -1} ${id}`);
    const name = [view?.label ?? `${id.slice(0, 12)}…`, view?.source, run]
      .filter((part) => part !== null && part !== undefined && part !== '')
      .join(' · ');
    if (view === undefined) return el('li', { title: id }, name);
    const item = el('li', { class: 'case-link', tabindex: '0', title: id }, name);
    item.addEventListener('click', () => show(view));
    item.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') show(view);
    });
    return item;
  });
  const more = failing.length - items.length;
  return el(
    'div',
    { class: 'newly-failing' },
    el('h3', {}, `Newly failing (${count(failing.length)})`),
    el('ul', {}, ...items),
    more > 0
      ? el('p', { class: 'note' }, `… and ${count(more)} more: filter the cases below`)
      : null,
  );
}

start();
