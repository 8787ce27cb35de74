/**
 * Cases read again as the run goes (`CaseStream`) instead of held: prepare's streamed cases equal
 * its held ones, the engine runs them as it runs held ones, and a testset that changes under a
 * run stops it with a usage error.
 */
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { UsageError } from '../src/errors.ts';
import { caseCursor } from '../src/run/case-cursor.ts';
import { runSuites } from '../src/run/engine.ts';
import { CaseStream, heldCases, type SuiteSpec } from '../src/run/types.ts';
import { KeptCases } from '../src/testsets/replay.ts';
import type { CaseResult, PreparedCase, TrialResult } from '../src/types.ts';
import { suiteSpec } from './helpers/cases.ts';
import { preparedSuites, runCli, scratch, writeFiles } from './helpers/cli.ts';

/** Every case of a stream, read once, in order. */
async function readAll(stream: CaseStream): Promise<PreparedCase[]> {
  const cases: PreparedCase[] = [];
  const iterator = stream.read();
  for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
    cases.push(...next.value);
  }
  return cases;
}

/** A project whose one suite reads `file` (written with `text`), with `settings` added. */
function project(file: string, text: string, settings: string[] = []): string {
  const dir = scratch();
  writeFiles(dir, {
    'evals.yaml': [
      'version: 1',
      'suites:',
      '  - id: s',
      `    testset: { path: ${file} }`,
      ...settings.map((l) => `    ${l}`),
      '',
    ].join('\n'),
    [file]: text,
  });
  return dir;
}

/** The suite prepared both ways: cases held, and cases streamed. */
async function bothWays(
  dir: string,
  filters: Parameters<typeof preparedSuites>[1] = {},
): Promise<{ held: SuiteSpec; streamed: SuiteSpec }> {
  const [held] = await preparedSuites(dir, filters);
  const [streamed] = await preparedSuites(dir, filters, { stream: true });
  assert.ok(held && streamed);
  return { held, streamed };
}

const many = <T>(n: number, row: (i: number) => T): T[] =>
  Array.from({ length: n }, (_, i) => row(i));

