import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import schema from '../schemas/results.schema.json' with { type: 'json' };
import { buildArtifact } from '../src/artifact/artifact.ts';
import { validateArtifact } from '../src/artifact/schema.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { fixtureRuns } from './report-fixture.ts';

/**
 * Every field of the type, with each nullable field null somewhere and set somewhere else. Typed
 * as ResultsArtifact, so a field added to or renamed in the type breaks compilation here first.
 */
function fullArtifact(): ResultsArtifact {
  return {
    schemaVersion: 1,
    tool: { name: 'evalgate', version: '0.1.0' },
    config: 'evals.yaml',
    configHash: 'sha256:abc',
    git: { sha: '0123abcd', ref: null },
    startedAt: '2025-01-02T03:04:05.678Z',
    durationMs: 1234.5,
    interrupted: false,
    verdict: 'fail',
    runs: [
      {
        suite: 'capitals',
        params: { model: 'large', temperature: 0.7, nested: { any: ['thing'] } },
        testset: {
          path: 'testsets/capitals.csv',
          ref: 'main',
          commit: '0123abcd'.repeat(5),
          revision: 'rev',
          cases: 2,
        },
        verdict: 'fail',
        gate: {
          conditions: [{ name: 'minPassRate', expected: '≥ 0.95', actual: '0.5', passed: false }],
        },
        summary: {
          cases: 3,
          passed: 2,
          failed: 0,
          errored: 1,
          passRate: 2 / 3,
          flaky: 1,
          evaluators: {
            exact: { count: 1, mean: 1, passed: 1, failed: 0, errors: 0, passRate: 1 },
            tone: {
              count: 1,
              mean: null,
              passed: 0,
              failed: 1,
              errors: 1,
              passRate: null,
              lowerIsBetter: true,
            },
          },
        },
        cases: [
          {
            id: 'id-1',
            contentId: 'content-1',
            source: { file: 'testsets/capitals.csv', line: 2 },
            data: { country: 'France', capital: 'Paris' },
            output: { answer: 'Paris', tokens: [1, 2] },
            error: null,
            durationMs: 41,
            passed: true,
            evaluations: [
              {
                evaluator: 'exact',
                score: 1,
                threshold: { lt: 2, lte: 1, gt: 0, gte: 1 },
                passed: true,
                metadata: { reason: 'equal' },
                error: null,
                durationMs: 0.1,
              },
              {
                evaluator: 'tone',
                score: null,
                threshold: null,
                passed: null,
                metadata: null,
                error: 'judge timed out',
                durationMs: 20000,
              },
            ],
          },
          {
            id: 'id-2',
            contentId: 'content-2',
            source: null,
            data: 'a plain string row',
            output: null,
            error: 'TypeError: boom',
            durationMs: 0,
            passed: false,
            evaluations: [],
          },
          {
            id: 'id-3',
            contentId: 'content-3',
            source: null,
            data: { country: 'Peru' },
            output: 'Lima',
            error: null,
            durationMs: 15,
            passed: true,
            evaluations: [
              {
                evaluator: 'exact',
                score: 0.5,
                threshold: null,
                passed: null,
                metadata: { trials: 2, scored: 2 },
                error: null,
                durationMs: 0.2,
              },
            ],
            trials: [
              {
                output: 'Lima',
                error: null,
                durationMs: 10,
                passed: true,
                evaluations: [
                  {
                    evaluator: 'exact',
                    score: 1,
                    threshold: null,
                    passed: null,
                    metadata: null,
                    error: null,
                    durationMs: 0.1,
                  },
                ],
              },
              { output: null, error: 'timed out', durationMs: 20, passed: false, evaluations: [] },
            ],
            trialPassRate: 0.5,
            flaky: true,
          },
        ],
      },
      {
        suite: 'inline',
        params: {},
        testset: { path: null, ref: null, commit: null, revision: 'rev2', cases: 0 },
        verdict: 'pass',
        gate: { conditions: [] },
        summary: { cases: 0, passed: 0, failed: 0, errored: 0, passRate: 1, evaluators: {} },
        cases: [],
      },
    ],
  };
}

type Json = Record<string, unknown>;

