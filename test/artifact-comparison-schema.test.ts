/**
 * The `comparison` an artifact records is read back and trusted (`evals report` draws it, the
 * Action's `mode: report` comments it, `--resume` and `evals merge` take its `base`), so the
 * schema describes it field by field and a damaged or hand-edited one is refused as any other
 * field is: by JSON pointer, line and column, exit 2, no stack trace (it was `type: object`,
 * and `evals report` crashed on it). A field a newer evalgate added inside it is ignored with
 * the note, as everywhere else.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { ARTIFACT_PROJECT } from '../scripts/fuzz-artifacts.ts';
import { serializeArtifact } from '../src/artifact/artifact.ts';
import { validateArtifact } from '../src/artifact/schema.ts';
import type { Comparison } from '../src/types/comparison.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { runCli, tempFolder, writeFiles } from './helpers/cli.ts';

/**
 * Line and column (1-based) of the value after the last `key` (`"delta": `) in `text`,
 * counted independently.
 */
function place(text: string, key: string): string {
  const found = text.lastIndexOf(key);
  assert.ok(found >= 0, key);
  const at = found + key.length;
  const before = text.slice(0, at).split('\n');
  return `line ${before.length}, column ${(before.at(-1) ?? '').length + 1}`;
}

/** A comparison with every optional field of the type set (typed, so a new field must be here). */
function everyField(recorded: Comparison): Comparison {
  const run = recorded.runs[0]!;
  const ref = { id: 'c1', source: { file: 't.csv', line: 2 }, label: 'hi' };
  const count = { cases: 1, planned: 2 };
  const side = {
    ...count,
    shortRuns: [{ suite: 'intents', params: { style: 'warm' }, ...count }],
    partialMerge: { count: 3, merged: [1, 2] },
    shard: { index: 1, count: 2 },
    markedOnly: true as const,
  };
  return {
    ...recorded,
    base: { ...recorded.base, incomplete: side },
    head: { ...recorded.head, incomplete: side },
    runs: [
      {
        ...run,
        baseTrials: 3,
        evaluators: run.evaluators.map((row) => ({
          ...row,
          lowerIsBetter: true as const,
          directionChanged: true as const,
          lostInHead: 1,
          power: { detectable: 0.4, underpowered: true, casesNeeded: 40 },
          ci: { low: -0.1, high: 0.2 },
        })),
        agreement: [
          {
            pValue: null,
            adjustedP: null,
            qValue: null,
            label: 'too few cases',
            significant: false,
            power: null,
            evaluator: 'exact',
            column: 'human',
            weighted: false,
            compared: { base: 3, head: 3 },
            baseKappa: 0.5,
            headKappa: null,
            delta: null,
            ci: null,
            se: null,
          },
        ],
        cases: {
          ...run.cases,
          flaky: [{ ...ref, trialPassRate: 0.5 }],
          notRunInBase: [ref],
          notRunInHead: [ref],
          notSelectedInBase: [ref],
          notSelectedInHead: [{ id: 'c2', source: null }],
        },
        incomplete: { base: count, head: count },
        verdicts: { base: 'pass', head: 'fail' },
        trialsAgreed: true,
      },
    ],
  };
}

describe('the comparison an artifact records', () => {
  const dir = tempFolder('evalgate-comparison-schema-');
  let recorded: ResultsArtifact;
  before(async () => {
    writeFiles(dir, ARTIFACT_PROJECT);
    const base = await runCli(['run', 'evals.yaml', '-o', 'base.json'], { cwd: dir });
    assert.equal(base.code, 0, base.stderr);
    const run = await runCli(['run', 'evals.yaml', '--baseline', 'base.json', '-o', 'r.json'], {
      cwd: dir,
    });
    assert.equal(run.code, 0, run.stderr);
    recorded = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as ResultsArtifact;
  });

  it('is described field by field: what evalgate records, and every optional field, is valid', () => {
    assert.ok(recorded.comparison !== undefined);
    assert.deepEqual(validateArtifact(recorded), []);
    const full = { ...recorded, comparison: everyField(recorded.comparison) };
    assert.deepEqual(validateArtifact(full), []);
  });

  /** Writes `recorded` changed by `damage` as `file`; its text. */
  function damaged(file: string, damage: (comparison: Record<string, unknown>) => void): string {
    const artifact = structuredClone(recorded);
    damage(artifact.comparison as unknown as Record<string, unknown>);
    const text = serializeArtifact(artifact);
    writeFileSync(join(dir, file), text);
    return text;
  }

  for (const argv of [
    ['show', 'FILE'],
    ['report', 'FILE', '-o', 'x.html'],
    ['report', 'FILE', '--junit', 'x.xml'],
  ]) {
    it(`a damaged one is refused by evals ${argv.filter((a) => a !== 'FILE').join(' ')} by pointer, line and column`, async () => {
      const text = damaged('bad-delta.json', (comparison) => {
        const runs = comparison.runs as { passRate: { delta: unknown } }[];
        runs[0]!.passRate.delta = 'a word';
      });
      const where = place(text.slice(0, text.indexOf('"a word"')), '"delta": ');
      const shown = argv.map((a) => (a === 'FILE' ? 'bad-delta.json' : a));
      const result = await runCli(shown, { cwd: dir });
      assert.equal(result.code, 2, result.stderr);
      assert.equal(
        result.stderr,
        `error: evals ${argv[0]}: bad-delta.json is not a results artifact of this evalgate: /comparison/runs/0/passRate/delta (${where}): must be number or null, found "a word"\n`,
      );

      const gone = damaged('no-base.json', (comparison) => delete comparison.base);
      const missing = await runCli(
        argv.map((a) => (a === 'FILE' ? 'no-base.json' : a)),
        { cwd: dir },
      );
      assert.equal(missing.code, 2, missing.stderr);
      assert.ok(
        missing.stderr.includes(
          `/comparison (${place(gone, '"comparison": ')}): missing property "base"`,
        ),
        missing.stderr,
      );
      assert.doesNotMatch(missing.stderr, /\n\s+at /);
    });
  }

  it('a field a newer evalgate added inside it is ignored, with the note', async () => {
    damaged('newer.json', (comparison) => Object.assign(comparison, { effectSizes: [] }));
    const shown = await runCli(['show', 'newer.json', '--limit', '1'], { cwd: dir });
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(
      shown.stderr,
      /^note: newer\.json .*1 field it does not know was ignored \(\/comparison\/effectSizes\)\n$/,
    );
  });

  it('one an earlier evalgate recorded, without settings.maxResamples (added later), is read', async () => {
    // Within schemaVersion 1 a field added later is optional (docs/artifact.md): an artifact
    // compared before evalgate drew sign vectors in stages has no maxResamples, and was refused.
    damaged('earlier.json', (comparison) => {
      delete (comparison.settings as Record<string, unknown>).maxResamples;
    });
    for (const argv of [
      ['show', 'earlier.json', '--limit', '1'],
      ['report', 'earlier.json', '-o', 'earlier.html'],
    ]) {
      const result = await runCli(argv, { cwd: dir });
      assert.equal(result.code, 0, result.stderr);
      assert.doesNotMatch(result.stderr, /maxResamples/);
    }
  });
});
