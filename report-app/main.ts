/**
 * The report page's script: reads the report model from the page's JSON block (data, never
 * code) and builds the page from it with DOM calls only.
 */
import type { ReportModel } from '../src/report/html-model.ts';
import { chartsSection } from './charts.ts';
import { detailPanel } from './detail.ts';
import { comparisonSection } from './comparison.ts';
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
    notComparedWarning(model),
    el(
      'div',
      { class: 'top' },
      section(
        'Grid',
        'matrices',
        ...model.matrices.map((matrix) => matrixTable(matrix, model.runs)),
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

/** Under the verdict: a baseline was given and not compared with, so regressions were not checked. */
function notComparedWarning(model: ReportModel): HTMLElement | null {
  if (model.notCompared === null) return null;
  const [lead, ...rest] = model.notCompared.split(': ');
  return el(
    'p',
    { class: 'warning not-compared', id: 'not-compared', role: 'alert' },
    el('strong', {}, `${lead ?? ''}:`),
    ` ${rest.join(': ')}`,
  );
}

/** Each judge's agreement with the human labels (κ, accuracy), run by run; none without labels. */
function agreementSection(model: ReportModel): HTMLElement | null {
  const lines = model.runs.flatMap((run) =>
    run.agreement.map((line) => el('li', {}, `${run.name}: ${line}`)),
  );
  if (lines.length === 0) return null;
  return section('Judge agreement with human labels', 'agreement', el('ul', {}, ...lines));
}

start();
