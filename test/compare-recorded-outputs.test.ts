/**
 * Comparing suites that score outputs recorded in the testset (`output:` column, no function):
 * the output is what such a suite measures, so a changed output is a change in behaviour that
 * the statistics test and `regressions: block` blocks, never an "edited row" set aside. A row
 * whose other fields changed is still an edited row; an artifact from before `inputId` keeps the
 * old pairing on the whole row.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { validateArtifact } from '../src/artifact/schema.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';
import { writeFiles } from './helpers/cli.ts';

const SUITE = [
  'hash: [id]',
  'output: actual_output',
  'evaluators:',
  '  - { id: eq, use: is-equals, with: { expected: "{{case.expected}}" } }',
  'gate: { minPassRate: 0, regressions: block }',
];

// A type, not an interface: a row must be assignable to `Record<string, unknown>`.
type Row = {
  id: string;
  question: string;
  expected: string;
  actual_output: string;
};

/** 30 rows; `right` of them answered correctly, the rest wrong; questions optionally edited. */
function rows(right: number, edit = ''): Row[] {
  return Array.from({ length: 30 }, (_, n) => ({
    id: `c${n}`,
    question: `What is ${n} + 1?${edit}`,
    expected: String(n + 1),
    actual_output: n < right ? String(n + 1) : 'no idea',
  }));
}

function writeRows(dir: string, list: Row[]): void {
  writeFiles(dir, { 'rows.jsonl': `${list.map((row) => JSON.stringify(row)).join('\n')}\n` });
}

function read(dir: string, file: string): ResultsArtifact {
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as ResultsArtifact;
}

describe('a comparison of recorded outputs', () => {
  it('tests a changed output as a change in behaviour, and regressions: block fails the run', async () => {
    const dir = jsonlProject(rows(30), SUITE);
    const base = await runInProcess(['run', '-o', 'base.json'], dir);
    assert.equal(base.code, 0, base.stderr);
    writeRows(dir, rows(0));
    const head = await runInProcess(['run', '-o', 'head.json', '--baseline', 'base.json'], dir);
    assert.equal(head.code, 1, `a fall from 30 to 0 of 30 is blocked\n${head.stdout}`);
    assert.doesNotMatch(head.stdout, /testset row changed/);
    const comparison = read(dir, 'head.json').comparison;
    const run = comparison?.runs[0];
    assert.equal(run?.cases.contentChanged.length, 0);
    assert.equal(run?.cases.newlyFailing.length, 30);
    assert.equal(run?.passRate.paired, 30);
    assert.equal(comparison?.hasRegression, true);
  });

  it('records inputId on every case (valid against the schema), the same for a changed output', async () => {
    const dir = jsonlProject(rows(30), SUITE);
    assert.equal((await runInProcess(['run', '-o', 'a.json'], dir)).code, 0);
    writeRows(dir, rows(10));
    assert.equal((await runInProcess(['run', '-o', 'b.json'], dir)).code, 0);
    const [a, b] = [read(dir, 'a.json'), read(dir, 'b.json')];
    assert.deepEqual(validateArtifact(a), []);
    const first = a.runs[0]!.cases;
    const second = b.runs[0]!.cases;
    assert.ok(
      first.every((c) => typeof c.inputId === 'string' && /^[0-9a-f]{64}$/.test(c.inputId)),
    );
    first.forEach((c, i) => {
      assert.equal(second[i]!.inputId, c.inputId, 'the output is not part of inputId');
      assert.notEqual(c.inputId, c.contentId, 'the contentId still covers the output');
    });
    assert.notEqual(second[20]!.contentId, first[20]!.contentId);
  });

  it('still sets aside a row whose other fields were edited', async () => {
    const dir = jsonlProject(rows(30), SUITE);
    assert.equal((await runInProcess(['run', '-o', 'base.json'], dir)).code, 0);
    writeRows(dir, rows(0, ' (edited)'));
    const head = await runInProcess(['run', '-o', 'head.json', '--baseline', 'base.json'], dir);
    assert.equal(head.code, 0, head.stdout);
    assert.match(head.stdout, /testset row changed \(30\)/);
  });

  it('pairs on the whole row against a baseline from before inputId', async () => {
    const dir = jsonlProject(rows(30), SUITE);
    assert.equal((await runInProcess(['run', '-o', 'base.json'], dir)).code, 0);
    const old = read(dir, 'base.json');
    for (const c of old.runs[0]!.cases) delete c.inputId;
    writeFileSync(join(dir, 'old.json'), JSON.stringify(old));
    writeRows(dir, rows(0));
    const head = await runInProcess(['run', '-o', 'head.json', '--baseline', 'old.json'], dir);
    assert.match(head.stdout, /testset row changed \(30\)/);
  });

  it('a suite with a function records no inputId', async () => {
    const dir = jsonlProject(
      rows(30),
      [
        'hash: [id]',
        'function: ./answer.mjs',
        'evaluators:',
        '  - { id: eq, use: is-equals, with: { expected: "{{case.expected}}" } }',
      ],
      { 'answer.mjs': 'export default ({ testCase }) => testCase.expected;\n' },
    );
    assert.equal((await runInProcess(['run', '-o', 'f.json'], dir)).code, 0);
    assert.ok(read(dir, 'f.json').runs[0]!.cases.every((c) => c.inputId === undefined));
  });
});

describe('a recorded-output suite without hash:', () => {
  it("pairs a case whose output changed (its id with it) on the row's other fields", async () => {
    const suite = SUITE.filter((line) => !line.startsWith('hash:'));
    const dir = jsonlProject(rows(30), suite);
    assert.equal((await runInProcess(['run', '-o', 'base.json'], dir)).code, 0);
    writeRows(dir, rows(10));
    const head = await runInProcess(['run', '-o', 'head.json', '--baseline', 'base.json'], dir);
    assert.equal(head.code, 1, `a fall from 30 to 10 of 30 is blocked\n${head.stdout}`);
    const run = read(dir, 'head.json').comparison?.runs[0];
    assert.equal(run?.cases.added.length, 0);
    assert.equal(run?.cases.removed.length, 0);
    assert.equal(run?.cases.newlyFailing.length, 20);
    assert.equal(run?.passRate.paired, 30);
  });

  it('leaves cases added and removed when one input has several outputs', async () => {
    const suite = SUITE.filter((line) => !line.startsWith('hash:'));
    const twice = (right: number): Row[] => [
      ...rows(right),
      ...rows(right).map((row) => ({ ...row, actual_output: `${row.actual_output} ` })),
    ];
    const dir = jsonlProject(twice(30), suite);
    assert.equal((await runInProcess(['run', '-o', 'base.json'], dir)).code, 0);
    writeRows(dir, twice(29));
    const head = await runInProcess(['run', '-o', 'head.json', '--baseline', 'base.json'], dir);
    const run = read(dir, 'head.json').comparison?.runs[0];
    assert.equal(run?.cases.added.length, 2, head.stdout);
    assert.equal(run?.cases.removed.length, 2);
  });
});

describe('a pass rate with no pairable case', () => {
  it('says the rows differ, not that no case is in both runs', async () => {
    const dir = jsonlProject(rows(30), SUITE);
    assert.equal((await runInProcess(['run', '-o', 'base.json'], dir)).code, 0);
    writeRows(dir, rows(30, ' (edited)'));
    const head = await runInProcess(['run', '-o', 'head.json', '--baseline', 'base.json'], dir);
    assert.match(head.stdout, /pass rate +no case in both runs with the same row/);
  });
});
