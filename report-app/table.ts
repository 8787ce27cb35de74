/**
 * The case table: filters (status, newly failing, run, failing evaluator, tag), a search over
 * id, label, source, the whole output, error and why, and sorting by any column. A row that did
 * not pass says why in its own column (the error, else the failing evaluations with what they
 * said, worded in Node as the terminal summary words it), cut to fit, whole in its tooltip. Only the rows in
 * view are in the document (a fixed row height and a spacer), so 10,000 cases scroll and filter
 * without delay. Every evaluator has a column, from seven on a compact chip (columns.ts); when
 * they do not fit, the table scrolls sideways (the header with it) and a note says so.
 */
import type { CaseView, ReportModel } from '../src/report/html-model.ts';
import { caseColumns, type CaseColumns } from './columns.ts';
import { count, el, plural, score, section } from './dom.ts';
import { shortId } from './wording.ts';

const ROW_HEIGHT = 30;
/** Rows drawn above and below the visible ones, so a fast scroll shows no gap. */
const OVERSCAN = 10;

/** The status filter's value for the cases that passed in the baseline and do not now. */
export const NEWLY_FAILING = 'newly-failing';

type SortKey = 'status' | 'case' | 'why' | 'run' | 'duration' | `score:${number}`;

const STATUS_ORDER = { errored: 0, failed: 1, passed: 2 } as const;

