/**
 * The setup every end-to-end test of the Action shares: one fake GitHub (`github-server.ts`) on
 * 127.0.0.1, optionally behind the misbehaving proxy (`github-fake-qa5.ts`), and one checked-out
 * copy of the built action, started before the tests of a `describe` block (or of a file) and
 * closed after them; plus the baselines those tests seed as workflow artifacts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
import {
  actionCheckout,
  runAction,
  sourceCheckout,
  type ActionRun,
  type Workspace,
} from './action-run.ts';
import { runCli, type RunOptions } from './cli.ts';
import { startGitHubProxy, type GitHubProxy } from './github-fake-qa5.ts';
import { startGitHubServer, type GitHubServer } from './github-server.ts';
import type { StoredCheckRun } from './github-server-types.ts';
import { writeZip } from './zip-writer.ts';

/** What {@link useActionFixture} sets up beside the fake GitHub and the action. */
export interface ActionFixtureOptions {
  /** Environment every run gets on top of the runner's, e.g. a shorter wait for GitHub. */
  env?: Record<string, string>;
  /** Runs talk to GitHub through a {@link GitHubProxy} in front of the fake. */
  proxy?: boolean;
  /** The path the proxy serves the API below (`/api/v3`, as GitHub Enterprise Server does). */
  proxyBasePath?: string;
  /**
   * Run the Action from src/ through tsx (`sourceCheckout`) rather than the committed dist/: for
   * tests of a change to src/action or src/github that dist/ does not bundle yet.
   */
  source?: boolean;
}

/** The fake GitHub and the action shared by the tests of one block; read them inside a test. */
export interface ActionFixture {
  /** The fake GitHub the runs report to (through `proxy` when there is one). */
  readonly server: GitHubServer;
  /** The proxy in front of `server` (only with `proxy: true`). */
  readonly proxy: GitHubProxy;
  /** The directory of the checked-out action. */
  readonly action: string;
  /**
   * Runs the action in `ws` with `inputs` and `env` on top of the fixture's environment;
   * `onSpawn` gets its node process (to signal it).
   */
  run(
    ws: Workspace,
    inputs?: Record<string, string>,
    env?: Record<string, string>,
    timeoutMs?: number,
    onSpawn?: RunOptions['onSpawn'],
  ): Promise<ActionRun>;
}

/**
 * Registers `before` and `after` hooks in the current `describe` block (or file) that start the
 * fake GitHub (and the proxy) and check the action out, then close them; returns their handles.
 */
export function useActionFixture(options: ActionFixtureOptions = {}): ActionFixture {
  let server: GitHubServer | undefined;
  let proxy: GitHubProxy | undefined;
  let action: string | undefined;
  before(async () => {
    server = await startGitHubServer();
    if (options.proxy) proxy = await startGitHubProxy(server, options.proxyBasePath);
    action = options.source ? sourceCheckout() : actionCheckout();
  });
  after(async () => {
    await proxy?.close();
    await server?.close();
  });
  const started = <T>(value: T | undefined, what: string): T => {
    assert.ok(
      value !== undefined,
      `${what} is there only inside a test (the proxy: when asked for)`,
    );
    return value;
  };
  const fixture: ActionFixture = {
    get server() {
      return started(server, 'the fake GitHub');
    },
    get proxy() {
      return started(proxy, 'the proxy');
    },
    get action() {
      return started(action, 'the action');
    },
    run(ws, inputs = {}, env = {}, timeoutMs, onSpawn) {
      const viaProxy: Record<string, string> = proxy ? { GITHUB_API_URL: proxy.url } : {};
      return runAction(
        fixture.action,
        ws,
        fixture.server,
        inputs,
        { ...viaProxy, ...options.env, ...env },
        timeoutMs,
        onSpawn,
      );
    },
  };
  return fixture;
}

/**
 * {@link useActionFixture} for the Action from src/ (through tsx): the set-up the tests of a
 * change dist/ does not bundle yet share.
 */
export function useSourceAction(options: Omit<ActionFixtureOptions, 'source'> = {}): ActionFixture {
  return useActionFixture({ ...options, source: true });
}

/**
 * Runs `evals run -o <file>` with the CLI in `ws`, as an earlier job would have, asserts its exit
 * code, and returns the results file it wrote.
 */
export async function cliResults(ws: Workspace, file: string, code: number): Promise<string> {
  const made = await runCli(['run', '-o', file], { cwd: ws.dir });
  assert.equal(made.code, code, made.stderr);
  return readFileSync(join(ws.dir, file), 'utf8');
}

/** A zip holding `data` as evals-results.json, as `actions/upload-artifact` stores it. */
export function resultsZip(data: string): Buffer {
  return writeZip([{ name: 'evals-results.json', data }]);
}

/** Seeds an `evals-results` artifact from `branch` holding `data` as evals-results.json. */
export function addResultsArtifact(server: GitHubServer, branch: string, data: string): void {
  server.addArtifact({ name: 'evals-results', branch, zip: resultsZip(data) });
}

/** The one check run `server` holds, asserted to be the only one (`log`, the step's output, said if not). */
export function onlyCheckRun(server: GitHubServer, log: string): StoredCheckRun {
  const runs = [...server.state.checkRuns.values()];
  assert.equal(runs.length, 1, log);
  const [run] = runs;
  assert.ok(run);
  return run;
}
