/**
 * A judge client made in code scrubs the secrets of the run it is called in (see
 * judge-client-run-secrets.test.ts) also under `evals run`, where the run is the CLI's bundle
 * and the client the package's `createJudgeClient` (lib/index.js), two copies of the module
 * that registers the runs: the registry is shared through the process, not the module.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.ts';
import { packageClientProject } from './helpers/package-client.ts';
import { filesUnder, gatewayEvalsYaml } from './helpers/judge-client-secrets.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((s) => (server = s));

/** A judge header's value read from a variable whose name says nothing: the run's secret only. */
const RUN_SECRET = 'Gq8Vn3Xc5Bz1Mk7Lp2Wd';

describe('a judge client made in code, under evals run', () => {
  it("scrubs the run's config secrets from the answer it caches", async () => {
    server.reset();
    server.setResponder(() => ({ content: `the key is ${RUN_SECRET}` }));
    const dir = packageClientProject(
      server.url,
      gatewayEvalsYaml(server.url),
      "answer.ok ? 'done' : answer.error.message",
    );
    const r = await runCli(['run', '-o', 'out.json'], {
      cwd: dir,
      env: { GATEWAY_VALUE: RUN_SECRET },
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const cached = filesUnder(join(dir, 'cache'));
    assert.equal(cached.length, 1, 'the answer is cached');
    assert.equal(cached[0]!.includes(RUN_SECRET), false, cached[0]);
    assert.match(cached[0]!, /the key is \[redacted\]/);
  });
});
