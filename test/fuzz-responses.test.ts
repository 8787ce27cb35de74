/**
 * A short seeded fuzz of what the outside world answers (the long one is `npm run fuzz --
 * --responses`): a loopback server that answers a model target, an LLM judge and an http target
 * with mutated answers (scripts/fuzz-responses.ts), and a command target whose program
 * misbehaves (scripts/fuzz-command.ts), run by `evals run -o --junit`. For every run: exit 0 or
 * 1, no stack trace, no hang, the artifact and the JUnit file written and the artifact valid,
 * each case ended as its mutation says (an error that names the problem, or none), and the
 * secret nowhere, not even a piece of it.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { startResponseServer, type ResponseServer } from '../scripts/fuzz-response-server.ts';
import { fuzzResponses, type ResponseRunSize } from '../scripts/fuzz-responses-run.ts';

const SEED = 3301;
const BIN = fileURLToPath(new URL('../bin/evals.js', import.meta.url));
const SIZE: ResponseRunSize = {
  model: 8,
  'model-json': 4,
  judge: 8,
  http: 8,
  'http-whole': 4,
  command: 6,
  'command-json': 4,
};

describe('fuzzed answers from servers and programs', () => {
  let server: ResponseServer;
  before(async () => {
    server = await startResponseServer(SEED);
  });
  after(() => server.close());

  it('42 mutated answers in process, run twice (the second from the cache): every rule holds', async () => {
    const outcome = await fuzzResponses(SEED, 0, server.base, SIZE, { kind: 'in-process' }, 2);
    assert.deepEqual(outcome.problems, [], `seed ${SEED} run 0`);
    assert.equal(outcome.cases, 42);
    // The mutations reach both sides: some cases end in errors, some do not.
    assert.ok(
      outcome.errors.size > 10 && outcome.errors.size < 42,
      `${outcome.errors.size} errors`,
    );
  });

  it('the next 42 through the built CLI (bin/evals.js): it exits by itself, the same rules hold', async () => {
    const outcome = await fuzzResponses(SEED, 1, server.base, SIZE, { kind: 'child', bin: BIN });
    assert.deepEqual(outcome.problems, [], `seed ${SEED} run 1`);
    assert.equal(outcome.cases, 42);
  });
});