/** Keys the type marks optional (`?`): the trial fields, and an evaluator's `lowerIsBetter`. */
function isOptional(path: string, key: string): boolean {
  if (/^\/runs\/\d+\/summary$/.test(path)) return key === 'flaky';
  if (/^\/runs\/\d+\/summary\/evaluators\/[^/]+$/.test(path)) return key === 'lowerIsBetter';
  if (/^\/runs\/\d+\/cases\/\d+$/.test(path)) {
    return ['trials', 'trialPassRate', 'flaky'].includes(key);
  }
  return false;
}

/** Paths of every object the schema defines (not the free-form data/output/metadata/params). */
function definedObjects(artifact: ResultsArtifact): { path: string; object: Json }[] {
  const out: { path: string; object: Json }[] = [{ path: '', object: artifact as unknown as Json }];
  out.push({ path: '/tool', object: artifact.tool });
  if (artifact.git) out.push({ path: '/git', object: artifact.git });
  artifact.runs.forEach((run, r) => {
    const at = `/runs/${r}`;
    out.push({ path: at, object: run as unknown as Json });
    out.push({ path: `${at}/testset`, object: run.testset as unknown as Json });
    out.push({ path: `${at}/gate`, object: run.gate });
    run.gate.conditions.forEach((c, i) =>
      out.push({ path: `${at}/gate/conditions/${i}`, object: c as unknown as Json }),
    );
    out.push({ path: `${at}/summary`, object: run.summary as unknown as Json });
    for (const [id, s] of Object.entries(run.summary.evaluators)) {
      out.push({ path: `${at}/summary/evaluators/${id}`, object: s as unknown as Json });
    }
    run.cases.forEach((c, i) => {
      out.push({ path: `${at}/cases/${i}`, object: c as unknown as Json });
      if (c.source)
        out.push({ path: `${at}/cases/${i}/source`, object: c.source as unknown as Json });
      c.evaluations.forEach((e, j) => {
        out.push({ path: `${at}/cases/${i}/evaluations/${j}`, object: e as unknown as Json });
        if (e.threshold) {
          out.push({
            path: `${at}/cases/${i}/evaluations/${j}/threshold`,
            object: e.threshold as Json,
          });
        }
      });
      c.trials?.forEach((t, k) => {
        out.push({ path: `${at}/cases/${i}/trials/${k}`, object: t as unknown as Json });
        t.evaluations.forEach((e, j) =>
          out.push({
            path: `${at}/cases/${i}/trials/${k}/evaluations/${j}`,
            object: e as unknown as Json,
          }),
        );
      });
    });
  });
  return out;
}

