/** The generated suites the scenarios run. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** id,question,expected rows; `expected` is what bench/floor.mjs and the evaluators check. */
function writeCases(dir: string, cases: number): void {
  mkdirSync(dir, { recursive: true });
  // Built in chunks: one join over 200k lines is fine, but the array of lines is not needed.
  const chunks: string[] = ['id,question,expected\n'];
  for (let i = 0; i < cases; i += 10_000) {
    const lines: string[] = [];
    for (let j = i; j < Math.min(cases, i + 10_000); j++)
      lines.push(`q${j},What is ${j} + 1?,${j + 1}\n`);
    chunks.push(lines.join(''));
  }
  writeFileSync(join(dir, 'cases.csv'), chunks.join(''));
}

/**
 * (a)/(e): a trivial synchronous TypeScript function and three deterministic built-ins, the
 * same work bench/floor.mjs does by hand.
 */
export function writeOverheadSuite(dir: string, cases: number): void {
  writeCases(dir, cases);
  writeFileSync(
    join(dir, 'answer.ts'),
    'export function answer({ testCase }: { testCase: { expected: string } }): string {\n  return `answer: ${testCase.expected}`;\n}\n',
  );
  writeFileSync(join(dir, 'evals.yaml'), suiteYaml('answer.ts', 64));
}

/**
 * (b): every call waits `sleepMs` on a timer, so the run is bound by how well the runner keeps
 * `concurrency` calls in flight, not by CPU.
 */
export function writeLatencySuite(
  dir: string,
  o: { cases: number; sleepMs: number; concurrency: number },
): void {
  writeCases(dir, o.cases);
  writeFileSync(
    join(dir, 'answer.ts'),
    `export async function answer({ testCase }: { testCase: { expected: string } }): Promise<string> {
  await new Promise((resolve) => setTimeout(resolve, ${o.sleepMs}));
  return \`answer: \${testCase.expected}\`;
}
`,
  );
  writeFileSync(join(dir, 'evals.yaml'), suiteYaml('answer.ts', o.concurrency));
}

function suiteYaml(fnFile: string, concurrency: number): string {
  return `version: 1
suites:
  - id: bench
    testset: { path: cases.csv }
    hash: [id]
    function: ./${fnFile}#answer
    concurrency: ${concurrency}
    evaluators:
      - { id: exact, use: is-equals, with: { expected: "answer: {{case.expected}}" } }
      - { id: contains, use: contains, with: { values: ["{{case.expected}}"] } }
      - { id: shape, use: regex, with: { pattern: "^answer: " } }
`;
}
