/**
 * The markdown report's size budget: which parts of the model to render so the document fits in
 * `maxChars`, in priority order, each cut saying what is missing. Cuts happen between blocks,
 * never inside a tag or a code block.
 */
import type { ReportModel, RunView } from './markdown-model.ts';
import { renderDocument, type Plan } from './markdown-runs.ts';

/** Failing cases placed before the evaluator rows of passing runs: a few examples beat more rows. */
const PRIORITY_CASES = 5;

/**
 * The document rendered from the largest plan that fits in `maxChars`. The plan grows stage by
 * stage, in priority order (runs, failing runs first; the evaluator rows of failing runs; the
 * first few failing cases; the evaluator rows of passing runs; the other failing cases), each
 * stage by binary search on how many items of its list still fit. Every candidate is measured by
 * rendering it, so notes about cut content are always counted; the search only ever keeps a plan
 * whose rendering fitted.
 */
export function fitToBudget(model: ReportModel, maxChars: number): string {
  const indexes = model.views.map((_view, index) => index);
  const isFailing = (index: number): boolean => model.views[index]?.run.verdict === 'fail';
  const fits = (plan: Plan): boolean => renderDocument(model, plan).length <= maxChars;

  let plan: Plan = { runs: new Set(), evaluatorRows: new Set(), cases: indexes.map(() => 0) };
  if (!fits(plan)) return renderMinimal(model, maxChars);

  const runOrder = [...indexes.filter(isFailing), ...indexes.filter((i) => !isFailing(i))];
  plan = grow(plan, runOrder.length, fits, (count) => ({
    ...plan,
    runs: new Set(runOrder.slice(0, count)),
  }));

  const shown = indexes.filter((index) => plan.runs.has(index));
  const addEvaluatorRows = (order: readonly number[]): void => {
    const base = plan;
    plan = grow(base, order.length, fits, (count) => ({
      ...base,
      evaluatorRows: new Set([...base.evaluatorRows, ...order.slice(0, count)]),
    }));
  };
  const caseOrder = roundRobin(model.views, shown);
  const addCasesUpTo = (total: number): void => {
    const base = plan;
    const from = base.cases.reduce((sum, count) => sum + count, 0);
    plan = grow(base, Math.max(0, total - from), fits, (count) => ({
      ...base,
      cases: countCases(indexes.length, caseOrder, from + count),
    }));
  };

  addEvaluatorRows(shown.filter(isFailing));
  addCasesUpTo(Math.min(PRIORITY_CASES, caseOrder.length));
  addEvaluatorRows(shown.filter((index) => !isFailing(index)));
  addCasesUpTo(caseOrder.length);
  return renderDocument(model, plan);
}

/**
 * The plan for the largest `count` in [0, max] that fits, by binary search: rendered length
 * grows with `count`. `planFor(0)` is `current`, already known to fit, and is returned when
 * nothing more does.
 */
function grow(
  current: Plan,
  max: number,
  fits: (plan: Plan) => boolean,
  planFor: (count: number) => Plan,
): Plan {
  let best = current;
  let low = 0;
  let high = max;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    const candidate = planFor(mid);
    if (fits(candidate)) {
      best = candidate;
      low = mid;
    } else {
      high = mid - 1;
    }
  }
  return best;
}

/**
 * Failing cases in listing priority: the first of every run, then the second of every run, and
 * so on, so one grid point's long list does not hide every other run's failures. Each entry is a
 * run index.
 */
function roundRobin(views: readonly RunView[], runs: readonly number[]): number[] {
  const order: number[] = [];
  const longest = Math.max(0, ...runs.map((index) => views[index]?.listable ?? 0));
  for (let round = 0; round < longest; round++) {
    for (const index of runs) {
      if ((views[index]?.listable ?? 0) > round) order.push(index);
    }
  }
  return order;
}

/** Per run index, how many of the first `total` entries of `order` belong to it. */
function countCases(runCount: number, order: readonly number[], total: number): number[] {
  const counts = new Array<number>(runCount).fill(0);
  for (const index of order.slice(0, total)) counts[index] = (counts[index] ?? 0) + 1;
  return counts;
}

/**
 * When not even the heading, verdict and totals fit (a budget of a few hundred characters): the
 * marker, heading and verdict sentence, then the marker and the verdict, then the verdict alone,
 * then nothing. Still a valid document at every step.
 */
function renderMinimal(model: ReportModel, maxChars: number): string {
  const candidates = [
    [model.marker, model.heading, '', model.verdict, '', model.intro[0] ?? ''],
    [model.marker, model.heading, '', model.verdict],
    [model.marker, model.verdict],
    [model.verdict],
  ].map((lines) => `${lines.filter((line, i) => i > 0 || line !== '').join('\n')}\n`);
  return candidates.find((text) => text.length <= maxChars) ?? '';
}
