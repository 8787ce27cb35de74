/**
 * The charts, drawn by Chart.js (bundled into the page): the score distribution per evaluator,
 * the pass rate per grid point, the baseline comparison with its confidence intervals, and the
 * flaky cases. Animation is off: the page is a report, read once, and must draw fast.
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  Tooltip,
  type ChartConfiguration,
} from 'chart.js';
import type { ReportModel } from '../src/report/html-model.ts';
import { axisLines, barChartHeight, passRatePercents, scoreBins } from './chart-data.ts';
import { rowNumbers } from './row-numbers.ts';
import { el, percent, section } from './dom.ts';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);

const PALETTE = [
  '#3b6fd4',
  '#e07b39',
  '#3a9d5d',
  '#b9468a',
  '#7a5cc7',
  '#c9a227',
  '#2a9fb0',
  '#8c6d46',
];

/** The chart section, with every chart that has something to show. */
export function chartsSection(model: ReportModel): HTMLElement | null {
  const charts = [
    scoreDistribution(model),
    passRatePerRun(model),
    comparisonChart(model),
    flakyChart(model),
  ];
  // A run of no case scores nothing and has no pass rate: no chart, not empty axes.
  if (charts.every((chart) => chart === null)) return null;
  return section('Charts', 'charts', el('div', { class: 'charts' }, ...charts));
}

function chartBox(
  title: string,
  id: string,
  config: ChartConfiguration,
  height = 260,
): HTMLElement {
  const canvas = el('canvas', { id, role: 'img', 'aria-label': title });
  const frame = el('div', { class: 'canvas' }, canvas);
  frame.style.height = `${height}px`;
  const box = el('figure', { class: 'chart' }, el('figcaption', {}, title), frame);
  // Drawn once the box is in the document (Chart.js measures its parent).
  queueMicrotask(
    () =>
      new Chart(canvas, {
        ...config,
        options: {
          animation: false,
          maintainAspectRatio: false,
          responsive: true,
          ...config.options,
        },
      }),
  );
  return box;
}

function scoreDistribution(model: ReportModel): HTMLElement | null {
  const bins = scoreBins(model);
  if (bins === null) return null;
  const { labels, counts } = bins;
  return chartBox('Score distribution per evaluator (cases per score bin)', 'chart-scores', {
    type: 'bar',
    data: {
      labels,
      datasets: model.evaluators.map((id, i) => ({
        label: id,
        data: counts[i] ?? [],
        backgroundColor: PALETTE[i % PALETTE.length] ?? '#888',
      })),
    },
    // Whole ticks: an axis of cases never reads 0.2 or 1.4 cases.
    options: {
      scales: {
        y: { beginAtZero: true, ticks: { precision: 0 }, title: { display: true, text: 'cases' } },
      },
    },
  });
}

function passRatePerRun(model: ReportModel): HTMLElement | null {
  const rates = passRatePercents(model);
  if (rates === null) return null;
  const labels = model.runs.map((run) => axisLines(run.name));
  return chartBox(
    'Pass rate per grid point',
    'chart-pass-rate',
    {
      type: 'bar',
      data: {
        labels,
        datasets: [
          {
            label: 'pass rate %',
            data: rates,
            backgroundColor: model.runs.map((run) =>
              run.verdict === 'pass' ? '#3a9d5d' : '#c8453b',
            ),
          },
        ],
      },
      options: {
        indexAxis: 'y',
        scales: { x: { min: 0, max: 100, title: { display: true, text: 'pass rate %' } } },
        plugins: {
          legend: { display: false },
          tooltip: {
            callbacks: {
              label: (item) => {
                const rate = rates[item.dataIndex];
                return percent(rate === null || rate === undefined ? null : rate / 100);
              },
            },
          },
        },
      },
    },
    barChartHeight(labels.map((lines) => lines.length)),
  );
}

function comparisonChart(model: ReportModel): HTMLElement | null {
  const comparison = model.comparison;
  if (comparison === null) return null;
  const rows = comparison.rows.filter((row) => row.low !== null && row.high !== null);
  if (rows.length === 0) return null;
  const color = (label: string): string =>
    label === 'regressed' ? '#c8453b' : label === 'improved' ? '#3a9d5d' : '#8a94a6';
  const level = Math.round(comparison.confidence * 100);
  const labels = rows.map((row) => axisLines(row.run, row.name));
  return chartBox(
    `Change against the baseline, with ${level}% confidence intervals`,
    'chart-comparison',
    {
      type: 'bar',
      data: {
        labels,
        datasets: [
          {
            label: `Δ (${level}% CI)`,
            data: rows.map((row) => [row.low ?? 0, row.high ?? 0] as [number, number]),
            backgroundColor: rows.map((row) => color(row.label)),
            barPercentage: 0.5,
          },
        ],
      },
      options: {
        indexAxis: 'y',
        scales: { x: { title: { display: true, text: 'head − base' } } },
        plugins: {
          legend: { display: false },
          tooltip: {
            callbacks: {
              // The whole row as the table names it, its note on scored cases included.
              title: (items) => {
                const row = rows[items[0]?.dataIndex ?? -1];
                return row === undefined ? '' : `${row.run}${row.incomplete} · ${row.metric}`;
              },
              label: (item) => {
                const row = rows[item.dataIndex];
                if (row === undefined) return '';
                const [base, head, delta, ci] = rowNumbers(row);
                return `${base} → ${head}, Δ ${delta} ${ci} ${row.verdict}`;
              },
            },
          },
        },
      },
    },
    barChartHeight(labels.map((lines) => lines.length)),
  );
}

function flakyChart(model: ReportModel): HTMLElement | null {
  const flaky = model.cases.filter((view) => view.flaky && view.trials !== null).slice(0, 30);
  if (flaky.length === 0) return null;
  const labels = flaky.map((view) =>
    axisLines(`${view.id.slice(0, 12)} · ${model.runs[view.run]?.name ?? ''}`),
  );
  const rates = flaky.map((view) => {
    const trials = view.trials ?? [];
    return trials.length === 0 ? 0 : (100 * trials.filter((t) => t.passed).length) / trials.length;
  });
  return chartBox(
    'Flaky cases: share of trials passed',
    'chart-flaky',
    {
      type: 'bar',
      data: {
        labels,
        datasets: [{ label: 'trials passed %', data: rates, backgroundColor: '#c9a227' }],
      },
      options: {
        indexAxis: 'y',
        scales: { x: { min: 0, max: 100 } },
        plugins: { legend: { display: false } },
      },
    },
    barChartHeight(labels.map((lines) => lines.length)),
  );
}
