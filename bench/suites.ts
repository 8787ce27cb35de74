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
 * (a)/(e): a trivial synchronous function and three deterministic built-ins, the same work
 * bench/floor.mjs does by hand. `evals.yaml` calls it as JavaScript, like the floor's own
 * function, so the two sides differ only by the runner; `evals-ts.yaml` calls the same function
 * written in TypeScript, which adds loading it through tsx (a fixed start-up cost that (c)
 * measures on its own).
 */
export function writeOverheadSuite(dir: string, cases: number): void {
  writeCases(dir, cases);
  writeFileSync(
    join(dir, 'answer.mjs'),
    'export function answer({ testCase }) {\n  return `answer: ${testCase.expected}`;\n}\n',
  );
  writeFileSync(
    join(dir, 'answer.ts'),
    'export function answer({ testCase }: { testCase: { expected: string } }): string {\n  return `answer: ${testCase.expected}`;\n}\n',
  );
  writeFileSync(join(dir, 'evals.yaml'), suiteYaml('answer.mjs', 64));
  writeFileSync(join(dir, TYPESCRIPT_CONFIG), suiteYaml('answer.ts', 64));
}

/** The config of {@link writeOverheadSuite}'s suite with its function in TypeScript. */
export const TYPESCRIPT_CONFIG = 'evals-ts.yaml';

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

/** What each process of (f) runs: print its argument, as the xargs baseline's processes do. */
export const COMMAND_SCRIPT = 'console.log(process.argv[1])';

/**
 * (f): a `command` target starting one `node -e` per case at `concurrency`; bench/xargs.mjs runs
 * the same processes through `xargs -P`.
 */
export function writeCommandSuite(dir: string, cases: number, concurrency: number): void {
  writeCases(dir, cases);
  writeFileSync(
    join(dir, 'evals.yaml'),
    `version: 1
suites:
  - id: bench
    testset: { path: cases.csv }
    concurrency: ${concurrency}
    target:
      type: command
      run: [node, -e, ${JSON.stringify(COMMAND_SCRIPT)}, "{{case.expected}}"]
    evaluators:
      - { id: exact, use: is-equals, with: { expected: "{{case.expected}}" } }
`,
  );
}
