/**
 * How a judge's agreement with the human labels reads, in the terminal summary and the markdown
 * report alike: `helpful vs human labels (column verdict): κ 0.800 (95% CI 0.610…0.990) · accuracy
 * 90.0% (95% CI 77.0%…96.0%) · 40 rows`. Pure, no markup: each form escapes and styles it.
 */
import type { AgreementSummary, EvaluatorSummary } from '../types/index.ts';
import { kappaUndefinedReason } from '../evaluators/agreement.ts';
import { formatKappa } from '../shared/format-change.ts';
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
  const undefinedKappa = kappaUndefinedReason(agreement);
  if (undefinedKappa !== null || agreement.kappa === null) {
    parts.push(undefinedKappa ?? `${kappa} undefined`);
  } else {
    const ci = agreement.kappaCi;
    parts.push(
      `${kappa} ${formatKappa(agreement.kappa)}${ci ? ` (95% CI ${formatKappa(ci.low)}…${formatKappa(ci.high)})` : ''}${oneVerdict(agreement)}`,
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

/**
 * ` (the judge gave "yes" to every labelled row)` when it did: its κ is then 0 whatever the
 * labels are, so its interval has no width, which reads as a fault unless the reason is said.
 */
function oneVerdict(agreement: AgreementSummary): string {
  const given = agreement.categories.filter((_, column) =>
    agreement.table.some((row) => (row[column] ?? 0) > 0),
  );
  const [only] = given;
  return given.length === 1 && only !== undefined
    ? ` (the judge gave ${JSON.stringify(only)} to every labelled row)`
    : '';
}
