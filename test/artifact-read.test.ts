import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { serializeArtifact } from '../src/artifact/artifact.ts';
import { ArtifactReadError, openArtifactFile } from '../src/artifact/read.ts';
import { CaseSpool } from '../src/artifact/spool.ts';
import type { CaseResult, ResultsArtifact, RunResult } from '../src/types/index.ts';
import { artifactOf } from './helpers/cases.ts';

const work = await mkdtemp(join(tmpdir(), 'evalgate-read-test-'));
after(() => rm(work, { recursive: true, force: true }));

function testCase(i: number, output: string = `answer ${i}`): CaseResult {
  return {
    id: `case-${i}`,
    contentId: `c${i}`,
    source: { file: 'cases.csv', line: i + 2 },
    data: { i, question: `What is ${i} + 1? ünïcödé ✓` },
    output,
    error: null,
    durationMs: 1,
    passed: i % 3 !== 0,
    evaluations: [
      {
        evaluator: 'exact',
        score: i % 3 === 0 ? 0 : 1,
        threshold: { gte: 1 },
        passed: i % 3 !== 0,
        metadata: { note: 'a "quoted" note, a comma, and a brace }' },
        error: null,
        durationMs: 0.5,
      },
    ],
  };
}

function run(suite: string, cases: CaseResult[], params: object = {}): RunResult {
  const failed = cases.filter((c) => !c.passed).length;
  return {
    suite,
    params: params as RunResult['params'],
    testset: { path: 'cases.csv', ref: null, commit: null, revision: 'rev', cases: cases.length },
    verdict: failed > 0 ? 'fail' : 'pass',
    gate: { conditions: [] },
    summary: {
      cases: cases.length,
      passed: cases.length - failed,
      failed,
      errored: 0,
      passRate: cases.length === 0 ? 0 : (cases.length - failed) / cases.length,
      evaluators: {},
    },
    plan: { evaluators: ['exact'], trials: 1, gate: {} },
    cases,
  };
}

/** Three runs, one of them empty, and (in `params`) a key named `cases` holding an array. */
const sample = artifactOf([
  run(
    'math',
    Array.from({ length: 40 }, (_, i) => testCase(i)),
    { cases: [1, 2], model: 'small' },
  ),
  run('empty', []),
  run(
    'words',
    Array.from({ length: 7 }, (_, i) => testCase(100 + i)),
  ),
]);

async function written(name: string, text: string): Promise<string> {
  const path = join(work, name);
  await writeFile(path, text);
  return path;
}

/** What the reader gives back, as one artifact. */
function readBack(path: string): ResultsArtifact {
  const file = openArtifactFile(path, 'x.json');
  const runs = file.frame.runs.map((r, i) => ({ ...r, cases: [...file.cases(i)] }));
  assert.deepEqual(
    file.caseCounts,
    runs.map((r) => r.cases.length),
  );
  return { ...file.frame, runs };
}

