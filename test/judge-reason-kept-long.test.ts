/**
 * A judge's reason is what a failed case is read for: it is kept up to 2,000 characters (other
 * metadata strings are cut at 500), and cut past that with a note of how much was left out. The
 * llm-judge built-in against the loopback OpenAI-compatible server.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { create, evaluate, verdict } from './helpers/judge-evaluators.ts';
import { server, useJudgeServer } from './helpers/judge-server.ts';

useJudgeServer();

const options = { prompt: 'Is this helpful? {{output}}', choices: { yes: 1, no: 0 } };

async function reasonFor(reason: string): Promise<unknown> {
  server.setResponder(() => verdict('no', reason));
  const evaluation = await evaluate(create('llm-judge', options), {}, 'an answer', {});
  assert.equal(evaluation.score, 0);
  return evaluation.metadata?.reason;
}

describe('a judge reason in the results', () => {
  it('is kept whole up to 2,000 characters', async () => {
    const reason = `The answer ${'misses a step of the derivation; '.repeat(55)}end.`;
    assert.ok(reason.length > 1500 && reason.length <= 2000, String(reason.length));
    assert.equal(await reasonFor(reason), reason);
  });

  it('is cut past 2,000 characters, saying how much was left out', async () => {
    const reason = 'r'.repeat(2400);
    assert.equal(await reasonFor(reason), `${'r'.repeat(2000)}… (400 more characters)`);
  });
});
