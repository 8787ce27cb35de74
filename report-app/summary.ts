/**
 * The top of the page: the verdict, the gate conditions of every run, and the grid matrices or
 * the table of runs, each run with its flaky cases (with trials) and the cost of its model calls.
 */
import type { GridMatrix } from '../src/report/grid-matrix.ts';
import type { ReportModel, RunView } from '../src/report/html-model.ts';
import { cost, count, el, gridTable, percent, plural, score, seconds, section } from './dom.ts';
import { gateSentence } from './wording.ts';

/** The verdict banner: one sentence and the totals. */
export function verdictBanner(model: ReportModel): HTMLElement {
  const { totals } = model;
  const pass = model.verdict === 'pass';
  const partial = model.partialMerge;
  const sentence =
    partial !== null
      ? `A partial merge: only shard${partial.merged.length === 1 ? '' : 's'} ${partial.merged.map(count).join(', ')} of ${count(partial.count)} ${partial.merged.length === 1 ? 'was' : 'were'} merged, so the verdict is FAIL.`
      : model.interrupted
        ? 'The run was interrupted: the verdict is FAIL.'
        : gateSentence(totals.failedRuns, totals.runs, model.missingSuites.length);
  return el(
    'header',
    { id: 'verdict', class: pass ? 'pass' : 'fail' },
    el('div', { class: 'word' }, pass ? 'PASS' : 'FAIL'),
    el(
      'div',
      {},
      el('p', { class: 'sentence' }, sentence),
      // What fails a run whose every gate passed: a suite of the baseline is gone, and why.
      model.missingSuites.length > 0
        ? el(
            'ul',
            { id: 'missing-suites', class: 'missing-suites' },
            ...model.missingSuites.map(({ text }) => el('li', {}, text)),
          )
        : null,
      // Suites of the baseline gone that only warn (another job runs their new suite, or the
      // baseline's regressions: warn): said here as in the PR comment, not to be missed.
      model.goneSuiteWarnings.length > 0
        ? el(
            'ul',
            { id: 'gone-suite-warnings', class: 'missing-suites' },
            ...model.goneSuiteWarnings.map(({ suite, text }) =>
              el(
                'li',
                { class: 'warning' },
                el('strong', {}, `Suite ${suite} of the baseline is gone (a warning here):`),
                ` ${text}`,
              ),
            ),
          )
        : null,
      el(
        'p',
        { class: 'totals' },
        `${plural(totals.cases, 'case')}: ${count(totals.passed)} passed, ${count(totals.failed)} failed, ${count(totals.errored)} errored`,
      ),
      el(
        'p',
        { class: 'meta' },
        [
          model.config,
          model.git,
          model.startedAt,
          seconds(model.durationMs),
          `evalgate ${model.toolVersion}`,
        ]
          .filter((part) => part !== null)
          .join(' · '),
      ),
      model.usage !== null ? el('p', { class: 'meta' }, model.usage) : null,
    ),
  );
}

/** Every run's gate: conditions with what they needed and what the run measured. */
export function gateSection(model: ReportModel): HTMLElement {
  const rows = model.runs.flatMap((run) =>
    run.gate.map((condition) =>
      el(
        'tr',
        { class: condition.passed ? 'ok' : 'bad' },
        el('td', {}, run.name),
        el('td', {}, condition.passed ? '✓' : '✗'),
        el('td', {}, condition.name),
        el('td', {}, condition.expected),
        el('td', {}, condition.actual),
      ),
    ),
  );
  // A suite of the baseline gone from the config has no run here, but fails the run all the same.
  const gone = model.missingSuites.map(({ suite, text }) =>
    el(
      'tr',
      { class: 'bad gone-suite' },
      el('td', {}, `${suite} (gone)`),
      el('td', {}, '\u2717'),
      el('td', {}, 'regressions'),
      el('td', {}, 'the suite in the config, or listed in removedSuites'),
      el('td', {}, text),
    ),
  );
  rows.push(...gone);
  return section(
    'Gate conditions',
    'gate',
    el(
      'table',
      { class: 'grid' },
      el(
        'thead',
        {},
        el('tr', {}, ...['run', '', 'condition', 'expected', 'actual'].map((h) => el('th', {}, h))),
      ),
      el('tbody', {}, ...rows),
    ),
  );
}

/**
 * The per-run columns a table adds when some run has them: trials and flaky cases when a run
 * ran each case more than once, the cost when a run made model calls. `runs` are the table's.
 */
