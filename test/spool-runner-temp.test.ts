/**
 * A run that keeps no recovery journal (the Action, `evals merge`) spools its cases in a folder of
 * its own under RUNNER_TEMP on a GitHub runner, which the runner empties at the start and end of
 * every job, even a self-hosted one; elsewhere under the system's temporary folder. A self-hosted
 * runner never empties the latter: a spool a run could not remove itself (SIGKILL after a cancel's
 * grace period, the kernel's out-of-memory killer) would stay there for good, hundreds of
 * megabytes for a large run. Every exit the run takes itself removes the spool either way.
 *
 * Real processes: the Action from its sources (dist/ is rebuilt by the lead) against the fake
 * GitHub on 127.0.0.1, and the built CLI.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runAction, sourceCheckout, workspace } from './helpers/action-run.ts';
import { besideScratch, runCli, tempFolder } from './helpers/cli.ts';
import { startGitHubServer, type GitHubServer } from './helpers/github-server.ts';
import { jsonlProject } from './helpers/in-process.ts';

/** The spool folders in `dir`. */
function spools(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.startsWith('evalgate-spool-'));
}

/**
 * Case 1 is larger than a spool batch, so it is on disk as soon as it is recorded; case 2 says
 * which spool folders it sees then; case 3 ends the run as `EVAL_END` says.
 */
const FUNCTION = `import { readdirSync } from 'node:fs';
const spools = (dir) => readdirSync(dir).filter((name) => name.startsWith('evalgate-spool-'));
export default async ({ testCase }) => {
  if (testCase.n === '1') return 'x'.repeat(70000);
  if (testCase.n === '2') {
    return JSON.stringify({ runnerTemp: spools(process.env.RUNNER_TEMP), tmp: spools(process.env.TMPDIR) });
  }
  if (process.env.EVAL_END === 'error') throw new Error('failed on purpose');
  if (process.env.EVAL_END === 'signal') {
    process.kill(process.pid, 'SIGTERM');
    await new Promise((done) => setTimeout(done, 3000));
  }
  return 'x';
};
`;

const CONFIG = `version: 1
suites:
  - id: s
    testset: { path: rows.csv }
    function: ./fn.mjs
    concurrency: 1
`;

describe('the Action spools in RUNNER_TEMP', () => {
  let server: GitHubServer;
  before(async () => {
    server = await startGitHubServer();
  });
  after(() => server.close());

  for (const end of ['pass', 'error', 'signal'] as const) {
    it(`and removes the spool when the run ends with ${end}`, async () => {
      const ws = workspace(
        { 'evals.yaml': CONFIG, 'rows.csv': 'n\n1\n2\n3\n', 'fn.mjs': FUNCTION },
        'push',
      );
      const tmp = tempFolder('evalgate-test-tmp-');
      const run = await runAction(
        sourceCheckout(),
        ws,
        server,
        { 'check-run': 'false' },
        { TMPDIR: tmp, EVAL_END: end },
      );
      assert.equal(run.code, end === 'pass' ? 0 : 1, run.stdout + run.stderr);
      // runAction's RUNNER_TEMP.
      const runnerTemp = `${ws.dir}-runner-temp`;
      assert.deepEqual(spools(runnerTemp), [], 'RUNNER_TEMP: removed');
      assert.deepEqual(spools(tmp), [], 'TMPDIR: none');
      if (end === 'signal') return;
      const artifact = JSON.parse(readFileSync(join(ws.dir, 'evals-results.json'), 'utf8')) as {
        runs: { cases: { output: unknown }[] }[];
      };
      const seen = JSON.parse(String(artifact.runs[0]?.cases[1]?.output)) as {
        runnerTemp: string[];
        tmp: string[];
      };
      assert.equal(seen.runnerTemp.length, 1, 'the spool was in RUNNER_TEMP');
      assert.deepEqual(seen.tmp, [], 'not in TMPDIR');
    });
  }
});

describe('evals merge spools in RUNNER_TEMP', () => {
  async function shards(): Promise<string> {
    const rows = ['a', 'b', 'c', 'd'].map((id) => ({ id, output: 'x' }));
    const dir = jsonlProject(rows, [
      'hash: [id]',
      'evaluators:',
      '  - { use: is-equals, with: { expected: x } }',
    ]);
    for (const n of [1, 2]) {
      const r = await runCli(['run', '--shard', `${n}/2`, '-o', `${n}.json`], { cwd: dir });
      assert.equal(r.code, 0, r.stdout + r.stderr);
    }
    return dir;
  }

  it('and not in the system temporary folder, which it leaves alone', async () => {
    const dir = await shards();
    // A file where a folder should be: the spool there cannot be written, and the run says where.
    const notAFolder = besideScratch(dir, 'not-a-folder');
    writeFileSync(notAFolder, '');
    const runnerTemp = tempFolder('evalgate-test-runner-temp-');

    const there = await runCli(['merge', '1.json', '2.json', '-o', 'a.json'], {
      cwd: dir,
      env: { RUNNER_TEMP: notAFolder },
    });
    assert.equal(there.code, 0, there.stdout + there.stderr);
    assert.match(there.stderr, new RegExp(`the case spool in ${notAFolder} could not be written`));

    const elsewhere = await runCli(['merge', '1.json', '2.json', '-o', 'b.json'], {
      cwd: dir,
      env: { RUNNER_TEMP: runnerTemp, TMPDIR: notAFolder },
    });
    assert.equal(elsewhere.code, 0, elsewhere.stdout + elsewhere.stderr);
    assert.doesNotMatch(elsewhere.stderr, /could not be written/);
    assert.deepEqual(spools(runnerTemp), [], 'removed');
  });
});
