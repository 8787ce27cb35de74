/**
 * The HTML report's line for a trial whose evaluator errored cuts a long error as the terminal
 * does: the cause after a URL (`401: Incorrect API key provided`) stays whole, the URL taking the
 * room left; it was cut at its end, 160 characters in, the cause lost.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildReportModel } from '../src/report/html-model.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const CAUSE = '401: Incorrect API key provided';
const URL =
  'https://gateway.internal.example.com/openai/deployments/gpt-4o-2024-08-06/chat/completions?api-version=2024-08-01-preview';

describe("a trial's evaluator error on the report page", () => {
  it('keeps the cause after a long URL whole', async () => {
    const dir = jsonlProject(
      [{ q: 'a', output: 'a' }],
      ['trials: 2', 'evaluators:', '  - { id: judge, use: ./ev.mjs#judge }'],
      {
        'ev.mjs': `export const judge = ({ trial }) => { if (trial === 2) throw new Error('judge call failed: POST ${URL} answered ${CAUSE}'); return { score: 1 }; };\n`,
      },
    );
    const run = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(run.code, 1, run.stderr);
    const artifact = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as ResultsArtifact;
    const model = buildReportModel(artifact, (index) => artifact.runs[index]?.cases ?? []);
    const reasons = model.cases[0]?.trials?.[1]?.reasons ?? [];
    assert.equal(reasons.length, 1, JSON.stringify(model.cases[0]?.trials));
    assert.ok(reasons[0]!.startsWith('judge: error: judge call failed: POST '), reasons[0]);
    assert.ok(reasons[0]!.endsWith(CAUSE), reasons[0]);
    assert.ok(reasons[0]!.length <= 'judge: '.length + 160, reasons[0]);
  });
});
