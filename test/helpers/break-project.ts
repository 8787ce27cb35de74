/**
 * The "BREAK" project the comparison tests run twice: 40 cases a function answers right, until
 * BREAK=1 in its environment makes it get two in three wrong, a regression no noise explains.
 */

/** An evaluator of the project: exact match against the case's answer. */
export const EXACT = '{ id: exact, use: is-equals, with: { expected: "{{case.answer}}" } }';
/** An evaluator of the project: edit distance to the case's answer. */
export const CLOSE = '{ id: close, use: levenshtein, with: { expected: "{{case.answer}}" } }';

/** What the project's one suite evaluates and gates on. */
export interface BreakProjectOptions {
  /** The suite's evaluators, one flow mapping each (e.g. {@link EXACT}). */
  evaluators: string[];
  /** The suite's `gate:` keys and their values, as YAML writes them. */
  gate: Record<string, string | number>;
}

/** The files of the project (`evals.yaml`, `qa.csv` with 40 rows, `answer.mjs`). */
export function breakProjectFiles(options: BreakProjectOptions): Record<string, string> {
  const evaluators = options.evaluators.map((e) => `      - ${e}\n`).join('');
  const gate = Object.entries(options.gate)
    .map(([key, value]) => `      ${key}: ${value}\n`)
    .join('');
  const rows = Array.from({ length: 40 }, (_, n) => `${n},answer ${n}`).join('\n');
  return {
    'evals.yaml': `version: 1
suites:
  - id: qa
    testset: { path: qa.csv }
    function: ./answer.mjs
    evaluators:
${evaluators}    gate:
${gate}`,
    'qa.csv': `n,answer\n${rows}\n`,
    'answer.mjs':
      "export default ({ testCase }) => process.env.BREAK && Number(testCase.n) % 3 !== 0 ? 'wrong' : testCase.answer;\n",
  };
}
