/**
 * A judge client made in code (`createJudgeClient` in a custom evaluator) knew only its own
 * key, headers and URL: an error detail it cut at 300 characters kept the first 1 to 5
 * characters of a secret of the run (too few for the run's scrub of the finished case to
 * recognise), and its cache held a secret an answer echoed, whole. It now scrubs with the
 * environment's secrets and, during a run, with the run's (here `runTestSuite`'s `secrets`),
 * before it cuts and before it caches.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createJudgeClient } from '../src/judge/client.ts';
import { scratch } from './helpers/cli.ts';
import { assertCutsKeepNoSecret, filesUnder, runAsking } from './helpers/judge-client-secrets.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((s) => (server = s));

/** Known to the run only, through `secrets` (its name says nothing). */
const RUN_SECRET = 'Zq7Xw9Lm2Np4Rt6VbK3d';
/** A secret-named environment variable's value. */
const ENV_SECRET = 'Hy3Kd9Lw2Qe7Rt5Yu1Io';
const ENV_NAME = 'EDGE6_TEST_API_KEY';

/** How many characters of the message `errorDetail` keeps. */
const DETAIL_CHARS = 300;

before(() => {
  process.env[ENV_NAME] = ENV_SECRET;
});
after(() => {
  delete process.env[ENV_NAME];
});

describe('a judge client made in code, during a run', () => {
  it('scrubs the run and environment secrets before it cuts an error and before it caches', async () => {
    const dir = scratch();
    const cacheDir = join(dir, 'cache');
    server.reset();
    server.setResponder((request) => {
      const body = request.body as { messages: { content: string }[] };
      const [kind = '', which = '', kept = '0'] = (body.messages[0]?.content ?? '').split(':');
      const secret = which === 'run' ? RUN_SECRET : ENV_SECRET;
      if (kind === 'error') {
        // The cut at 300 falls `kept` characters into the secret.
        const message = 'x'.repeat(DETAIL_CHARS - Number(kept)) + secret;
        return { status: 400, body: { error: { message } } };
      }
      return { content: `the keys are ${RUN_SECRET} and ${ENV_SECRET}` };
    });
    // Made as a user would, before the run, with nothing but its server and cache.
    const client = createJudgeClient({ baseUrl: server.url, cacheDir, maxRetries: 0 });
    const testCases = [
      { q: 'echo' },
      ...['run', 'env'].flatMap((which) =>
        [1, 2, 3, 4, 5].map((kept) => ({ q: `error:${which}:${kept}` })),
      ),
    ];
    const result = await runAsking(client, {
      id: 'own-client',
      testCases,
      secrets: [RUN_SECRET],
      output: join(dir, 'out.json'),
      score: (answer) => {
        if (!answer.ok) throw new Error(answer.error.message);
        return { score: 1, metadata: { said: answer.message.content } };
      },
    });
    assert.ok(result);
    const artifact = readFileSync(join(dir, 'out.json'), 'utf8');
    assert.equal(assertCutsKeepNoSecret(artifact), 10, artifact);
    assert.match(artifact, /the keys are \[redacted\] and \[redacted\]/);
    const cached = filesUnder(cacheDir);
    assert.equal(cached.length, 1, 'the one answer that was not an error is cached');
    for (const text of [artifact, ...cached]) {
      assert.equal(text.includes(RUN_SECRET.slice(0, 6)), false, text);
      assert.equal(text.includes(ENV_SECRET.slice(0, 6)), false, text);
    }
    assert.match(cached[0] ?? '', /the keys are \[redacted\] and \[redacted\]/);
  });

  it('outside any run, scrubs the environment secrets it can know', async () => {
    server.reset();
    server.script({ status: 400, body: { error: { message: `${'x'.repeat(297)}${ENV_SECRET}` } } });
    const client = createJudgeClient({ baseUrl: server.url, cacheDir: null, maxRetries: 0 });
    const answer = await client.chat({ model: 'm', messages: [{ role: 'user', content: 'q' }] });
    assert.equal(answer.ok, false);
    assert.match(answer.ok ? '' : answer.error.message, /x{297}\[re$/);
  });
});
