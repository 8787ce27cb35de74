/**
 * Table-driven tests of the built-in evaluators: a {@link Row} per case (the options as a user
 * writes them in `with:`, the case and output, the score, metadata or error expected), run the
 * way the engine would.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinEvaluators, type BuiltinEvaluatorName } from '../../src/evaluators/registry.ts';
import type { Evaluation, Params } from '../../src/types/index.ts';

/** One table row: a test named `name` that evaluates `output` with the options `with`. */
export interface Row {
  name: string;
  with: Record<string, unknown>;
  output?: unknown;
  testCase?: Record<string, unknown>;
  params?: Params;
  durationMs?: number;
  /** Expected score (omit with `error`). */
  score?: number;
  /** Compared with deepEqual when given; `null` means "no metadata". */
  metadata?: Record<string, unknown> | null;
  /** The evaluation throws an Error whose message matches. */
  error?: RegExp;
}

/** Runs `use` on one row the way the engine would: create once, then evaluate with the case. */
export async function evaluate(use: BuiltinEvaluatorName, row: Row): Promise<Evaluation> {
  const evaluator = builtinEvaluators[use].create(row.with, { id: `${use}-under-test` });
  return evaluator.evaluateTestCase({
    testCase: row.testCase ?? {},
    output: row.output,
    params: row.params ?? {},
    durationMs: row.durationMs ?? 0,
    signal: new AbortController().signal,
  });
}

/**
 * Declares a `describe(use)` suite with one test per row: the row's error is expected to be
 * thrown, or else its score (and metadata, when given) to be produced.
 */
export function table(use: BuiltinEvaluatorName, rows: Row[]): void {
  void describe(use, () => {
    for (const row of rows) {
      void it(row.name, async () => {
        if (row.error) {
          await assert.rejects(async () => evaluate(use, row), row.error);
          return;
        }
        const evaluation = await evaluate(use, row);
        assert.equal(evaluation.score, row.score);
        if (row.metadata === null) assert.equal(evaluation.metadata, undefined);
        else if (row.metadata) assert.deepEqual(evaluation.metadata, row.metadata);
      });
    }
  });
}
