/**
 * A judge client made in code inside `isolation: worker` (a thread has its own globals, so it
 * saw no run) scrubs the run's secrets as one made in the main thread does: the pool hands the
 * run's secret set to each thread, which registers it as its run's. Here the run's secret is a
 * judge header's value read from a variable whose name says nothing, so neither the client (made
 * with `env: {}`) nor the environment's rule knows it: only the run does. The built CLI runs it,
 * its threads load the package's `createJudgeClient` (lib/index.js), another copy of evalgate.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.ts';
import {
  assertCutsKeepNoSecret,
  filesUnder,
  gatewayEvalsYaml,
} from './helpers/judge-client-secrets.ts';
import { linkedProject } from './helpers/package-client.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((s) => (server = s));

const RUN_SECRET = 'Kc6Rv2Qm9Wt4Xs7Jb3Nf';
/** Where the client cuts an error's detail. */
const DETAIL_CHARS = 300;

describe('a judge client made in code, in a worker thread', () => {
  it("scrubs the run's secrets before it cuts an error and before it caches", async () => {
    server.reset();
    server.setResponder((request) => {
      const body = request.body as { messages: { content: string }[] };
      const kept = Number(body.messages[0]?.content ?? '0');
      if (kept === 0) return { content: `the key is ${RUN_SECRET}` };
      // The cut at 300 falls `kept` characters into the secret.
      return {
        status: 400,
        body: { error: { message: `${'x'.repeat(DETAIL_CHARS - kept)}${RUN_SECRET}` } },
      };
    });
    const dir = linkedProject({
      'evals.yaml': gatewayEvalsYaml(server.url, ['isolation: worker', 'timeout: 30s']),
      'rows.csv': 'kept\n0\n1\n2\n3\n4\n5\n',
      // Made as a user would, in the thread, knowing its server and cache only.
      'fn.mjs': [
        "import { threadId } from 'node:worker_threads';",
        "import { createJudgeClient } from 'evalgate';",
        `const client = createJudgeClient({ baseUrl: ${JSON.stringify(server.url)}, cacheDir: 'cache', maxRetries: 0, env: {} });`,
        'export async function fn({ testCase }) {',
        "  if (threadId === 0) throw new Error('not in a worker thread');",
        "  const answer = await client.chat({ model: 'm', messages: [{ role: 'user', content: String(testCase.kept) }] });",
        "  return answer.ok ? 'done' : answer.error.message;",
        '}',
        '',
      ].join('\n'),
    });
    const r = await runCli(['run', '-o', 'out.json'], {
      cwd: dir,
      env: { GATEWAY_VALUE: RUN_SECRET },
    });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const artifact = readFileSync(join(dir, 'out.json'), 'utf8');
    assert.equal(artifact.includes('not in a worker thread'), false, artifact);
    assert.ok(assertCutsKeepNoSecret(artifact) >= 5, artifact);
    const cached = filesUnder(join(dir, 'cache'));
    assert.equal(cached.length, 1, 'the answer is cached');
    assert.equal(cached[0]!.includes(RUN_SECRET.slice(0, 6)), false, cached[0]);
    assert.match(cached[0]!, /the key is \[redacted\]/);
  });
});
