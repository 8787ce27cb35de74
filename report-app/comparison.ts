/**
 * The comparison with a baseline: the table of rows (pass rate in percentages and points, mean
 * scores and κ with three decimals), the newly failing cases, and what changed besides the rows
 * (runs and evaluators on one side only, and each run's fixed, added, removed, … cases), the
 * facts `evals compare` prints, from the same model data. Each list of changed cases other than
 * the newly failing is folded under its count, as the PR comment folds them.
 */
import type { ComparisonView, ReportModel } from '../src/report/html-model.ts';
import type { CaseView } from '../src/report/html-model.ts';
import { count, el, gridTable, section } from './dom.ts';
import { rowNumbers } from './row-numbers.ts';
import { NEWLY_FAILING } from './table.ts';
import { shortId } from './wording.ts';

/** Newly failing cases listed by name; the rest are counted (the case table has them all). */
const LISTED_NEWLY_FAILING = 50;

/** The section, or null without a baseline. */
export function comparisonSection(
  model: ReportModel,
  show: (view: CaseView) => void,
): HTMLElement | null {
  const comparison = model.comparison;
  if (comparison === null) return null;
  const find = caseFinder(model);
  const rows = comparison.rows.map((row) =>
    el(
      'tr',
      { class: row.label === 'regressed' ? 'bad' : row.label === 'improved' ? 'ok' : '' },
      ...[`${row.run}${row.incomplete}`, row.metric, ...rowNumbers(row), row.verdict].map((text) =>
        el('td', {}, text),
      ),
    ),
  );
  return section(
    'Against the baseline',
    'comparison',
    el('p', { class: 'note' }, `baseline: ${comparison.base}`),
    ...comparison.warnings.map((warning) =>
      el('p', { class: 'warning' }, el('strong', {}, warning.title), ' ', warning.detail),
    ),
    gridTable(['run', 'metric', 'base', 'head', 'Δ', 'CI', ''], rows),
    el(
      'p',
      { class: 'note' },
      'Pass rates in percent, their changes in percentage points (pp); scores and κ as they are.',
    ),
    newlyFailingList(comparison, find, show),
    changesPart(comparison, find, show),
  );
}

/**
 * The newly failing cases, each named as the case table names it (label, source line, run) and
 * opening its detail on click or Enter, not a paragraph of 64-character ids. Those of runs whose
 * statistics call a regression are listed open, as bad news, each run's reason under the heading;
 * those of the other runs, flips
 * within run-to-run noise, are folded under a heading per run that says so, as the other forms
 * do (`newlyFailingRuns`). Past the first ones, a button sets the case table's filter to them all.
 * Every count is of cases, as the PR comment counts them (`newlyFailingCount`).
 */
function newlyFailingList(
  comparison: ComparisonView,
  find: CaseFinder,
  show: (view: CaseView) => void,
): HTMLElement | null {
  const failing = comparison.newlyFailing;
  if (failing.length === 0) return null;
  const alarmed = new Set(comparison.newlyFailingRuns.filter((r) => r.alarm).map((r) => r.run));
  const items = (cases: ComparisonView['newlyFailing']): HTMLElement[] =>
    cases.slice(0, LISTED_NEWLY_FAILING).map(({ run, id }) => {
      const view = find(run, id);
      const name = [view?.label ?? shortId(id), view?.source, run]
        .filter((part) => part !== null && part !== undefined && part !== '')
        .join(' · ');
      return caseItem(name, id, view, show);
    });
  const alarm = failing.filter(({ run }) => alarmed.has(run));
  const calmRuns = comparison.newlyFailingRuns.filter((r) => !r.alarm);
  const calmOf = (name: string): ComparisonView['newlyFailing'] =>
    failing.filter(({ run }) => run === name);
  const listed =
    Math.min(alarm.length, LISTED_NEWLY_FAILING) +
    calmRuns.reduce((sum, r) => sum + Math.min(calmOf(r.run).length, LISTED_NEWLY_FAILING), 0);
  const more = failing.length - listed;
  const filter = el('button', { type: 'button', class: 'link', id: 'show-newly-failing' });
  // The list has a line per (case, grid point): said so when a case is on several of them.
  const { newlyFailingCount: counted } = comparison;
  const lines = counted.byPoint ? ' (case, grid point) pairs' : '';
  filter.textContent =
    more > 0
      ? `… and ${count(more)} more${lines}: show all ${counted.all} in the case table`
      : 'show them in the case table';
  filter.addEventListener('click', () => {
    const status = document.getElementById('filter-status');
    if (!(status instanceof HTMLSelectElement)) return;
    status.value = NEWLY_FAILING;
    status.dispatchEvent(new Event('change'));
    document.getElementById('cases')?.scrollIntoView();
  });
  const folded =
    calmRuns.length === 0
      ? null
      : el(
          'details',
          { class: 'newly-failing-noise' },
          el('summary', {}, `${count(counted.calm)} ${comparison.calmNewlyFailing}`),
          ...calmRuns.flatMap((r) => [
            el('h5', {}, `${r.run}: ${r.heading}`),
            el('ul', {}, ...items(calmOf(r.run))),
          ]),
        );
  if (alarm.length === 0) {
    return el('div', { class: 'newly-failing-calm' }, folded, el('p', { class: 'note' }, filter));
  }
  return el(
    'div',
    { class: 'newly-failing' },
    el('h3', {}, `Newly failing (${counted.alarm})`),
    // Why these are listed open, per grid point: a lead and a reason a line, as the PR comment
    // and the terminal list them (on one line, `; ` between, three reasons read as one).
    ...comparison.newlyFailingRuns
      .filter((r) => r.alarm && r.reasons.length > 0)
      .map((r) =>
        el(
          'div',
          { class: 'alarm-reasons' },
          el('p', { class: 'alarm-lead' }, `${r.run}: ${comparison.alarmLead}`),
          el('ul', {}, ...r.reasons.map((reason) => el('li', { class: 'alarm-reason' }, reason))),
        ),
      ),
    el('ul', {}, ...items(alarm)),
    folded,
    el('p', { class: 'note' }, filter),
  );
}