describe('results schema', () => {
  it('accepts every variant of the ResultsArtifact type', () => {
    assert.deepEqual(validateArtifact(fullArtifact()), []);
    assert.deepEqual(validateArtifact({ ...fullArtifact(), git: null }), []);
    assert.deepEqual(validateArtifact({ ...fullArtifact(), git: { sha: null, ref: 'main' } }), []);
    // A partial recovered from a journal records its baseline; an older one has none (above).
    const baseline = { path: 'b.json', config: 'evals.yaml', git: null, startedAt: 'x' };
    assert.deepEqual(validateArtifact({ ...fullArtifact(), baseline }), []);
    const git = { sha: 'abc', ref: null };
    assert.deepEqual(validateArtifact({ ...fullArtifact(), baseline: { ...baseline, git } }), []);
    assert.deepEqual(validateArtifact({ ...fullArtifact(), baseline: { ...baseline, extra: 1 } }), [
      '/baseline: unexpected property "extra"',
    ]);
  });

  it('accepts what buildArtifact produces, after a JSON round trip', () => {
    const artifact = buildArtifact({
      toolVersion: '0.1.0',
      config: 'evals.yaml',
      configHash: 'h',
      git: null,
      startedAt: new Date(),
      durationMs: 5,
      interrupted: true,
      runs: fixtureRuns(),
    });
    assert.deepEqual(validateArtifact(JSON.parse(JSON.stringify(artifact))), []);
  });

  it('requires every key of the type (threshold bounds and the optional trial fields aside)', () => {
    for (const { path, object } of definedObjects(fullArtifact())) {
      if (path.endsWith('/threshold')) continue;
      for (const key of Object.keys(object)) {
        if (isOptional(path, key)) {
          const broken = fullArtifact();
          delete definedObjects(broken).find((entry) => entry.path === path)?.object[key];
          assert.deepEqual(validateArtifact(broken), [], `${path}/${key} is optional`);
          continue;
        }
        const broken = fullArtifact();
        const target = definedObjects(broken).find((entry) => entry.path === path)?.object;
        assert.ok(target);
        delete target[key];
        const problems = validateArtifact(broken);
        assert.ok(
          problems.includes(`${path || '/'}: missing property "${key}"`),
          `${path}/${key} should be required; got ${JSON.stringify(problems)}`,
        );
      }
    }
  });

  it('rejects an extra key on every object it defines', () => {
    for (const { path } of definedObjects(fullArtifact())) {
      const broken = fullArtifact();
      const target = definedObjects(broken).find((entry) => entry.path === path)?.object;
      assert.ok(target);
      target.extra = 1;
      assert.deepEqual(
        validateArtifact(broken),
        [`${path || '/'}: unexpected property "extra"`],
        path,
      );
    }
  });

  it('rejects wrong values with readable problems', () => {
    const wrongVerdict = fullArtifact() as unknown as Json;
    wrongVerdict.verdict = 'maybe';
    assert.deepEqual(validateArtifact(wrongVerdict), [
      '/verdict: must be one of "pass", "fail", found "maybe"',
    ]);

    const noSummary = fullArtifact() as unknown as { runs: Json[] };
    delete noSummary.runs[0]?.summary;
    assert.deepEqual(validateArtifact(noSummary), ['/runs/0: missing property "summary"']);

    const badDate = { ...fullArtifact(), startedAt: 'yesterday' };
    assert.deepEqual(validateArtifact(badDate), [
      '/startedAt: must match format "date-time", found "yesterday"',
    ]);

    const badScore = fullArtifact();
    (badScore.runs[0]!.cases[0]!.evaluations[0] as unknown as Json).score = '1';
    assert.deepEqual(validateArtifact(badScore), [
      '/runs/0/cases/0/evaluations/0/score: must be number or null, found "1"',
    ]);

    // A score is from 0 to 1: evalgate writes none outside, and the statistics subtract them.
    const hugeScore = fullArtifact();
    (hugeScore.runs[0]!.cases[0]!.evaluations[0] as unknown as Json).score = 1e308;
    assert.deepEqual(validateArtifact(hugeScore), [
      '/runs/0/cases/0/evaluations/0/score: must be <= 1, found 1e+308',
    ]);

    assert.deepEqual(validateArtifact({ ...fullArtifact(), schemaVersion: 2 }), [
      '/schemaVersion: this evalgate reads schemaVersion 1, found 2: a newer evalgate wrote it; update evalgate here to read it',
    ]);
    // Only a higher whole number is a newer evalgate's; anything else is simply not a version.
    assert.deepEqual(validateArtifact({ ...fullArtifact(), schemaVersion: '1' }), [
      '/schemaVersion: this evalgate reads schemaVersion 1, found "1"',
    ]);
    assert.deepEqual(validateArtifact({ ...fullArtifact(), schemaVersion: 0 }), [
      '/schemaVersion: this evalgate reads schemaVersion 1, found 0',
    ]);
    assert.deepEqual(validateArtifact([]), ['/: must be object, found an empty array']);
  });

  // The gate: a run whose evaluators judged no case fails `judged` unless a pass: function
  // decided its cases (src/run/gate.ts), which is what the field tells a reader of the artifact.
  it('says of plan.pass which runs fail judged, as the gate decides', () => {
    const run = schema.definitions.run as { properties: Record<string, unknown> };
    const plan = run.properties['plan'] as { properties: Record<string, unknown> };
    const { description } = plan.properties['pass'] as { description: string };
    assert.match(
      description,
      /A run whose evaluators judged no case fails judged only without a pass: function\.$/,
    );
  });

  it('describes every property', () => {
    const missing: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (node === null || typeof node !== 'object') return;
      const properties = (node as { properties?: Record<string, unknown> }).properties;
      for (const [key, child] of Object.entries(properties ?? {})) {
        if (typeof (child as { description?: unknown }).description !== 'string')
          missing.push(`${path}.${key}`);
      }
      for (const [key, child] of Object.entries(node)) walk(child, `${path}.${key}`);
    };
    walk(schema, '');
    assert.deepEqual(missing, []);
  });
});
