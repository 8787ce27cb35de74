/**
 * The dataset shapes of seeds 002 and 004: Agenta's tags as objects and its testcase wrappers
 * with flags/tags/meta, exact duplicate rows collapsing, Autoblocks dataset items, Judgment's
 * `examples`, and Agenta-shaped CSV and JSON round-tripping through `evals testset convert`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseTestset } from '../src/testsets/formats.ts';
import { prepareCases } from '../src/testsets/identity.ts';
import type { TestsetRow } from '../src/types/index.ts';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

function rows(text: string, format: 'json' | 'csv'): TestsetRow[] {
  const parsed = parseTestset(text, format, `set.${format}`);
  assert.ok(parsed.ok, JSON.stringify(!parsed.ok && parsed.issues));
  return parsed.rows;
}

const AGENTA_JSON = `{
  "testcases": [
    {
      "id": "e44bf373-44ec-52ce-aa5c-a3bd982e783b",
      "data": { "country": "Germany", "capital": "Berlin", "testcase_dedup_id": "gr-001" },
      "flags": { "has_errors": false },
      "tags": { "split": "test" },
      "meta": { "source": "import" }
    },
    {
      "id": "5d1f0c55-0000-0000-0000-000000000002",
      "data": { "country": "France", "capital": "Paris" },
      "tags": [{ "split": "train" }, "smoke"]
    },
    {
      "id": "5d1f0c55-0000-0000-0000-000000000002",
      "data": { "country": "France", "capital": "Paris" },
      "tags": [{ "split": "train" }, "smoke"]
    }
  ]
}
`;

const AGENTA_CSV = [
  'country,capital,__dedup_id__,__flags__,__tags__,__meta__',
  'Germany,Berlin,gr-001,"{""has_errors"":false}","{""split"":""test""}","{""source"":""import""}"',
  'France,Paris,,,"{""split"":""train""}",',
  'France,Paris,,,"{""split"":""train""}",',
  '',
].join('\n');

describe('Agenta shapes', () => {
  it('keeps a testcase wrapper’s flags, tags and meta beside its data', () => {
    const [germany, france] = rows(AGENTA_JSON, 'json');
    assert.deepEqual(germany?.data, { country: 'Germany', capital: 'Berlin' });
    assert.deepEqual(germany?.meta, {
      id: 'e44bf373-44ec-52ce-aa5c-a3bd982e783b',
      dedupId: 'gr-001',
      flags: { has_errors: false },
      tags: ['split=test'],
      meta: { source: 'import' },
    });
    assert.deepEqual(france?.meta.tags, ['split=train', 'smoke']);
  });

  it('reads object tags in a CSV __tags__ cell as key=value tags', () => {
    const [germany, france] = rows(AGENTA_CSV, 'csv');
    assert.deepEqual(germany?.meta.tags, ['split=test']);
    assert.deepEqual(germany?.meta.flags, { has_errors: false });
    assert.deepEqual(france?.meta.tags, ['split=train']);
  });

  it('collapses an exact duplicate row into the first, with a warning naming both lines', () => {
    const prepared = prepareCases(rows(AGENTA_CSV, 'csv'), { testsetId: 'set', file: 'set.csv' });
    assert.ok(prepared.ok);
    assert.equal(prepared.cases.length, 2);
    assert.deepEqual(
      prepared.warnings?.map((w) => [w.code, w.line, w.message]),
      [
        [
          'testset.duplicate-row',
          4,
          'the row at line 4 repeats line 3 exactly: collapsed into one case',
        ],
      ],
    );
  });

  it('still refuses one dedup id on two rows with different data', () => {
    const csv = 'q,__dedup_id__\nfirst,a\nsecond,a\n';
    const prepared = prepareCases(rows(csv, 'csv'), { testsetId: 'set', file: 'set.csv' });
    assert.ok(!prepared.ok);
    assert.deepEqual(
      prepared.issues.map((i) => [i.code, i.line]),
      [['testset.duplicate-id', 3]],
    );
  });
});

describe('Autoblocks and Judgment shapes', () => {
  it('reads Autoblocks dataset items with their splits as tags', () => {
    const text = JSON.stringify([
      { id: 'item-1', splits: ['smoke', 'regression'], data: { input: 'hi', expected: 'hello' } },
      { id: 'item-2', data: { input: 'bye', expected: 'goodbye' } },
    ]);
    const [first, second] = rows(text, 'json');
    assert.deepEqual(first?.data, { input: 'hi', expected: 'hello' });
    assert.deepEqual(first?.meta, { id: 'item-1', tags: ['smoke', 'regression'] });
    assert.deepEqual(second?.meta, { id: 'item-2' });
  });

  it('keeps an array of plain rows that merely has a data column as rows', () => {
    const text = JSON.stringify([{ data: { a: 1 }, question: 'q' }]);
    assert.deepEqual(rows(text, 'json')[0]?.data, { data: { a: 1 }, question: 'q' });
  });

  it('reads Judgment’s { examples } with their fields as the row, at their lines', () => {
    const text = `{
  "name": "qa",
  "examples": [
    {
      "input": "How tall is the Eiffel Tower?",
      "actual_output": "300 meters",
      "expected_output": "300 meters",
      "retrieval_context": ["The Eiffel tower stands 300 meters tall."]
    },
    { "example_id": "ex-2", "data": { "input": "Capital of France?" } }
  ]
}
`;
    const [first, second] = rows(text, 'json');
    assert.equal(first?.line, 4);
    assert.equal(first?.data.actual_output, '300 meters');
    assert.deepEqual(first?.data.retrieval_context, ['The Eiffel tower stands 300 meters tall.']);
    assert.deepEqual(second?.data, { input: 'Capital of France?' });
    assert.equal(second?.meta.id, 'ex-2');
  });
});

describe('Agenta exports through evals testset convert', () => {
  for (const [from, to] of [
    ['agenta.csv', 'json'],
    ['agenta.json', 'csv'],
  ] as const) {
    it(`round-trips ${from} through ${to} and back with nothing lost and the same revision`, async () => {
      const dir = scratch();
      // The same file name in each folder: a testset's default id (its name) scopes its revision.
      writeFiles(dir, {
        'agenta.csv': AGENTA_CSV,
        'agenta.json': AGENTA_JSON,
        'there/.keep': '',
        'back/.keep': '',
      });
      const middle = `there/agenta.${to}`;
      const back = `back/${from}`;
      const there = await runInProcess(['testset', 'convert', from, middle], dir);
      assert.equal(there.code, 0, there.stderr);
      const again = await runInProcess(['testset', 'convert', middle, back], dir);
      assert.equal(again.code, 0, again.stderr);
      const revision = (out: string) => /revision (\w+) \(unchanged\)/.exec(out)?.[1];
      assert.ok(revision(there.stdout) !== undefined, there.stdout);
      assert.equal(revision(again.stdout), revision(there.stdout));
      const kept = (name: string) =>
        rows(readFileSync(join(dir, name), 'utf8'), name.endsWith('.csv') ? 'csv' : 'json').map(
          (r) => ({ data: r.data, ...r.meta }),
        );
      assert.deepEqual(kept(back), kept(from));
      assert.deepEqual(kept(middle), kept(from));
      assert.equal(kept(back).length, 3, 'the duplicated row is kept in the file');
    });
  }
});

describe('selecting Agenta object tags', () => {
  it('--tag split=test runs only the rows tagged {"split": "test"}', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'agenta.json': AGENTA_JSON,
      'capital.mjs': 'export const capital = ({ testCase }) => testCase.capital;\n',
      'evals.yaml': [
        'version: 1',
        'suites:',
        '  - id: capitals',
        '    testset: { path: agenta.json }',
        '    function: ./capital.mjs#capital',
        '    evaluators:',
        '      - { id: same, use: is-equals, with: { expected: "{{case.capital}}" } }',
        '',
      ].join('\n'),
    });
    const result = await runInProcess(['run', '--tag', 'split=test', '-o', 'results.json'], dir);
    assert.equal(result.code, 0, result.stderr);
    const artifact = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as {
      runs: { cases: { data: Record<string, unknown> }[] }[];
    };
    assert.deepEqual(
      artifact.runs[0]?.cases.map((c) => c.data.country),
      ['Germany'],
    );
  });
});

describe('Judgment datasets in evals.yaml', () => {
  const CSV = [
    'input,actual_output,expected_output,retrieval_context',
    'How tall is the Eiffel Tower?,300 meters,300 meters,The Eiffel tower stands 300 meters tall.; It is in Paris. ;',
    'Capital of France?,Lyon,Paris,Paris is the capital of France.',
    '',
  ].join('\n');

  function project(suiteLines: string[]): string {
    const dir = scratch();
    writeFiles(dir, {
      'qa.csv': CSV,
      'evals.yaml': [
        'version: 1',
        'suites:',
        '  - id: qa',
        ...suiteLines.map((line) => `    ${line}`),
        '    evaluators:',
        '      - { id: same, use: is-equals, with: { expected: "{{case.expected_output}}" } }',
        '',
      ].join('\n'),
    });
    return dir;
  }

  it('output: actual_output scores the recorded column, and split: cuts joined list cells', async () => {
    const dir = project([
      'testset: { path: qa.csv, split: { retrieval_context: ";" } }',
      'output: actual_output',
    ]);
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(result.code, 1, result.stderr);
    const artifact = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as {
      runs: {
        testset: { revision: string };
        cases: { data: Record<string, unknown>; output: unknown; passed: boolean }[];
      }[];
    };
    const run = artifact.runs[0];
    assert.deepEqual(
      run?.cases.map((c) => [c.output, c.passed]),
      [
        ['300 meters', true],
        ['Lyon', false],
      ],
    );
    assert.deepEqual(run?.cases[0]?.data.retrieval_context, [
      'The Eiffel tower stands 300 meters tall.',
      'It is in Paris.',
    ]);
    assert.deepEqual(run?.cases[1]?.data.retrieval_context, ['Paris is the capital of France.']);
    // The revision is the file's, as `evals testset revision` prints it: split does not change it.
    const revision = await runInProcess(['testset', 'revision', 'qa.csv'], dir);
    assert.ok(revision.stdout.includes(run?.testset.revision ?? '?'), revision.stdout);
  });

  it('refuses output: beside function:, at its line and column, with exit 2', async () => {
    const dir = project([
      'testset: { path: qa.csv }',
      'function: ./f.mjs#f',
      'output: actual_output',
    ]);
    writeFiles(dir, { 'f.mjs': 'export const f = () => "x";\n' });
    const result = await runInProcess(['run'], dir);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /evals\.yaml:6:\d+/);
    assert.match(result.stderr, /output: names the testset column/);
    assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
  });
});

describe('collapsed duplicate rows in evals run', () => {
  it('runs the duplicate once and warns, naming both lines of the file', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'agenta.csv': AGENTA_CSV,
      'capital.mjs': 'export const capital = ({ testCase }) => testCase.capital;\n',
      'evals.yaml': [
        'version: 1',
        'suites:',
        '  - id: capitals',
        '    testset: { path: agenta.csv }',
        '    function: ./capital.mjs#capital',
        '',
      ].join('\n'),
    });
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stderr,
      /warning: agenta\.csv:4:1 {2}the row at line 4 repeats line 3 exactly: collapsed into one case/,
    );
    const artifact = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as {
      runs: { cases: unknown[] }[];
    };
    assert.equal(artifact.runs[0]?.cases.length, 2);
  });
});
