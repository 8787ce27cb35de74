/**
 * The run-secrets registry and the trial scope live on the process under registered symbols,
 * shared by every copy of evalgate in it, which may be of another version: a copy that finds
 * there a shape it does not know must not throw in the user's case, must not replace it, and
 * degrades safely: it scrubs the strings it finds there as well (more, never less), and does not
 * cache a call whose trial it cannot tell (so no trial is served another's answer).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { createJudgeClient } from '../src/judge/client.ts';
import { inTrial } from '../src/judge/trial-scope.ts';
import { scratch } from './helpers/cli.ts';
import { runAsking } from './helpers/judge-client-secrets.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((s) => (server = s));

/** Known to this copy's run only, through `secrets`. */
const RUN_SECRET = 'Pw4Zr8Tk1Mv6Qs3Hn9Jd';
/** Held by another version's registry: the secret of a run this copy cannot read the shape of. */
const FOREIGN_SECRET = 'Bx5Yc2Nf7Gu4Ka8Le1Ws';

const LEGACY = Symbol.for('evalgate.runSecrets');
const VERSIONED = Symbol.for('evalgate.runSecrets@1');
const TRIALS = Symbol.for('evalgate.trialScope');
const holder = globalThis as Record<symbol, unknown>;

afterEach(() => {
  for (const key of [LEGACY, VERSIONED, TRIALS]) delete holder[key];
});

/** A run of one case whose evaluator asks a client made in code; what the client was told. */
async function runAskingOnce(content: string): Promise<string> {
  const client = createJudgeClient({ baseUrl: server.url, cacheDir: null, maxRetries: 0 });
  let said = '';
  await runAsking(client, {
    id: 'foreign',
    testCases: [{ q: content }],
    secrets: [RUN_SECRET],
    output: join(scratch(), 'out.json'),
    score: (answer) => {
      said = answer.ok ? String(answer.message.content) : answer.error.message;
      return { score: 1 };
    },
  });
  return said;
}

function echoBoth(): void {
  server.reset();
  server.setResponder(() => ({
    status: 400,
    body: { error: { message: `refused ${RUN_SECRET} and ${FOREIGN_SECRET}` } },
  }));
}

describe('a run-secrets registry of a shape this copy does not know', () => {
  it('under the old key: the run goes on, both secrets are scrubbed, the object is left alone', async () => {
    const foreign = { format: 2, runs: [{ secrets: [FOREIGN_SECRET] }] };
    holder[LEGACY] = foreign;
    echoBoth();
    const said = await runAskingOnce('q');
    assert.equal(said.includes(RUN_SECRET), false, said);
    assert.equal(said.includes(FOREIGN_SECRET), false, said);
    assert.match(said, /refused \[redacted\] and \[redacted\]/);
    assert.equal(holder[LEGACY], foreign);
    assert.deepEqual(foreign, { format: 2, runs: [{ secrets: [FOREIGN_SECRET] }] });
  });

  it('under its own key, with a getter that throws: no throw, both still scrubbed', async () => {
    const junk = {
      running: [FOREIGN_SECRET],
      generation: 'x',
      get broken(): never {
        throw new Error('not readable');
      },
    };
    holder[VERSIONED] = junk;
    echoBoth();
    const said = await runAskingOnce('q');
    assert.match(said, /refused \[redacted\] and \[redacted\]/);
    assert.equal(holder[VERSIONED], junk);
  });

  it('a registry of the format before keys had versions is shared, not replaced', async () => {
    const legacy = { running: new Map(), generation: 0 };
    holder[LEGACY] = legacy;
    echoBoth();
    const said = await runAskingOnce('q');
    assert.match(said, /refused \[redacted\] and /);
    assert.equal(holder[VERSIONED], legacy, 'the same object under both keys');
    assert.equal(legacy.running.size, 0, 'the run left it as it found it');
  });
});

describe('a trial scope of a shape this copy does not know', () => {
  /** Asks `q` with a caching client; how many requests reached the server in all. */
  async function ask(cacheDir: string, trial?: number): Promise<number> {
    const client = createJudgeClient({ baseUrl: server.url, cacheDir, maxRetries: 0 });
    const call = () => client.chat({ model: 'm', messages: [{ role: 'user', content: 'q' }] });
    const answer = await (trial === undefined ? call() : inTrial(trial, call));
    assert.equal(answer.ok, true);
    return server.requests.length;
  }

  it("outside any trial of its own: the call is not cached, never served another trial's answer", async () => {
    holder[TRIALS] = {
      getStore: () => ({ trial: 2 }),
      run: (_: unknown, fn: () => unknown) => fn(),
    };
    server.reset();
    const cacheDir = join(scratch(), 'cache');
    assert.equal(await ask(cacheDir), 1);
    assert.equal(await ask(cacheDir), 2, 'asked again: the answer was not cached');
    assert.equal(existsSync(cacheDir), false, 'nothing was written to the cache');
  });

  it('in a trial this copy entered: cached as that trial, beside the scope found', async () => {
    const found = { unknown: true };
    holder[TRIALS] = found;
    server.reset();
    const cacheDir = join(scratch(), 'cache');
    assert.equal(await ask(cacheDir, 1), 1);
    assert.equal(await ask(cacheDir, 2), 2, 'trial 2 is its own sample');
    assert.equal(await ask(cacheDir, 2), 2, 'trial 2 again: cached');
    assert.equal(holder[TRIALS], found);
  });
});
