/**
 * The report page's script: reads the report model from the page's JSON block (data, never
 * code) and builds the page from it with DOM calls only.
 */
import type { ReportModel } from '../src/report/html-model.ts';
import { chartsSection } from './charts.ts';
import { detailPanel } from './detail.ts';
import { el, section } from './dom.ts';
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
    comparisonSection(model),
    caseTable(model, show),
    panel,
  ];
  root.replaceChildren(...parts.filter((part): part is HTMLElement => part !== null));
}

function comparisonSection(model: ReportModel): HTMLElement | null {
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
        `[${f(row.low)}, ${f(row.high)}]`,
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
    comparison.newlyFailing.length > 0
      ? el(
          'p',
          {},
          `Newly failing: ${comparison.newlyFailing.map((c) => `${c.id} (${c.run})`).join(', ')}`,
        )
      : null,
  );
}

start();