describe('prepared cases read again', () => {
  const testsets: Record<string, [file: string, text: string, settings: string[]]> = {
    'a CSV file over several blocks of kept ids (5,000 rows)': [
      'rows.csv',
      `id,q\n${many(5000, (i) => `c${i},question ${i}`).join('\n')}\n`,
      [],
    ],
    'a CSV file with hash: fields, a dedup id column and quoted JSON cells': [
      'rows.csv',
      `__dedup_id__,id,q,expected\n${many(300, (i) => `${i % 7 === 0 ? `d${i}` : ''},k${i},"a, ${i}","{""n"":${i}}"`).join('\r\n')}\n`,
      ['hash: [id]'],
    ],
    'a CSV file whose cells span lines (read by csv-parse)': [
      'rows.csv',
      `id,q\n${many(200, (i) => (i % 50 === 3 ? `c${i},"two\nlines"` : `c${i},q${i}`)).join('\n')}\n`,
      [],
    ],
    'a JSON Lines file with blank lines and tags': [
      'rows.jsonl',
      many(400, (i) =>
        i % 9 === 0 ? '' : JSON.stringify({ id: `j${i}`, q: i, __tags__: i % 2 ? ['odd'] : [] }),
      ).join('\n'),
      ['hash: [id]'],
    ],
    'a JSON file': ['rows.json', JSON.stringify(many(50, (i) => ({ id: `x${i}` }))), []],
  };
  for (const [name, [file, text, settings]] of Object.entries(testsets)) {
    it(`${name}: the held cases, in order, the same count`, async () => {
      const { held, streamed } = await bothWays(project(file, text, settings));
      assert.ok(streamed.cases instanceof CaseStream);
      assert.equal(streamed.cases.length, held.cases.length);
      assert.deepEqual(await readAll(streamed.cases), heldCases(held.cases));
      assert.deepEqual(streamed.testset, held.testset);
      // Each read starts from the first case again.
      assert.deepEqual(await readAll(streamed.cases), heldCases(held.cases));
    });
  }

  it('keeps only the cases of a shard and a tag, at their testset positions', async () => {
    const text = many(600, (i) => JSON.stringify({ id: `t${i}`, __tags__: i % 3 ? ['a'] : ['b'] }));
    const dir = project('rows.jsonl', `${text.join('\n')}\n`, ['hash: [id]']);
    const { held, streamed } = await bothWays(dir, { shard: { index: 2, count: 3 }, tags: ['a'] });
    const cases = await readAll(streamed.cases as CaseStream);
    assert.deepEqual(cases, heldCases(held.cases));
    assert.ok(cases.length > 100 && cases.length < 300, `${cases.length} cases`);
    assert.ok(cases.some((c, i) => c.index !== i));
  });

  it('holds the cases of a testset at a ref and of inline cases', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'evals.yaml':
        'version: 1\nsuites:\n  - id: s\n    testset:\n      cases:\n        - { q: 1 }\n        - { q: 2 }\n',
    });
    const [suite] = await preparedSuites(dir, {}, { stream: true });
    assert.ok(Array.isArray(suite?.cases));
  });

  it('stops with testset.changed when the file changed, went away or lost rows', async () => {
    const text = `id,q\n${many(100, (i) => `c${i},q${i}`).join('\n')}\n`;
    const cases: [string, (path: string) => void, RegExp][] = [
      ['a row added', (path) => appendFileSync(path, 'c100,q100\n'), /rows\.csv changed since/],
      ['the file removed', (path) => rmSync(path), /rows\.csv went away since/],
      [
        'the same size, another row',
        (path) => writeFileSync(path, text.replace('c5,q5', 'c5,q6')),
        /rows\.csv changed since/,
      ],
    ];
    for (const [what, change, message] of cases) {
      const dir = project('rows.csv', text);
      const [suite] = await preparedSuites(dir, {}, { stream: true });
      assert.ok(suite?.cases instanceof CaseStream);
      // Stamps count to the nanosecond, but a file system's clock may not: keep sizes apart too.
      change(join(dir, 'rows.csv'));
      await assert.rejects(
        readAll(suite.cases),
        (error: unknown) =>
          error instanceof UsageError &&
          error.issues[0]?.code === 'testset.changed' &&
          message.test(error.message),
        what,
      );
    }
  });
});

describe('KeptCases', () => {
  it('gives back positions and ids across blocks', () => {
    const kept = new KeptCases(true);
    const hex = (n: number) => n.toString(16).padStart(64, '0');
    for (let i = 0; i < 5000; i++) kept.add(i * 3, hex(i), i % 4 ? hex(i + 1) : null);
    kept.seal();
    assert.equal(kept.count, 5000);
    // Across runs of 64 and blocks of 2,048, read in and out of order, and the last short run.
    for (const i of [0, 1, 63, 64, 2047, 2048, 130, 4999, 4990, 4991]) {
      assert.equal(kept.position(i), i * 3);
      assert.equal(kept.contentId(i), hex(i));
      if (i % 4) assert.equal(kept.fieldId(i), hex(i + 1));
    }
    assert.equal(new KeptCases(false).fieldId(0), null);
  });
});

/** A stream over `cases` in batches of `size`, counting how often it is read and closed. */
function streamOf(cases: PreparedCase[], size: number, failAt?: number) {
  const counts = { reads: 0, closed: 0 };
  const stream = new CaseStream(cases.length, () => {
    counts.reads++;
    let at = 0;
    return {
      next: async () => {
        await new Promise((resolve) => setImmediate(resolve));
        if (failAt !== undefined && at >= failAt) throw new Error('the disk is gone');
        if (at >= cases.length) return { done: true, value: undefined };
        const batch = cases.slice(at, at + size);
        at += size;
        return { done: false, value: batch };
      },
      return: () => {
        counts.closed++;
        return Promise.resolve({ done: true, value: undefined });
      },
    };
  });
  return { stream, counts };
}

/** Results (and their trials) without their timings, for comparing two runs. */
function untimed(cases: CaseResult[]): unknown[] {
  const strip = ({ durationMs: _d, evaluations, ...rest }: TrialResult) => ({
    ...rest,
    evaluations: evaluations.map(({ durationMs: _e, ...e }) => e),
  });
  return cases.map((c) => ({ ...strip(c), trials: c.trials?.map(strip) }));
}

