/**
 * A recorded-output suite with a module judge checked against human labels: row i's output is
 * `good` or `bad` (even rows good), the label column holds the right verdict (`pass`/`fail`),
 * and the judge, run with SIDE=base or SIDE=head, passes good outputs and fails bad ones except
 * on the rows it is told to get wrong on that side (or to throw on, on HEAD).
 */
import { jsonlProject } from './in-process.ts';

export interface AgreementProject {
  rows: number;
  /** Rows the judge gets wrong with SIDE=base. */
  baseWrong: (i: number) => boolean;
  /** Rows the judge gets wrong with SIDE=head. */
  headWrong: (i: number) => boolean;
  /** Rows on which the judge throws with SIDE=head; none by default. */
  headThrows?: (i: number) => boolean;
  /** The label column's name; `human` by default. */
  labelColumn?: string;
}

export function agreementProject(o: AgreementProject): string {
  const column = o.labelColumn ?? 'human';
  const rows = Array.from({ length: o.rows }, (_, i) => ({
    i,
    output: `${i % 2 === 0 ? 'good' : 'bad'}:${o.baseWrong(i) ? 'b' : ''}${o.headWrong(i) ? 'h' : ''}${o.headThrows?.(i) === true ? 'x' : ''}`,
    [column]: i % 2 === 0 ? 'pass' : 'fail',
  }));
  return jsonlProject(
    rows,
    [
      'hash: [i]',
      'evaluators:',
      '  - id: judge',
      '    use: ./judge.mjs',
      '    with: { side: "${SIDE}" }',
      '    threshold: { gte: 0.5 }',
      `    agreement: { column: ${column} }`,
      'gate: { minPassRate: 0, regressions: block }',
    ],
    {
      'judge.mjs': [
        'export default ({ output }, { side }) => {',
        "  const [truth, flags] = String(output).split(':');",
        "  if (side === 'head' && flags.includes('x')) throw new Error('judge broke');",
        "  const wrong = side === 'base' ? flags.includes('b') : flags.includes('h');",
        "  return { score: (truth === 'good') !== wrong ? 1 : 0 };",
        '};',
        '',
      ].join('\n'),
    },
  );
}
