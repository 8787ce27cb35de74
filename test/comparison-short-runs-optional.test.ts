/**
 * `comparison.base.incomplete.shortRuns` (and head's) was required by the results schema, but
 * an evalgate of this schemaVersion wrote `incomplete` as `{ cases, planned }` alone before it
 * named the runs cut short (git history: the side's `incomplete` came as a case count, and
 * `shortRuns` was added to it later the same day). Such an artifact was refused by every reader.
 * It is optional now, and a comparison without it is read and rendered, saying the recording
 * evalgate did not name the runs.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { validateArtifact } from '../src/artifact/schema.ts';
import { incompleteWarnings } from '../src/report/comparison-incomplete.ts';
import type { Comparison } from '../src/types/comparison.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { writeInterrupted } from './helpers/interrupted-artifact.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const ROWS = [{ q: 'a' }, { q: 'b' }, { q: 'c' }, { q: 'd' }];
const FILES = { 'app/answer.mjs': 'export const answer = ({ testCase }) => testCase.q + "!";\n' };
const SUITE = [
  'function: ./app/answer.mjs#answer',
  'evaluators: [ { use: contains, with: { values: ["!"] } } ]',
];

describe('a comparison an earlier writer recorded without shortRuns', () => {
  it('is valid, read by evals report, and rendered', async () => {
    const dir = jsonlProject(ROWS, SUITE, FILES);
    const first = await runInProcess(['run', '-o', 'full.json'], dir, {});
    assert.equal(first.code, 0, first.stderr);
    writeInterrupted(dir, 'full.json', 'base.json', 2);
    const compared = await runInProcess(
      ['run', '--baseline', 'base.json', '-o', 'new.json'],
      dir,
      {},
    );
    assert.equal(compared.code, 0, compared.stdout + compared.stderr);
    const artifact = JSON.parse(readFileSync(join(dir, 'new.json'), 'utf8')) as ResultsArtifact;
    const incomplete = artifact.comparison?.base.incomplete;
    assert.ok(incomplete?.shortRuns, 'this evalgate names the runs cut short');
    // As the earlier writer recorded it: the counts alone.
    delete incomplete.shortRuns;
    writeFileSync(join(dir, 'old.json'), JSON.stringify(artifact, null, 2));
    assert.deepEqual(validateArtifact(artifact), []);
    const report = await runInProcess(['report', 'old.json', '-o', 'page.html'], dir, {});
    assert.equal(report.code, 0, report.stdout + report.stderr);
    const warnings = JSON.stringify(incompleteWarnings(artifact.comparison as Comparison));
    assert.match(warnings, /did not say which runs lack cases/);
  });
});
