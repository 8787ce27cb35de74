/**
 * QA8 (the Action's secrets): every value the Action masks in the log (each `${VAR}` its config
 * reads, and the token) is also scrubbed from what it writes and posts (H3), by one rule that
 * leaves short values and the runner's public variables alone; and the program under test does
 * not get the Action's inputs, the write-scoped token among them, in its environment (M3).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { scrubbedResults } from '../src/action/main.ts';
import { evalEnvironment, maskReferencedSecrets } from '../src/action/run-evals.ts';
import type { EvalResults } from '../src/action/run-evals.ts';
import { actionSecrets, envValuesRead } from '../src/config/secrets.ts';
import { createScrubber, REDACTED } from '../src/shared/secrets.ts';
import { reported } from './helpers/cases.ts';
import { scratch, writeFiles } from './helpers/cli.ts';
import { useActionFixture } from './helpers/action-fixture.ts';
import { suiteFiles, workspace, DEPLOY_PAT_CONFIG } from './helpers/action-run.ts';
import { fixtureRuns } from './report-fixture.ts';
import { artifactOf } from './report-fixture-large.ts';

/** The workflow commands `work` writes to stdout (`::add-mask::…`), and its result. */
async function stdoutOf<T>(work: () => Promise<T>): Promise<{ out: string; value: T }> {
  const write = process.stdout.write.bind(process.stdout);
  let out = '';
  // Only workflow commands are kept back: the test runner's own output goes through.
  process.stdout.write = (chunk: string | Uint8Array, ...rest: never[]) => {
    if (typeof chunk !== 'string' || !chunk.startsWith('::')) return write(chunk, ...rest);
    out += chunk;
    return true;
  };
  try {
    return { value: await work(), out };
  } finally {
    process.stdout.write = write;
  }
}

describe('the values a config reads from the environment (H3)', () => {
  it('are those of ${VAR} in string values, not in keys, comments or $${ escapes, nor unset or defaulted', () => {
    const text = [
      '# ${IN_COMMENT}',
      'a: "${DEPLOY_PAT}"',
      '${AS_KEY}: 1',
      'b:',
      '  - "x-$${ESCAPED}"',
      '  - ["${UNSET:-fallback}", "${EMPTY:-other}", "${SET_TOO:-d}"]',
    ].join('\n');
    const env = {
      IN_COMMENT: 'comment-value-1',
      DEPLOY_PAT: 'ghp_DeployPatValue123',
      AS_KEY: 'key-value-123',
      ESCAPED: 'escaped-value-1',
      EMPTY: '',
      SET_TOO: 'set-too-value',
    };
    assert.deepEqual(
      [...envValuesRead(text, env)],
      [
        ['DEPLOY_PAT', 'ghp_DeployPatValue123'],
        ['SET_TOO', 'set-too-value'],
      ],
    );
  });

  it('count as secrets whatever their names, but for short values and the runner’s public variables', () => {
    const read = new Map([
      ['DEPLOY_PAT', 'ghp_DeployPatValue123'],
      ['CONCURRENCY', '4'],
      ['PROVIDER', 'ollama'],
      ['GITHUB_REPOSITORY', 'octo/repository'],
      ['RUNNER_TEMP', '/home/runner/work/_temp'],
      ['HOME', '/home/runner'],
      ['GITHUB_TOKEN', 'ghs_InstallationToken'],
    ]);
    assert.deepEqual(actionSecrets(read), ['ghp_DeployPatValue123', 'ghs_InstallationToken']);
  });

  it('are masked in the log and scrubbed from what the Action writes, by one rule', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'evals.yaml': 'target:\n  env:\n    DEPLOY_PAT: "${DEPLOY_PAT}"\n    N: "${CONCURRENCY}"\n',
    });
    const pat = 'ghp_MaskedAndScrubbed12345';
    const { out, value } = await stdoutOf(() =>
      maskReferencedSecrets(join(dir, 'evals.yaml'), { DEPLOY_PAT: pat, CONCURRENCY: '4' }),
    );
    assert.deepEqual(value, [pat]);
    assert.match(out, new RegExp(`::add-mask::${pat}`));
    // A `4` masked would turn every 4 of the log into ***.
    assert.doesNotMatch(out, /::add-mask::4\b/);
    // Every scrubber made afterwards (the run's, the reports') removes it.
    assert.equal(createScrubber([]).text(`using ${pat}`), `using ${REDACTED}`);
  });

  it('are scrubbed from an earlier job’s artifact in mode: report', async () => {
    const pat = 'ghp_ReportModeValue98765';
    await stdoutOf(async () => {
      const dir = scratch();
      writeFiles(dir, { 'evals.yaml': 'a: "${REPORT_PAT}"\n' });
      await maskReferencedSecrets(join(dir, 'evals.yaml'), { REPORT_PAT: pat });
    });
    const runs = fixtureRuns().map((run) => ({
      ...run,
      cases: run.cases.map((c) => ({ ...c, output: { answer: `key ${pat}` } })),
    }));
    const results: EvalResults = {
      artifact: reported(artifactOf(runs)),
      configPath: 'evals.yaml',
      sourceRoot: '',
      args: [],
    };
    const clean = scrubbedResults(results, createScrubber([]));
    const text = JSON.stringify(clean);
    assert.ok(!text.includes(pat));
    assert.ok(text.includes(`key ${REDACTED}`));
  });
});

