/**
 * The GitHub Action end to end outside a pull request's first run: on push, `mode: report` on a
 * workflow_run, `fail-on`, results it cannot write, masked variables, a bad config, and
 * TypeScript. The committed dist/index.js, copied where a runner would check the action out (no
 * node_modules beside it), runs as a child process with the runner's environment against a
 * GitHub REST API server on 127.0.0.1 (`helpers/action-run.ts`).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { useActionFixture } from './helpers/action-fixture.ts';
import {
  MERGE_SHA,
  ONE_FAILING,
  suiteFiles,
  workspace,
  type Workspace,
} from './helpers/action-run.ts';
import { repoRoot, writeFiles } from './helpers/cli.ts';

describe('the Action elsewhere', () => {
  const fixture = useActionFixture();

  it('on push: no comment, but a check run on GITHUB_SHA and the summary', async () => {
    const ws = workspace(suiteFiles(ONE_FAILING.slice(0, 2)), 'push');
    const r = await fixture.run(ws);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fixture.server.state.comments.size, 0);
    assert.equal([...fixture.server.state.checkRuns.values()].at(-1)?.head_sha, MERGE_SHA);
    assert.match(r.summary, /evals: evals\.yaml/);
  });

  /** A workspace holding the artifact of an earlier job that posted nothing (for `mode: report`). */
  async function producedArtifact(): Promise<Workspace> {
    const ws = workspace(suiteFiles(ONE_FAILING), 'push');
    const produced = await fixture.run(ws, {
      comment: 'false',
      'check-run': 'false',
      'fail-on': 'never',
    });
    assert.equal(produced.code, 0, produced.stderr);
    return ws;
  }

  it("mode: report publishes an earlier job's artifact on a workflow_run, running nothing", async () => {
    const ws = await producedArtifact();
    // The privileged job: the function file is gone, so anything that ran it would fail.
    writeFiles(ws.dir, { 'app/answer.mjs': 'throw new Error("must not run");\n' });
    const before = fixture.server.requests.length;
    const reported = await fixture.run(ws, {
      mode: 'report',
      'pr-number': '9',
      'head-sha': 'd'.repeat(40),
    });
    assert.equal(reported.code, 1, `the reported verdict is fail\n${reported.stdout}`);
    assert.equal(fixture.server.state.comments.get(9)?.length, 1);
    assert.equal([...fixture.server.state.checkRuns.values()].at(-1)?.head_sha, 'd'.repeat(40));
    assert.ok(fixture.server.requests.length > before);
    assert.equal(reported.outputs.verdict, 'fail');
  });

  it('mode: report refuses an artifact with a bad case, saying where, in a failed check run and no comment', async () => {
    const ws = await producedArtifact();
    // Read a case at a time: the second case line is the one the schema rejects.
    const path = join(ws.dir, 'evals-results.json');
    const lines = readFileSync(path, 'utf8').split('\n');
    const second = lines.findIndex((line) => line.startsWith('        {')) + 1;
    lines[second] = lines[second]!.replace(/"passed":(true|false)/, '"passed":"no"');
    writeFileSync(path, lines.join('\n'));
    // A passed check run of the name left by an earlier test would be kept, not posted over
    // (action-refused-passed-check-run.test.ts): the commit starts without one.
    fixture.server.state.checkRuns.clear();
    const before = fixture.server.requests.length;
    const reported = await fixture.run(ws, { mode: 'report', 'pr-number': '9' });
    assert.equal(reported.code, 1);
    assert.match(
      reported.stdout,
      /^::error::evalgate \(mode: report\): evals-results\.json is not a results artifact of this evalgate: \/runs\/0\/cases\/1\/passed(?: \(line \d+, column \d+\))?: must be boolean/m,
    );
    assert.equal(reported.outputs.verdict, 'error');
    // An earlier report's comment is updated to say so; none is created.
    const writes = fixture.server.requests.slice(before).filter((q) => q.method === 'POST');
    assert.deepEqual(
      writes.map((q) => q.path),
      ['/repos/octo/repo/check-runs'],
      'a check run, no new comment',
    );
    const run = [...fixture.server.state.checkRuns.values()].at(-1);
    assert.equal(run?.conclusion, 'failure');
    assert.match(run?.output.summary ?? '', /\/runs\/0\/cases\/1\/passed/);
  });

  it('fail-on: never keeps the step green on a failing verdict', async () => {
    const ws = workspace(suiteFiles(ONE_FAILING), 'push');
    const r = await fixture.run(ws, { 'fail-on': 'never' });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.outputs.verdict, 'fail');
  });

  it('a results file that cannot be written after a passing run fails the step, and still reports', async () => {
    // The run makes the results path a folder once it is under way, past the check before it.
    const ws = workspace(
      suiteFiles(ONE_FAILING.slice(0, 2), {
        'app/answer.mjs': `import { mkdirSync } from 'node:fs';
export default ({ testCase }) => {
  mkdirSync('evals-results.json', { recursive: true });
  return testCase.answer;
};
`,
      }),
    );
    const before = fixture.server.state.comments.get(7)?.length ?? 0;
    const r = await fixture.run(ws, { 'fail-on': 'never' });
    assert.equal(r.code, 1, 'the step fails although the verdict passed and fail-on is never');
    assert.equal(r.outputs.verdict, 'pass');
    assert.match(r.stderr + r.stdout, /evals-results\.json could not be written \(EISDIR/);
    assert.match(
      r.stdout,
      /^::error::evals: the run finished but \S*evals-results\.json could not be written: its complete results are kept at \S+\.tmp/m,
    );
    assert.equal(
      fixture.server.state.comments.get(7)?.length ?? 0,
      Math.max(before, 1),
      'the comment went out',
    );
  });

  it('masks the environment variables the config reads', async () => {
    const files = suiteFiles(ONE_FAILING.slice(0, 2));
    files['evals.yaml'] =
      files['evals.yaml']?.replace('- id: qa', '- id: ${SUITE_PREFIX:-qa}') ?? '';
    const ws = workspace(files, 'push');
    const r = await fixture.run(ws, {}, { SUITE_PREFIX: 'sk-secret-value-123' });
    assert.match(r.stdout, /^::add-mask::sk-secret-value-123$/m);
  });

  it('a bad config without a check run fails the step with an annotation at its line, and nothing runs', async () => {
    const files = suiteFiles(ONE_FAILING);
    files['evals.yaml'] =
      'version: 1\nsuites:\n  - id: qa\n    testset: { path: testsets/qa.csv }\n    evaluators:\n      - { id: e, use: is-equal }\n';
    const ws = workspace(files, 'push');
    // With a check run, its annotation is the one at the line (action-config-error-check-run).
    const r = await fixture.run(ws, { 'check-run': 'false' });
    assert.equal(r.code, 1);
    assert.match(
      r.stdout,
      /^::error title=evalgate%3A invalid input,file=evals\.yaml,line=6,col=\d+::.*unknown evaluator "is-equal"/m,
    );
    assert.equal(r.outputs.verdict, 'error');
    assert.equal(existsSync(join(ws.dir, 'evals-results.json')), false);
  });

  it('loads TypeScript with the tsx of the workspace, and says what to install when there is none', async () => {
    const ts: Record<string, string> = {
      ...suiteFiles(ONE_FAILING.slice(0, 2)),
      'app/answer.ts':
        'export default ({ testCase }: { testCase: { answer: string } }): string => testCase.answer;\n',
    };
    ts['evals.yaml'] = ts['evals.yaml']?.replace('./app/answer.mjs', './app/answer.ts') ?? '';
    const missing = workspace(ts, 'push');
    const noTsx = await fixture.run(missing);
    assert.equal(noTsx.code, 1);
    assert.match(noTsx.stdout, /needs tsx.*npm i -D evalgate/);

    const withTsx = workspace(ts, 'push');
    // As after `npm ci` in a project that has evalgate as a devDependency.
    symlinkSync(join(repoRoot, 'node_modules'), join(withTsx.dir, 'node_modules'), 'dir');
    const r = await fixture.run(withTsx);
    assert.equal(r.code, 0, `${r.stdout}${r.stderr}`);
    assert.equal(r.outputs.passed, '2');
  });
});