describe('the engine with streamed cases', () => {
  const rows: Record<string, unknown>[] = many(97, (i) => ({ q: i }));
  const settings: Partial<SuiteSpec>[] = [
    { concurrency: 1 },
    { concurrency: 8, grid: [{ m: 'a' }, { m: 'b' }, { m: 'c' }] },
    { concurrency: 5, trials: 3 },
    { concurrency: 200, grid: [{ m: 'a' }, { m: 'b' }] },
  ];
  for (const [n, extra] of settings.entries()) {
    for (const size of [1, 7, 32]) {
      it(`runs the cases it runs held (settings ${n}, batches of ${size}), reading once a grid point`, async () => {
        const base = suiteSpec(rows, {
          ...extra,
          fn: async ({ testCase, params }) => {
            await new Promise((resolve) => setImmediate(resolve));
            return { q: testCase.q, m: params.m ?? null };
          },
        });
        const held = await runSuites([base]);
        const { stream, counts } = streamOf([...heldCases(base.cases)], size);
        const streamed = await runSuites([{ ...base, cases: stream }]);
        assert.equal(streamed.runs.length, held.runs.length);
        for (const [r, run] of streamed.runs.entries()) {
          assert.deepEqual(untimed(run.cases), untimed(held.runs[r]!.cases));
          assert.deepEqual(run.summary.cases, held.runs[r]!.summary.cases);
        }
        assert.equal(counts.reads, base.grid.length);
      });
    }
  }

  it('hands the sink each prepared case with its result', async () => {
    const base = suiteSpec(rows.slice(0, 10), { concurrency: 3 });
    const { stream } = streamOf([...heldCases(base.cases)], 4);
    const seen: [string, string | undefined][] = [];
    await runSuites([{ ...base, cases: stream }], {
      keepCases: false,
      sink: {
        open: () => undefined,
        record: (_run, _index, result, testCase) => seen.push([result.id, testCase?.id]),
      },
    });
    assert.equal(seen.length, 10);
    for (const [result, prepared] of seen) assert.equal(result, prepared);
  });

  it('closes the stream when interrupted', async () => {
    const controller = new AbortController();
    const base = suiteSpec(rows, {
      concurrency: 2,
      fn: async ({ testCase }) => {
        if (testCase.q === 20) controller.abort();
        await new Promise((resolve) => setImmediate(resolve));
        return 1;
      },
    });
    const { stream, counts } = streamOf([...heldCases(base.cases)], 8);
    const result = await runSuites([{ ...base, cases: stream }], { signal: controller.signal });
    assert.equal(result.interrupted, true);
    assert.ok(result.runs[0]!.cases.length < rows.length);
    assert.equal(counts.closed, 1);
  });

  it('stops the run and rejects with the error when the cases cannot be read', async () => {
    const base = suiteSpec(rows, { concurrency: 4 });
    const { stream, counts } = streamOf([...heldCases(base.cases)], 10, 30);
    await assert.rejects(runSuites([{ ...base, cases: stream }]), /the disk is gone/);
    assert.equal(counts.closed, 1);
  });

  it('reads the stream to its end with the last batch, and rejects when it gives more', async () => {
    const base = suiteSpec(rows.slice(0, 20), { concurrency: 4 });
    const cases = [...heldCases(base.cases)];
    const stream = new CaseStream(20, streamOf([...cases, ...cases], 20).stream.read);
    await assert.rejects(
      runSuites([{ ...base, cases: stream }]),
      /gave more cases than the 20 planned/,
    );
  });

  it('rejects when the stream ends before its length', async () => {
    const base = suiteSpec(rows.slice(0, 20), { concurrency: 4 });
    const short = heldCases(base.cases).slice(0, 15);
    const stream = new CaseStream(20, streamOf(short, 4).stream.read);
    await assert.rejects(runSuites([{ ...base, cases: stream }]), /gave 15 cases where 20/);
  });
});

