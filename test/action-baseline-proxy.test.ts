/**
 * The baseline download behind a proxy: GitHub answers the download with a 302 to a storage host,
 * and that request decides for itself, from HTTPS_PROXY / HTTP_PROXY / NO_PROXY as GitHub's
 * toolkit does, whether it goes through the proxy; it does not inherit the API host's decision.
 * The built dist/index.js, the fake GitHub and a real CONNECT proxy, all on 127.0.0.1; reserved
 * `.test` names that only the proxy resolves show which way each request went.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addResultsArtifact, cliResults } from './helpers/action-fixture.ts';
import {
  actionCheckout,
  ONE_FAILING,
  runAction,
  suiteFiles,
  workspace,
} from './helpers/action-run.ts';
import { startConnectProxy, type ConnectProxy } from './helpers/connect-proxy.ts';
import { startGitHubServer, type GitHubServer } from './helpers/github-server.ts';

const API_HOST = 'api.github.test';
const STORAGE_HOST = 'storage.test';

/** The proxy variables, in both spellings, so that none the machine has set wins. */
function proxyEnv(proxy: string, noProxy: string): Record<string, string> {
  return {
    HTTPS_PROXY: proxy,
    https_proxy: proxy,
    HTTP_PROXY: proxy,
    http_proxy: proxy,
    NO_PROXY: noProxy,
    no_proxy: noProxy,
  };
}

describe('the baseline download picks its own way past the proxy', () => {
  let proxy: ConnectProxy;
  let action: string;
  const servers: GitHubServer[] = [];
  before(async () => {
    proxy = await startConnectProxy([API_HOST, STORAGE_HOST]);
    action = actionCheckout();
  });
  after(async () => {
    await proxy.close();
    for (const server of servers) await server.close();
  });

  /** A pull request whose base branch `main` has a results artifact on `server`. */
  async function seeded(server: GitHubServer) {
    const ws = workspace(suiteFiles(ONE_FAILING));
    addResultsArtifact(server, 'main', await cliResults(ws, 'base.json', 1));
    return ws;
  }

  it('through the proxy to a storage host NO_PROXY does not cover, the API host being direct', async () => {
    const server = await startGitHubServer({ storageHost: STORAGE_HOST });
    servers.push(server);
    const ws = await seeded(server);
    const before = proxy.tunnels.length;
    const r = await runAction(
      action,
      ws,
      server,
      { baseline: 'auto' },
      proxyEnv(proxy.url, '127.0.0.1'),
    );
    const storagePort = new URL(server.storageUrl).port;
    assert.match(r.stdout, /comparing with evals-results from main/, r.stdout);
    assert.deepEqual(proxy.tunnels.slice(before), [`${STORAGE_HOST}:${storagePort}`]);
    assert.equal(server.state.storageDownloads.length, 1);
  });

  it('straight to a storage host NO_PROXY covers, the API host being behind the proxy', async () => {
    const server = await startGitHubServer();
    servers.push(server);
    const ws = await seeded(server);
    const apiPort = new URL(server.url).port;
    const before = proxy.tunnels.length;
    const r = await runAction(
      action,
      ws,
      server,
      { baseline: 'auto' },
      { ...proxyEnv(proxy.url, '127.0.0.1'), GITHUB_API_URL: `http://${API_HOST}:${apiPort}` },
    );
    assert.match(r.stdout, /comparing with evals-results from main/, r.stdout);
    const tunnels = proxy.tunnels.slice(before);
    assert.ok(tunnels.length > 0, 'the API calls went through the proxy');
    assert.deepEqual(
      tunnels.filter((tunnel) => tunnel !== `${API_HOST}:${apiPort}`),
      [],
      'only the API host was tunnelled to, never the storage host',
    );
    assert.equal(server.state.storageDownloads.length, 1);
  });
});
