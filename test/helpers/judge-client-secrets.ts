/**
 * What the tests of a judge client made in code share: a run whose evaluator asks such a client,
 * the evals.yaml whose judge header carries a secret only the run knows, and the checks that
 * the client's cut error details and its cache hold none of a secret.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTestSuite } from '../../src/api/run-test-suite.ts';
import type { ChatResult, JudgeClient } from '../../src/judge/types.ts';
import type { Evaluation } from '../../src/types/index.ts';

/** Every file under `dir` (a client's cache), read. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'));
}

/**
 * Asserts that each error detail in `artifact` the client cut at 300 characters (its run of
 * `x`s, then what the cut kept of the secret that followed) kept no more than a start of
 * `[redacted]`; returns how many details there were, for the caller to count.
 */
export function assertCutsKeepNoSecret(artifact: string): number {
  const details = [...artifact.matchAll(/x{290,}([^"\\]*)/g)];
  for (const [whole, kept = ''] of details) {
    assert.ok('[redacted]'.startsWith(kept), `kept "${kept}" of a secret: ${whole.slice(-20)}`);
  }
  return details.length;
}

/**
 * An evals.yaml of suite `s` (`fn.mjs#fn` over `rows.csv`, passing when it returns `done`), then
 * `suiteLines`, whose judge at `serverUrl` sends `x-gateway` with the value of `GATEWAY_VALUE`:
 * a variable whose name says nothing, so the value is a secret of the run's config only.
 */
export function gatewayEvalsYaml(serverUrl: string, suiteLines: string[] = []): string {
  return [
    'version: 1',
    'defaults:',
    `  judge: { model: m, baseUrl: "${serverUrl}", headers: { x-gateway: "\${GATEWAY_VALUE}" } }`,
    'suites:',
    '  - id: s',
    '    testset: { path: rows.csv }',
    '    function: ./fn.mjs#fn',
    ...suiteLines.map((line) => `    ${line}`),
    '    evaluators: [ { id: ok, use: is-equals, with: { expected: done } } ]',
    '',
  ].join('\n');
}

/**
 * Runs suite `id` of `testCases` in this process (the target returns each `q`) with the run's
 * `secrets`, writing its artifact to `output`; its one evaluator, `asks`, sends the output to
 * `client` as a user message and scores with `score`, which gets the client's answer. The
 * run's result is returned.
 */
export async function runAsking(
  client: JudgeClient,
  options: {
    id: string;
    testCases: { q: string }[];
    secrets: string[];
    output: string;
    score: (answer: ChatResult) => Evaluation;
  },
): Promise<unknown> {
  return runTestSuite({
    id: options.id,
    testCases: options.testCases,
    testCaseHash: ['q'],
    secrets: options.secrets,
    quiet: true,
    setExitCode: false,
    output: options.output,
    fn: ({ testCase }: { testCase: { q: string } }) => testCase.q,
    evaluators: [
      {
        id: 'asks',
        evaluateTestCase: async ({ output }: { output: string }) =>
          options.score(
            await client.chat({ model: 'm', messages: [{ role: 'user', content: output }] }),
          ),
      },
    ],
  } as never);
}