describe('caseCursor over a stream', () => {
  const cases = heldCases(suiteSpec(many(10, (i) => ({ q: i }))).cases);

  /** A stream of `cases` in batches of 4 that records each call of its iterator. */
  function recorded(fail?: number) {
    const calls: string[] = [];
    const stream = new CaseStream(cases.length, () => {
      let at = 0;
      return {
        next: () => {
          calls.push(`next@${at}`);
          if (fail !== undefined && at >= fail) return Promise.reject(new Error('unreadable'));
          const batch = cases.slice(at, at + 4);
          at += 4;
          return Promise.resolve(
            batch.length > 0 ? { done: false, value: batch } : { done: true, value: undefined },
          );
        },
        return: () => {
          calls.push('return');
          return Promise.resolve({ done: true, value: undefined });
        },
      };
    });
    return { cursor: caseCursor(stream), calls };
  }

  it('reads the next batch once half of one was asked for, and the end with the last', async () => {
    const { cursor, calls } = recorded();
    assert.equal(await cursor.at(0), cases[0]);
    assert.deepEqual(calls, ['next@0']);
    assert.equal(cursor.at(1), cases[1]);
    assert.deepEqual(calls, ['next@0']);
    assert.equal(cursor.at(2), cases[2]); // half of the batch: the next one is read ahead
    assert.deepEqual(calls, ['next@0', 'next@4']);
    assert.equal(cursor.at(3), cases[3]);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(cursor.at(4), cases[4]); // read ahead: no wait
    for (let i = 5; i < 8; i++) assert.equal(await cursor.at(i), cases[i]);
    // The last batch (2 cases) comes with the end of the stream.
    assert.equal(await cursor.at(8), cases[8]);
    assert.equal(cursor.at(9), cases[9]);
    assert.deepEqual(calls, ['next@0', 'next@4', 'next@8', 'next@12']);
    await cursor.close();
    assert.deepEqual(calls.at(-1), 'return');
  });

  it('gives workers waiting on one read the cases they asked for', async () => {
    const { cursor, calls } = recorded();
    const got = await Promise.all([0, 1, 2, 3, 4, 5, 6].map(async (i) => cursor.at(i)));
    assert.deepEqual(got, cases.slice(0, 7));
    assert.deepEqual(calls, ['next@0', 'next@4']);
  });

  it('keeps a failed read ahead for the worker that needs its batch, unhandled by none', async () => {
    const { cursor } = recorded(4);
    assert.equal(await cursor.at(0), cases[0]);
    for (let i = 1; i < 4; i++) assert.equal(cursor.at(i), cases[i]);
    await new Promise((resolve) => setImmediate(resolve));
    await assert.rejects(async () => cursor.at(4), /unreadable/);
    await assert.rejects(async () => cursor.at(5), /unreadable/);
    await cursor.close();
  });

  it('closes after a read in flight, once', async () => {
    const { cursor, calls } = recorded();
    const first = cursor.at(0);
    await cursor.close();
    await first;
    assert.equal(calls.filter((c) => c === 'return').length, 1);
  });
});

describe('evals run with a testset changing under it', () => {
  it('exits 2 with testset.changed, and the run it stopped writes no artifact', async () => {
    const dir = scratch();
    // More rows than a batch of cases (256): the second grid point reads on after its first call.
    const rows = many(600, (i) => `c${i},q${i}`).join('\n');
    writeFiles(dir, {
      'evals.yaml': [
        'version: 1',
        'suites:',
        '  - id: s',
        '    testset: { path: rows.csv }',
        '    function: ./fn.mjs',
        '    grid: { m: [a, b] }',
        // One case at a time: the second grid point reads its last batch after the change.
        '    concurrency: 1',
        '',
      ].join('\n'),
      'rows.csv': `id,q\n${rows}\n`,
      // The first call of the second grid point adds a row: the second read meets a changed file.
      'fn.mjs': `import { appendFileSync } from 'node:fs';
let done = false;
export default function fn({ params }) {
  if (params.m === 'b' && !done) { done = true; appendFileSync(new URL('./rows.csv', import.meta.url), 'c99,q99\\n'); }
  return 1;
}
`,
    });
    const r = await runCli(['run', 'evals.yaml', '-o', 'out.json'], { cwd: dir });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /rows\.csv changed since the run read it first/);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
    assert.throws(() => readFileSync(join(dir, 'out.json')), /ENOENT/);
  });
});
