/**
 * `BaseAutomaticBattle` under `runTestSuite` recorded a missing baselines file on every run, in
 * CI too, where the file stays on the runner: each case tied with itself and passed, run after
 * run, judging nothing. As `evals run` does (battle-first-run-in-ci), a run with `CI` set now
 * records nothing unless given `updateBaselines: true`: each case is an error that says so. A
 * user's script in a real child process, against a loopback judge.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './helpers/cli.ts';
import { sdkScript } from './helpers/sdk-script.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

const FILE = join('battles', 's', 'vs.json');

const TESTING = JSON.stringify(pathToFileURL(join(repoRoot, 'src', 'testing.ts')).href);

/**
 * A script battling two echoed outputs; `extra` is more of runTestSuite's arguments, and
 * `UPDATE=1` in its environment passes `updateBaselines: true`.
 */
function battleScript(extra = ''): ReturnType<typeof sdkScript> {
  return sdkScript(
    [
      `import { BaseAutomaticBattle } from ${TESTING};`,
      'class Vs extends BaseAutomaticBattle {',
      "  id = 'vs';",
      '  outputMapper({ output }) { return output; }',
      '}',
      'const result = await runTestSuite({',
      "  id: 's',",
      "  testCases: [{ q: 'a' }, { q: 'b' }],",
      "  testCaseHash: ['q'],",
      '  fn: ({ testCase }) => testCase.q,',
      '  evaluators: [new Vs()],',
      "  output: 'out.json',",
      '  quiet: true,',
      "  ...(process.env.UPDATE === '1' ? { updateBaselines: true } : {}),",
      `  ${extra}`,
      '});',
      'console.log(JSON.stringify(result.runs[0].cases.map((c) => c.evaluations[0])));',
      '',
    ].join('\n'),
  );
}

/** Runs `script` with the loopback judge and `env`; the first evaluation of each case. */
async function run(
  script: ReturnType<typeof sdkScript>,
  env: Record<string, string>,
): Promise<{ code: number | null; evaluations: { score: number | null; error: string | null }[] }> {
  const r = await script.run({
    env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-test', ...env },
  });
  assert.equal(r.stderr, '', r.stderr);
  return { code: r.code, evaluations: JSON.parse(r.stdout) as never };
}

describe('runTestSuite: an automatic battle without a baselines file', () => {
  it('in CI: every case errors, saying how to record, no file is written and the run fails', async () => {
    const script = battleScript();
    const { code, evaluations } = await run(script, { CI: 'true' });
    assert.equal(code, 1);
    assert.deepEqual(
      evaluations.map((e) => [e.score, e.error]),
      [1, 2].map(() => [
        null,
        `no baseline for this case: ${FILE} does not exist, and a run in CI (CI=true) does not record it; pass updateBaselines: true to runTestSuite(s) and commit the file`,
      ]),
    );
    assert.equal(existsSync(join(script.dir, FILE)), false);
    assert.equal(server.requests.length, 0, 'nothing to battle');
  });

  it('in CI with updateBaselines: true, recorded as asked; the next run in CI battles against it', async () => {
    const script = battleScript();
    const first = await run(script, { CI: 'true', UPDATE: '1' });
    // Recorded, not battled (as in the SDK): a suite of one battle judged nothing yet, and passes.
    assert.equal(first.code, 0);
    assert.deepEqual(first.evaluations, [null, null]);
    const file = JSON.parse(readFileSync(join(script.dir, FILE), 'utf8')) as {
      baselines: Record<string, { output: unknown }>;
    };
    assert.deepEqual(
      Object.values(file.baselines)
        .map((b) => b.output)
        .sort(),
      ['a', 'b'],
    );
    const second = await run(script, { CI: 'true' });
    assert.equal(second.code, 0);
    assert.deepEqual(
      second.evaluations.map((e) => e.error),
      [null, null],
    );
    assert.equal(server.requests.length, 4, 'each case judged, in both orders');
  });

  it('outside CI, the first run records each case and gives it no evaluation, as the SDK does', async () => {
    const script = battleScript();
    const { code, evaluations } = await run(script, { CI: '' });
    // Not a tie with itself: no evaluation; the run passes, its `judged` saying why nothing was.
    assert.equal(code, 0);
    assert.deepEqual(evaluations, [null, null]);
    assert.ok(existsSync(join(script.dir, FILE)));
    assert.equal(server.requests.length, 0, 'nothing to battle');
  });

  it('outside CI, the first run says what it recorded and that the next run battles it', async () => {
    const script = battleScript('quiet: false,');
    const r = await script.run({
      env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-test', CI: '' },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(
      r.stderr.includes(
        `note: runTestSuite(s): vs recorded the first baseline of 2 cases in ${FILE}; a case whose baseline this run recorded was not battled (nothing to compare it with yet, as in the Autoblocks SDK): commit the file, and the next run battles it\n`,
      ),
      r.stderr,
    );
    // The summary says nothing was judged yet, in place of a warning that vs skipped every case.
    assert.match(
      r.stdout + r.stderr,
      /note: judged: expected at least 1 case evaluated, got baselines recorded for 2 cases; nothing judged yet/,
    );
    assert.doesNotMatch(r.stdout + r.stderr, /skipped every one/);
  });

  it('updateBaselines that is not a boolean is refused before any case', async () => {
    const script = battleScript("updateBaselines: 'false',");
    const r = await script.run({ env: { CI: 'true' } });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /updateBaselines must be true or false, got "false"/);
  });
});
