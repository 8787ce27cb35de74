/**
 * How a judge's agreement with the human labels reads, in the terminal summary and the markdown
 * report alike: `helpful vs human labels (column verdict): κ 0.80 (95% CI 0.61…0.99) · accuracy
 * 90.0% (95% CI 77.0%…96.0%) · 40 rows`. Pure, no markup: each form escapes and styles it.
 */
import type { AgreementSummary, EvaluatorSummary } from '../types/index.ts';
import { formatCount, formatPercent, plural } from './labels.ts';

/** The evaluators of a run that measured agreement, in summary order. */
export function agreementsOf(
  evaluators: Readonly<Record<string, EvaluatorSummary>>,
): [string, AgreementSummary][] {
  return Object.entries(evaluators).flatMap(([id, stats]) =>
    stats.agreement === undefined ? [] : [[id, stats.agreement] as [string, AgreementSummary]],
  );
}

/** One line per judge with `agreement:`. */
export function agreementLine(id: string, agreement: AgreementSummary): string {
  const kappa = agreement.weighted ? 'weighted κ' : 'κ';
  const parts: string[] = [];
  if (agreement.kappa === null) {
    parts.push(
      agreement.compared === 0
        ? 'no labelled row judged'
        : `${kappa} undefined (every verdict the same)`,
    );
  } else {
    const ci = agreement.kappaCi;
    parts.push(
      `${kappa} ${agreement.kappa.toFixed(2)}${ci ? ` (95% CI ${ci.low.toFixed(2)}…${ci.high.toFixed(2)})` : ''}`,
    );
  }
  if (agreement.accuracy !== null) {
    const ci = agreement.accuracyCi;
    parts.push(
      `accuracy ${formatPercent(agreement.accuracy)}${ci ? ` (95% CI ${formatPercent(ci.low)}…${formatPercent(ci.high)})` : ''}`,
    );
  }
  const rows = [plural(agreement.compared, 'labelled row')];
  if (agreement.unjudged > 0) rows.push(`${formatCount(agreement.unjudged)} not judged`);
  if (agreement.unrecognized > 0)
    rows.push(`${formatCount(agreement.unrecognized)} with an unknown label`);
  parts.push(rows.join(', '));
  return `${id} vs human labels (column ${agreement.column}): ${parts.join(' · ')}`;
}