function runColumns(runs: readonly RunView[]): {
  heads: HTMLElement[];
  cells: (run: RunView | undefined) => HTMLElement[];
} {
  const trials = runs.some((run) => run.trials > 1);
  const calls = runs.some((run) => run.calls > 0);
  const heads = [
    ...(trials
      ? [
          el('th', { class: 'num' }, 'trials'),
          el('th', { class: 'num', title: 'cases whose trials disagreed' }, 'flaky'),
        ]
      : []),
    ...(calls ? [el('th', { class: 'num', title: 'cost of the model calls' }, 'cost')] : []),
  ];
  const cells = (run: RunView | undefined): HTMLElement[] => [
    ...(trials
      ? [
          el('td', { class: 'num' }, run === undefined ? '—' : count(run.trials)),
          el('td', { class: 'num' }, run?.flaky == null ? '—' : count(run.flaky)),
        ]
      : []),
    ...(calls
      ? [el('td', { class: 'num' }, run === undefined ? '—' : cost(run.cost, run.calls))]
      : []),
  ];
  return { heads, cells };
}

/** A suite's grid points side by side, the best of each column marked; `runs` are the model's. */
export function matrixTable(matrix: GridMatrix, runs: readonly RunView[]): HTMLElement {
  const extra = runColumns(matrix.rows.flatMap((row) => runs[row.run] ?? []));
  const head = el(
    'tr',
    {},
    ...matrix.keys.map((key) => el('th', {}, key)),
    el('th', {}, 'verdict'),
    el('th', { class: 'num' }, 'cases'),
    el('th', { class: 'num' }, 'pass rate'),
    ...matrix.evaluators.map((id, i) =>
      el(
        'th',
        {
          class: 'num',
          title: matrix.lowerIsBetter[i] === true ? 'mean score (lower is better)' : 'mean score',
        },
        id,
      ),
    ),
    ...extra.heads,
  );
  const rows = matrix.rows.map((row) =>
    el(
      'tr',
      {},
      ...matrix.keys.map((key) => el('td', {}, row.params[key] ?? '')),
      el('td', { class: row.verdict }, row.verdict.toUpperCase()),
      el('td', { class: 'num' }, count(row.cases)),
      cell(percent(row.passRate), row.passRate !== null && row.passRate === matrix.bestPassRate),
      ...row.means.map((mean, i) =>
        cell(score(mean), mean !== null && mean === matrix.bestMeans[i]),
      ),
      ...extra.cells(runs[row.run]),
    ),
  );
  return el(
    'div',
    { class: 'matrix' },
    el('h3', {}, `${matrix.suite} · ${count(matrix.rows.length)} grid points`),
    el('table', { class: 'grid' }, el('thead', {}, head), el('tbody', {}, ...rows)),
    el('p', { class: 'note' }, matrixNote(matrix)),
  );
}

/** What the star means; an evaluator whose lower scores are better has its lowest starred. */
function matrixNote(matrix: GridMatrix): string {
  const lowest = matrix.evaluators.filter((_, i) => matrix.lowerIsBetter[i] === true);
  const best =
    lowest.length === 0
      ? '★ best of the column'
      : `★ best of the column (the lowest for ${lowest.join(', ')}, where lower is better)`;
  return `${best}; evaluator columns are mean scores.`;
}

function cell(text: string, best: boolean): HTMLElement {
  return el(
    'td',
    { class: best ? 'num best' : 'num', ...(best ? { title: 'best of the column' } : {}) },
    best ? `★ ${text}` : text,
  );
}

/** Runs of suites without a grid: one table of all of them. */
export function runsTable(model: ReportModel): HTMLElement {
  const extra = runColumns(model.runs);
  const rows = model.runs.map((run) =>
    el(
      'tr',
      {},
      el('td', {}, run.name),
      el('td', { class: run.verdict }, run.verdict.toUpperCase()),
      el('td', { class: 'num' }, count(run.cases)),
      el('td', { class: 'num' }, percent(run.passRate)),
      el('td', { class: 'num' }, count(run.failed)),
      el('td', { class: 'num' }, count(run.errored)),
      ...extra.cells(run),
      el('td', {}, run.evaluators.map((e) => `${e.id} ${score(e.mean)}`).join(' · ')),
    ),
  );
  return gridTable(
    [
      'run',
      'verdict',
      'cases',
      'pass rate',
      'failed',
      'errored',
      ...extra.heads,
      'evaluator means',
    ],
    rows,
  );
}