/** The table section; `open` shows a case's detail. */
export function caseTable(model: ReportModel, open: (view: CaseView) => void): HTMLElement {
  // The whole output: the model holds it whole, so a match past the shown part is found too.
  const haystacks = model.cases.map((view) =>
    [
      view.id,
      view.label ?? '',
      view.source ?? '',
      view.output ?? '',
      view.error ?? '',
      view.why ?? '',
    ]
      .join('\n')
      .toLowerCase(),
  );
  const scoreColumns = model.evaluators;

  const status = select('filter-status', [
    ['all', 'all cases'],
    ['not-passed', 'did not pass'],
    // With a baseline: passed there, did not pass now (the comparison's newly failing cases),
    // counted as every form counts them.
    ...(model.comparison === null
      ? []
      : [
          [NEWLY_FAILING, `newly failing (${model.comparison.newlyFailingCount.all})`] as [
            string,
            string,
          ],
        ]),
    ['failed', 'failed'],
    ['errored', 'errored'],
    ['flaky', 'flaky'],
    ['passed', 'passed'],
  ]);
  const run = select('filter-run', [
    ['all', 'every run'],
    ...model.runs.map((r, i): [string, string] => [String(i), r.name]),
  ]);
  const evaluator = select('filter-evaluator', [
    ['all', 'any evaluator'],
    ...model.evaluators.map((id, i): [string, string] => [String(i), `${id} did not pass`]),
  ]);
  // Only when some case has tags: a filter with nothing to choose would only be noise.
  const tag =
    model.tags.length === 0
      ? null
      : select('filter-tag', [
          ['', 'any tag'],
          ...model.tags.map((name): [string, string] => [`tag:${name}`, `tagged ${name}`]),
        ]);
  const search = el('input', {
    id: 'filter-search',
    type: 'search',
    placeholder: 'search id, label, source, output, error, why…',
    title: 'searches the whole of every output, also the part the detail cuts',
    'aria-label': 'search cases',
  });
  const shown = el('span', { id: 'case-count', class: 'note' });

  let sortKey: SortKey = 'status';
  let ascending = true;
  let rows: number[] = [];

  const columns: [SortKey, string][] = [
    ['status', 'status'],
    ['case', 'case'],
    ['why', 'why'],
    ['run', 'run'],
    ['duration', 'ms'],
  ];
  const layout = caseColumns(scoreColumns.length);
  const { template, minWidth: width, headerHeight } = layout;
  const header = el('div', { class: layout.compact ? 'row head compact' : 'row head' });
  header.style.gridTemplateColumns = template;
  header.style.minWidth = `${width}px`;
  header.style.height = `${headerHeight}px`;
  const sortButton = ([key, title]: [SortKey, string]): HTMLElement => {
    // The title: an evaluator's name longer than its column is cut with `…` on screen.
    const cell = el('button', { type: 'button', class: 'sort', 'data-key': key, title }, title);
    cell.addEventListener('click', () => {
      ascending = sortKey === key ? !ascending : true;
      sortKey = key;
      apply();
    });
    return cell;
  };
  header.append(...columns.map(sortButton));
  if (scoreColumns.length > 0) {
    header.append(
      scoreCell(
        scoreColumns.map((id, i) => sortButton([`score:${i}`, id])),
        layout,
      ),
    );
  }
  const spacer = el('div', { class: 'spacer' });
  spacer.style.minWidth = `${width}px`;
  const body = el('div', { id: 'case-rows', class: 'rows', role: 'list' }, header, spacer);
  // Said only when the columns do not fit: then some are out of view until scrolled to.
  const sideways = el(
    'p',
    { id: 'case-columns', class: 'note', hidden: '' },
    `${plural(scoreColumns.length, 'evaluator column')}, every one shown: scroll the table sideways to see those out of view.`,
  );

  function matches(i: number, query: string, escaped: string): boolean {
    const view = model.cases[i];
    if (view === undefined) return false;
    const s = status.value;
    if (s === 'not-passed' && view.status === 'passed') return false;
    if ((s === 'failed' || s === 'errored' || s === 'passed') && view.status !== s) return false;
    if (s === 'flaky' && !view.flaky) return false;
    if (s === NEWLY_FAILING && view.newlyFailing !== true) return false;
    if (run.value !== 'all' && String(view.run) !== run.value) return false;
    if (evaluator.value !== 'all' && !view.failing.includes(Number(evaluator.value))) return false;
    // Option values carry a prefix, so a tag named like a built-in option value stays a tag.
    if (tag !== null && tag.value !== '' && !view.tags.includes(tag.value.slice('tag:'.length))) {
      return false;
    }
    if (query === '') return true;
    const haystack = haystacks[i] ?? '';
    if (haystack.includes(query) || (escaped !== query && haystack.includes(escaped))) return true;
    // An id as the rows, the summary and the PR comment shorten it (`77f519fbc5f…`), pasted
    // with its `…`: the start of the id.
    const start = query.endsWith('…') ? query.slice(0, -1) : '';
    return start !== '' && view.id.toLowerCase().startsWith(start);
  }

  function compare(a: CaseView, b: CaseView): number {
    if (sortKey === 'status')
      return STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || a.run - b.run;
    if (sortKey === 'case') return byText(a.id, b.id);
    // Rows that passed, which have no reason, after those that have one.
    if (sortKey === 'why') return byText(a.why ?? '\uffff', b.why ?? '\uffff');
    if (sortKey === 'run') return a.run - b.run;
    if (sortKey === 'duration') return a.durationMs - b.durationMs;
    const column = Number(sortKey.slice('score:'.length));
    return (a.scores[column] ?? -1) - (b.scores[column] ?? -1);
  }

  function apply(): void {
    rows = [];
    const query = search.value.trim().toLowerCase();
    // An output that is an object is held as JSON, where `"` and `\` are escaped: the query
    // escaped the same way finds what such an output says (`Use "Forgot password"`).
    const escaped = JSON.stringify(query).slice(1, -1);
    for (let i = 0; i < model.cases.length; i++) if (matches(i, query, escaped)) rows.push(i);
    rows.sort((x, y) => {
      const order = compare(model.cases[x] as CaseView, model.cases[y] as CaseView);
      return (ascending ? order : -order) || x - y;
    });
    shown.textContent = `${count(rows.length)} of ${count(model.cases.length)} cases`;
    spacer.style.height = `${rows.length * ROW_HEIGHT}px`;
    sideways.hidden = body.scrollWidth <= body.clientWidth;
    for (const button of header.querySelectorAll('button')) {
      const key = button.getAttribute('data-key');
      button.setAttribute(
        'aria-sort',
        key === sortKey ? (ascending ? 'ascending' : 'descending') : 'none',
      );
    }
    draw();
  }

  function draw(): void {
    for (const old of body.querySelectorAll('.case')) old.remove();
    const first = Math.max(
      0,
      Math.floor(Math.max(0, body.scrollTop - headerHeight) / ROW_HEIGHT) - OVERSCAN,
    );
    const visible = Math.ceil((body.clientHeight || 600) / ROW_HEIGHT) + 2 * OVERSCAN;
    const fragment = document.createDocumentFragment();
    for (let at = first; at < Math.min(rows.length, first + visible); at++) {
      const view = model.cases[rows[at] ?? -1];
      if (view === undefined) continue;
      fragment.append(rowOf(view, at));
    }
    body.append(fragment);
  }

  function rowOf(view: CaseView, at: number): HTMLElement {
    const name = view.label === null ? view.id : `${shortId(view.id)} ${view.label}`;
    const row = el(
      'div',
      {
        class: `row case ${view.status}`,
        role: 'listitem',
        tabindex: '0',
        'data-id': view.id,
      },
      el('span', { class: `badge ${view.status}` }, view.flaky ? `${view.status} ~` : view.status),
      el(
        'span',
        { class: 'name', title: view.id },
        // Found without the filter: a row that passed in the baseline and does not now.
        view.newlyFailing === true
          ? el(
              'span',
              {
                class: 'newly-mark',
                title: `newly failing: passed in the baseline, ${view.status} now`,
              },
              'new',
            )
          : null,
        name,
      ),
      // Cut to the cell (by the stylesheet, after Node's cut); the whole reason in the tooltip.
      view.why === undefined
        ? el('span', { class: 'why' })
        : el('span', { class: 'why bad', title: view.why }, view.whyShown ?? view.why),
      el('span', { class: 'dim' }, model.runs[view.run]?.name ?? ''),
      el('span', { class: 'num' }, count(view.durationMs)),
      scoreColumns.length === 0
        ? null
        : scoreCell(
            scoreColumns.map((id, i) => {
              const failing = view.failing.includes(i);
              const shown = score(view.scores[i] ?? null);
              // Which evaluator a chip is, without looking up to its header.
              const title = `${id} ${shown}${failing ? ' (did not pass)' : ''}`;
              return el('span', { class: failing ? 'num bad' : 'num', title }, shown);
            }),
            layout,
          ),
    );
    row.style.top = `${headerHeight + at * ROW_HEIGHT}px`;
    row.style.gridTemplateColumns = template;
    row.style.minWidth = `${width}px`;
    const show = (): void => open(view);
    row.addEventListener('click', show);
    row.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter') return;
      // The detail takes the focus: this Enter must not go on to press its close button.
      event.preventDefault();
      show();
    });
    return row;
  }

  for (const control of [status, run, evaluator, tag]) control?.addEventListener('change', apply);
  search.addEventListener('input', apply);
  body.addEventListener('scroll', () => requestAnimationFrame(draw));
  queueMicrotask(apply);

  return section(
    'Cases',
    'cases',
    el('div', { class: 'filters' }, status, run, evaluator, ...(tag ? [tag] : []), search, shown),
    el(
      'p',
      { class: 'note' },
      'The search covers the id, label, source line, error, why it did not pass and the whole output of each case.',
    ),
    sideways,
    el('div', { class: 'table' }, body),
  );
}

/** The one cell of a row (or the header) that holds its scores, in a grid of their own. */
function scoreCell(cells: HTMLElement[], layout: CaseColumns): HTMLElement {
  const cell = el('div', { class: layout.compact ? 'scores chips' : 'scores' }, ...cells);
  cell.style.gridTemplateColumns = layout.scoreTemplate;
  cell.style.columnGap = layout.scoreGap;
  return cell;
}

function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function select(id: string, options: [string, string][]): HTMLSelectElement {
  return el(
    'select',
    { id, 'aria-label': id.replace('filter-', 'filter by ') },
    ...options.map(([value, text]) => el('option', { value }, text)),
  );
}