/** What changed besides the rows: runs and evaluators on one side only, and changed cases. */
function changesPart(
  comparison: ComparisonView,
  find: CaseFinder,
  show: (view: CaseView) => void,
): HTMLElement | null {
  const parts: HTMLElement[] = [];
  for (const { title, runs } of comparison.oneSidedRuns) {
    parts.push(
      el(
        'div',
        { class: 'one-sided-runs' },
        el('h4', {}, title),
        el('ul', {}, ...runs.map((r) => el('li', {}, r))),
      ),
    );
  }
  for (const change of comparison.changes) {
    const lists = change.lists.map((list) => {
      const items = list.cases.map((ref) => {
        const view = list.inHead ? find(change.run, ref.id) : undefined;
        // A case HEAD lacks is named by the label the comparison recorded from BASE.
        const name = [view?.label ?? ref.label ?? shortId(ref.id), ref.source, ref.detail]
          .filter((part) => part !== null && part !== undefined && part !== '')
          .join(' · ');
        return caseItem(name, ref.id, view, show);
      });
      const more = list.count - list.cases.length;
      // Folded, its count and note in the summary, as the PR comment and job summary fold
      // these lists ("Other case changes: 2 fixed"): a fixed or added case is no news that needs
      // reading first, and a long list would push the case table down the page.
      return el(
        'details',
        { class: 'case-list', 'data-title': list.title },
        el(
          'summary',
          {},
          el('h5', {}, `${list.title} (${count(list.count)})${list.note ? `: ${list.note}` : ''}`),
        ),
        el('ul', {}, ...items),
        more > 0
          ? el('p', { class: 'note' }, `… and ${count(more)} more (evals compare --json lists all)`)
          : null,
      );
    });
    parts.push(
      el(
        'div',
        { class: 'run-changes' },
        el('h4', {}, change.run),
        ...change.evaluators.map((line) => el('p', { class: 'evaluators-one-side' }, line)),
        ...lists,
      ),
    );
  }
  if (parts.length === 0) return null;
  return el('div', { id: 'comparison-changes' }, el('h3', {}, 'What else changed'), ...parts);
}

/**
 * A listed case: opens its detail on click or Enter when HEAD has it. One that does not pass in
 * HEAD says why beside its name, as its row in the case table does (cut as the row cuts it,
 * whole in the tooltip).
 */
function caseItem(
  name: string,
  id: string,
  view: CaseView | undefined,
  show: (view: CaseView) => void,
): HTMLElement {
  if (view === undefined) return el('li', { title: id }, name);
  const why =
    view.why === undefined
      ? null
      : el('span', { class: 'why bad', title: view.why }, view.whyShown ?? view.why);
  const item = el(
    'li',
    { class: 'case-link', tabindex: '0', title: id },
    el('span', { class: 'listed-name' }, name),
    ...(why === null ? [] : [' \u2014 ', why]),
  );
  item.addEventListener('click', () => show(view));
  item.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    // The detail takes the focus: this Enter must not go on to press its close button.
    event.preventDefault();
    show(view);
  });
  return item;
}

/** HEAD's case `id` of the run named `run`, when HEAD has it. */
type CaseFinder = (run: string, id: string) => CaseView | undefined;

function caseFinder(model: ReportModel): CaseFinder {
  const runIndex = new Map(model.runs.map((run, i) => [run.name, i]));
  const views = new Map(model.cases.map((view) => [`${view.run} ${view.id}`, view]));
  return (run, id) => views.get(`${runIndex.get(run) ?? -1} ${id}`);
}
