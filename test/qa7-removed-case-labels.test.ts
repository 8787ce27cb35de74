/**
 * A case only BASE has (removed) is named by its label wherever the comparison is read, also
 * where BASE's cases are not at hand: the comparison records the label (`CaseRef.label`), so
 * `evals compare --format json`, a run's embedded comparison and the HTML report built from it
 * (`evals run --baseline --report`) name the case instead of showing a bare 64-digit id.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildReportModel } from '../src/report/html-model.ts';
import type { Comparison } from '../src/types/comparison.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

function suite(file: string): string {
  return [
    'version: 1',
    'suites:',
    '  - id: s',
    '    hash: [question]',
    `    testset: { path: ${file}, id: s }`,
    '    evaluators: [ { id: eq, use: is-equals, with: { expected: a } } ]',
    '',
  ].join('\n');
}

function project(): string {
  const dir = scratch();
  writeFiles(dir, {
    'base.jsonl': '{"question":"kept q","output":"a"}\n{"question":"gone q","output":"a"}\n',
    'head.jsonl': '{"question":"kept q","output":"a"}\n{"question":"new q","output":"a"}\n',
    'base.yaml': suite('base.jsonl'),
    'head.yaml': suite('head.jsonl'),
  });
  return dir;
}

describe('a removed case is named by the label the comparison records', () => {
  it('in compare --format json, and in the HTML model of a run compared with --baseline', async () => {
    const dir = project();
    const base = await runInProcess(['run', 'base.yaml', '-o', 'base.json'], dir);
    assert.equal(base.code, 0, base.stderr);
    const head = await runInProcess(
      ['run', 'head.yaml', '-o', 'head.json', '--baseline', 'base.json'],
      dir,
    );
    assert.equal(head.code, 0, head.stderr);

    const json = await runInProcess(['compare', 'base.json', 'head.json', '--format', 'json'], dir);
    const comparison = JSON.parse(json.stdout) as Comparison;
    const removed = comparison.runs[0]?.cases.removed ?? [];
    assert.deepEqual(
      removed.map((ref) => ref.label),
      ['gone q'],
    );
    // A case HEAD has is named from HEAD's own data: no label is recorded for it.
    assert.equal(comparison.runs[0]?.cases.added[0]?.label, undefined);

    // The run's embedded comparison, which the report of that run is built from, without BASE.
    const artifact = JSON.parse(readFileSync(join(dir, 'head.json'), 'utf8')) as ResultsArtifact;
    const model = buildReportModel(artifact, (run) => artifact.runs[run]?.cases ?? []);
    const lists = model.comparison?.changes[0]?.lists ?? [];
    const removedList = lists.find((list) => list.title === 'removed');
    assert.deepEqual(
      removedList?.cases.map((c) => c.label),
      ['gone q'],
    );
  });
});
