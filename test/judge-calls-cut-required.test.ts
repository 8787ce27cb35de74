/**
 * A judge's calls quote its answer in error metadata (a refusal, an answer that does not fit),
 * and that answer may quote the output: it must be scrubbed of the run's secrets before it is
 * cut, or a cut inside a secret keeps its first characters. `JudgeCalls` and `askVerdicts` took
 * the cut as optional, defaulting to a plain truncation, so a new caller that forgot it cut
 * before scrubbing. The cut is now required: `npx tsc --noEmit -p .` type-checks this file, and
 * each `@ts-expect-error` below is itself an error when the call it marks compiles.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JudgeCalls } from '../src/evaluators/judges/calls.ts';
import { askVerdicts } from '../src/evaluators/judges/rag-verdicts.ts';

/** Never called: what it holds is checked by the type checker alone. */
export function forgottenCuts(
  judge: ConstructorParameters<typeof JudgeCalls>[0] & Parameters<typeof askVerdicts>[0],
  question: Parameters<typeof askVerdicts>[2],
): unknown[] {
  return [
    // @ts-expect-error -- the cut (scrub, then truncate) is required.
    new JudgeCalls(judge, undefined),
    // @ts-expect-error -- the cut (scrub, then truncate) is required.
    askVerdicts(judge, undefined, question),
  ];
}

describe('a judge call without the built-in cut', () => {
  it('JudgeCalls has no default cut: its three parameters are all positional', () => {
    // A parameter with a default is not counted in a function's length.
    assert.equal(JudgeCalls.length, 3);
  });
});