describe('the environment the evals run with (M3)', () => {
  it('has none of the Action’s inputs, and the rest of the step’s environment', () => {
    const env = evalEnvironment({
      'INPUT_GITHUB-TOKEN': 'ghs_token',
      INPUT_CONFIG: 'evals.yaml',
      OPENAI_API_KEY: 'sk-key',
      PATH: '/usr/bin',
    });
    assert.deepEqual(env, { OPENAI_API_KEY: 'sk-key', PATH: '/usr/bin' });
  });

  it('has none of the runtime credentials a run: step never sees, but keeps OIDC', () => {
    const env = evalEnvironment({
      ACTIONS_RUNTIME_TOKEN: 'runtime',
      ACTIONS_RUNTIME_URL: 'https://pipelines.example/',
      ACTIONS_CACHE_URL: 'https://cache.example/',
      ACTIONS_RESULTS_URL: 'https://results.example/',
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'oidc',
      ACTIONS_ID_TOKEN_REQUEST_URL: 'https://oidc.example/',
    });
    assert.deepEqual(Object.keys(env), [
      'ACTIONS_ID_TOKEN_REQUEST_TOKEN',
      'ACTIONS_ID_TOKEN_REQUEST_URL',
    ]);
  });
});

describe('the Action end to end (H3, M3; dist/index.js)', () => {
  const fixture = useActionFixture();
  const PAT = 'ghp_DeployPatValue1234567890abcdef';
  const TOKEN = 'ghs_InstallationTokenValue123456';

  it('posts no value it masks, and the program under test gets no github-token', async () => {
    const ws = workspace({
      'evals.yaml': DEPLOY_PAT_CONFIG,
      'testsets/qa.csv': 'expected\nParis\n',
      'app/echo.mjs': `const inputs = Object.keys(process.env).filter((name) => /^INPUT_/i.test(name));
process.stdout.write('using ' + process.env.DEPLOY_PAT + ' token=' + (process.env['INPUT_GITHUB-TOKEN'] ?? 'none') + ' inputs=' + inputs.length);
`,
    });
    const run = await fixture.run(ws, { 'github-token': TOKEN }, { DEPLOY_PAT: PAT });
    assert.equal(run.outputs.verdict, 'fail', run.stdout + run.stderr);
    // Masked in the log.
    assert.match(run.stdout, new RegExp(`::add-mask::${PAT}`));
    const comment = [...fixture.server.state.comments.values()]
      .flat()
      .map((c) => c.body)
      .join('\n');
    const checkRuns = JSON.stringify([...fixture.server.state.checkRuns.values()]);
    const results = readFileSync(join(ws.dir, 'evals-results.json'), 'utf8');
    const posted = { comment, checkRuns, summary: run.summary, results };
    for (const [where, text] of Object.entries(posted)) {
      assert.ok(!text.includes(PAT), `${where} holds the value the log masks`);
      assert.ok(!text.includes(TOKEN), `${where} holds the token`);
    }
    // The program saw neither the token nor any other input.
    assert.match(results, /using \[redacted\] token=none inputs=0/);
  });

  it('leaves no input in process.env for a JS function, which runs in the Action', async () => {
    const ws = workspace(
      suiteFiles([{ expected: 'Paris', answer: '' }], {
        'app/answer.mjs': `export default () => 'inputs=' + Object.keys(process.env).filter((name) => /^INPUT_/i.test(name)).length;\n`,
      }),
    );
    const run = await fixture.run(ws, { 'github-token': TOKEN });
    assert.equal(run.outputs.verdict, 'fail', run.stdout + run.stderr);
    const results = readFileSync(join(ws.dir, 'evals-results.json'), 'utf8');
    assert.match(results, /"inputs=0"/);
  });
});