describe('the artifact reader', () => {
  it("reads evalgate's layout a case at a time: the same frame and cases as a whole parse", async () => {
    const path = await written('layout.json', serializeArtifact(sample));
    const file = openArtifactFile(path, 'layout.json');
    assert.deepEqual(
      file.frame.runs.map((r) => r.cases),
      [[], [], []],
    );
    assert.deepEqual(file.caseCounts, [40, 0, 7]);
    assert.deepEqual(readBack(path), sample);
    // Reading a run again starts over; reading a run that has no cases yields nothing.
    assert.equal([...file.cases(0)].length, 40);
    assert.deepEqual([...file.cases(1)], []);
  });

  it('reads a case longer than its read window, and CRLF line ends', async () => {
    const big = artifactOf([
      run('big', [testCase(0), testCase(1, 'x'.repeat(3_000_000)), testCase(2)]),
    ]);
    const text = serializeArtifact(big);
    assert.deepEqual(readBack(await written('big.json', text)), big);
    assert.deepEqual(readBack(await written('crlf.json', text.replaceAll('\n', '\r\n'))), big);
  });

  for (const [layout, text] of [
    ['compact on one line', JSON.stringify(sample)],
    ['pretty-printed throughout', JSON.stringify(sample, null, 2)],
    ['pretty-printed with a tab', JSON.stringify(sample, null, '\t')],
  ] as const) {
    it(`reads an artifact ${layout} (parsed whole)`, async () => {
      assert.deepEqual(readBack(await written(`other-${layout.length}.json`, text)), sample);
    });
  }

  it('refuses a case the schema rejects as it reads it, naming where it is', async () => {
    const text = serializeArtifact(sample).replace('"id":"case-5"', '"id":5');
    const file = openArtifactFile(await written('bad-case.json', text), 'bad-case.json');
    const cases = file.cases(0);
    for (let i = 0; i < 5; i++) assert.equal(cases.next().done, false);
    assert.throws(
      () => cases.next(),
      (error: unknown) =>
        error instanceof ArtifactReadError &&
        error.kind === 'invalid' &&
        /^bad-case\.json is not a results artifact of this evalgate: \/runs\/0\/cases\/5\/id \(line \d+, column 15\): must be string, found 5$/.test(
          error.message,
        ),
    );
  });

  it('refuses a missing file, text that is not JSON, a cut-off file and a frame the schema rejects', async () => {
    const full = serializeArtifact(sample);
    const cases: [string, string | null, ArtifactReadError['kind'], RegExp][] = [
      ['missing.json', null, 'unreadable', /^missing\.json: no such results file$/],
      ['.', null, 'unreadable', /^\.: is a folder, not a results file$/],
      [
        'words.json',
        'not json at all\n',
        'not-json',
        /^words\.json is not JSON: at line 1, column 1: expected a value, found "not"$/,
      ],
      [
        'cut.json',
        full.slice(0, full.length / 2),
        'not-json',
        /^cut\.json is not JSON: at line \d+, column \d+: .* \(the file ends early: written only in part, or cut off in a copy or download\?\)$/,
      ],
      ['empty.json', '', 'not-json', /^empty\.json is empty, not JSON$/],
      [
        'broken.json',
        full.replace('"verdict": "fail"', '"verdict": fail'),
        'not-json',
        new RegExp(
          `^broken\\.json is not JSON: at line ${full.split('\n').findIndex((l) => l.includes('"verdict"')) + 1}, column \\d+: `,
        ),
      ],
      [
        'frame.json',
        full.replace('"verdict": "fail"', '"verdict": "maybe"'),
        'invalid',
        /^frame\.json is not a results artifact of this evalgate: \/verdict \(line \d+, column 14\): must be one of "pass", "fail", found "maybe"$/,
      ],
    ];
    for (const [name, text, kind, message] of cases) {
      const path = text === null ? join(work, name) : await written(name, text);
      assert.throws(
        () => openArtifactFile(path, name),
        (error: unknown) =>
          error instanceof ArtifactReadError && error.kind === kind && message.test(error.message),
        name,
      );
    }
  });
});

describe('the case spool by key', () => {
  it('writes cases recorded in any order, with gaps in their keys, in key order', async () => {
    const cases = Array.from({ length: 30 }, (_, i) => testCase(i));
    const expected = artifactOf([run('math', cases)]);
    const spool = new CaseSpool();
    try {
      spool.open([{ cases: cases.length }]);
      // Keys are testset positions that skip numbers (a tag filter), arriving shuffled.
      const order = cases.map((_, i) => (i * 7) % cases.length);
      for (const i of order) spool.recordKeyed(0, i * 10 + 3, cases[i]!);
      const path = join(work, 'keyed', 'results.json');
      await spool.writeArtifact(path, { ...expected, runs: [{ ...expected.runs[0]!, cases: [] }] });
      assert.equal(await readFile(path, 'utf8'), serializeArtifact(expected));
      assert.deepEqual([...spool.cases(0)], cases);
    } finally {
      spool.discard();
    }
  });

  it('takes no more cases than the run was opened with, and not both ways in one run', () => {
    const spool = new CaseSpool();
    try {
      spool.open([{ cases: 1 }, { cases: 2 }]);
      spool.recordKeyed(0, 5, testCase(0));
      assert.throws(() => spool.recordKeyed(0, 6, testCase(1)), /no room for another case/);
      spool.record(1, 0, testCase(2));
      assert.throws(() => spool.recordKeyed(1, 0, testCase(3)), /by index or by key, not both/);
    } finally {
      spool.discard();
    }
  });
});
