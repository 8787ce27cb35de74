/**
 * What a comparison reads: comparableCase (the reduced case that compares the same as the full
 * one), MemoryCaseLog (finished cases in testset order), and validateComparable (the two
 * artifacts given to `evals compare`).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { MemoryCaseLog } from '../src/artifact/case-log.ts';
import { validateArtifact } from '../src/artifact/schema.ts';
import { comparableCases } from '../src/compare/comparable.ts';
import { compareArtifacts } from '../src/compare/compare.ts';
import { validateComparable } from '../src/compare/validate-comparable.ts';
import { UsageError } from '../src/shared/errors.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { artifact, noisyPair, run } from './helpers/compare-builder.ts';

describe('comparableCase', () => {
  const reduce = (artifact: ResultsArtifact): ResultsArtifact => ({
    ...artifact,
    runs: artifact.runs.map((r) => ({ ...r, cases: r.cases.map(comparableCases(r)) })),
  });

  it('keeps everything a comparison reads: the same comparison as from full cases', () => {
    const [noisyBase, noisyHead] = noisyPair(7, 60, -0.1);
    const base = run('s', {}, [
      { id: 'steady', scores: { q: 0.9, r: 0.4 } },
      { id: 'breaks', scores: { q: 0.9, r: null } },
      { id: 'heals', scores: { q: 0.1, r: 0.7 } },
      { id: 'edited', scores: { q: 0.9, r: 0.9 }, contentId: 'v1' },
      { id: 'gone', scores: { q: 0.9, r: 0.9 } },
    ]);
    const head = run('s', {}, [
      { id: 'steady', scores: { q: 0.9, r: 0.6 }, flaky: false, trialPassRate: 1 },
      { id: 'breaks', scores: { q: 0.1, r: 0.2 }, flaky: true, trialPassRate: 0.4 },
      { id: 'heals', scores: { q: 0.9, r: null } },
      { id: 'edited', scores: { q: 0.1, r: 0.9 }, contentId: 'v2' },
      { id: 'new', scores: { q: 0.9, r: 0.9 } },
    ]);
    for (const [b, h] of [
      [artifact([base]), artifact([head])],
      [noisyBase, noisyHead],
    ] as const) {
      assert.deepEqual(compareArtifacts(reduce(b), reduce(h)), compareArtifacts(b, h));
    }
  });

  it('drops data, output, metadata, thresholds, durations and trials, and stays a valid case', () => {
    const full = run('s', {}, [{ id: 'a', scores: { q: 0.9 }, flaky: true, trialPassRate: 0.5 }])
      .cases[0];
    assert.ok(full);
    full.trials = [
      { output: 'x', error: null, durationMs: 3, passed: true, evaluations: full.evaluations },
    ];
    const reduced = comparableCases({})(full);
    assert.deepEqual(reduced, {
      id: 'a',
      contentId: 'content-a',
      source: { file: 'testsets/qa.csv', line: 2 },
      data: {},
      output: null,
      error: null,
      durationMs: 0,
      passed: true,
      evaluations: [
        {
          evaluator: 'q',
          score: 0.9,
          threshold: null,
          passed: true,
          metadata: null,
          error: null,
          durationMs: 0,
        },
      ],
      trialPassRate: 0.5,
      flaky: true,
    });
    const reducedArtifact = reduce(artifact([run('s', {}, [{ id: 'a', scores: { q: 0.9 } }])]));
    assert.deepEqual(validateArtifact(reducedArtifact), []);
  });
});

describe('MemoryCaseLog', () => {
  it("gives each run's finished cases in testset order, leaving out the unfinished", () => {
    const cases = run('s', {}, [
      { id: 'a', scores: { q: 0.9 } },
      { id: 'b', scores: { q: 0.1 } },
      { id: 'c', scores: { q: 0.5 } },
      { id: 'd', scores: { q: 0.7 } },
    ]).cases;
    const log = new MemoryCaseLog();
    log.open([{ cases: 4 }, { cases: 2 }]);
    // Out of order, as concurrent cases finish; case 1 of run 0 never finished (an interrupt).
    for (const index of [3, 0, 2]) log.record(0, index, cases[index]!);
    log.record(1, 1, cases[1]!);
    assert.deepEqual(log.cases(0), [cases[0], cases[2], cases[3]]);
    assert.deepEqual(log.cases(1), [cases[1]]);
    assert.deepEqual(log.cases(2), []);
    assert.throws(() => log.record(0, 4, cases[0]!), /no case 4 in run 0/);
  });
});

describe('validateComparable', () => {
  const cases = Array.from({ length: 3 }, (_, i) => ({ id: `c${i}`, scores: { q: 0.5 } }));
  const good = artifact([run('qa', { model: 'small' }, cases)]);
  const names = { base: 'base.json', head: 'head.json' };

  function usageError(fn: () => unknown): UsageError {
    try {
      fn();
    } catch (error) {
      assert.ok(error instanceof UsageError, String(error));
      assert.equal(error.exitCode, 2);
      return error;
    }
    assert.fail('expected a UsageError');
  }

  it('accepts two comparable artifacts and returns them typed', () => {
    assert.deepEqual(validateArtifact(good), []);
    const { base, head } = validateComparable(good, structuredClone(good), names);
    assert.equal(base.runs.length, 1);
    assert.equal(head.runs[0]?.suite, 'qa');
  });

  it('refuses JSON that is not a results artifact', () => {
    const error = usageError(() => validateComparable({ version: 1, suites: [] }, good, names));
    assert.equal(error.issues.length, 1);
    assert.equal(error.issues[0]?.code, 'compare.not-results');
    assert.equal(error.issues[0]?.file, 'base.json');
    assert.match(
      error.message,
      /^base\.json {2}not an evalgate results artifact: expected the JSON object `evals run -o FILE` writes .*found an object with "version", "suites"$/,
    );

    const both = usageError(() => validateComparable([1, 2], 'text', names));
    assert.deepEqual(
      both.issues.map((issue) => [issue.file, issue.code]),
      [
        ['base.json', 'compare.not-results'],
        ['head.json', 'compare.not-results'],
      ],
    );
    assert.match(both.message, /found an array/);
    assert.match(both.message, /found a string/);
  });

  it('refuses a broken artifact with the schema problems', () => {
    const broken = { ...structuredClone(good), verdict: 'maybe' };
    const error = usageError(() => validateComparable(good, broken, names));
    assert.equal(error.issues[0]?.code, 'compare.invalid-results');
    assert.match(
      error.message,
      /head\.json {2}not a valid results artifact: \/verdict: must be one of "pass", "fail"/,
    );
  });

  it('refuses another schemaVersion with its own message', () => {
    const future = { ...structuredClone(good), schemaVersion: 2 };
    const error = usageError(() => validateComparable(future, good, names));
    assert.equal(error.issues[0]?.code, 'compare.schema-version');
    assert.match(
      error.message,
      /base\.json {2}results of another schema: this evalgate reads schemaVersion 1, found 2: a newer evalgate wrote it; update evalgate here to read it/,
    );
  });

  it('refuses artifacts with no common cases, saying how runs and cases match', () => {
    const otherSuite = artifact([run('chat', {}, cases)]);
    const noRuns = usageError(() => validateComparable(good, otherSuite, names));
    assert.equal(noRuns.issues[0]?.code, 'compare.no-common-cases');
    assert.match(
      noRuns.message,
      /^no common cases between base\.json and head\.json: the runs match by suite and params, cases by id; no suite and grid point of head\.json \(chat\) is in base\.json \(qa · model=small\)$/,
    );

    const otherIds = artifact([
      run(
        'qa',
        { model: 'small' },
        cases.map((spec) => ({ ...spec, id: `new-${spec.id}` })),
      ),
    ]);
    const noIds = usageError(() => validateComparable(good, otherIds, names));
    assert.match(
      noIds.message,
      /^no common cases between base\.json and head\.json: the runs match by suite and params, cases by id; the matching run shares no case id$/,
    );
  });
});
