/**
 * No secret reaches the terminal outside a run's results either (docs/config.md#secrets): not
 * in the plan `evals run --dry-run` prints (a command's argv, an HTTP URL), and not in the
 * problems `validate`, `run` and `run --dry-run` refuse a config with, nor in those the Action
 * annotates (the UsageError `executeRun` throws), even when the config fails to load.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { executeRun } from '../src/pipeline/run.ts';
import { UsageError } from '../src/shared/errors.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const API_TOKEN = 'apitoken-QQQQ1111';
const SERVICE_TOKEN = 'svctoken-WWWW2222';
const ENV = { API_TOKEN, MY_SERVICE_TOKEN: SERVICE_TOKEN };
const ROWS = [{ q: 'a' }];

/** `text` holds none of the secrets, nor a start of one a cut could leave. */
function assertClean(text: string, what: string): void {
  for (const secret of [API_TOKEN, SERVICE_TOKEN, '123456789012']) {
    assert.equal(text.includes(secret.slice(0, 8)), false, `${what} shows ${secret}:\n${text}`);
  }
}

/** `validate`, `run` and `run --dry-run` in `dir`, each refusing it with `pattern`, secret-free. */
async function refusedClean(dir: string, pattern: RegExp, env: Record<string, string>) {
  for (const argv of [['validate'], ['run', '-o', 'out.json'], ['run', '--dry-run']]) {
    const r = await runInProcess(argv, dir, env);
    assert.equal(r.code, 2, `${argv.join(' ')}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, pattern, argv.join(' '));
    assert.match(r.stderr, /\[redacted\]/, argv.join(' '));
    assertClean(r.stdout + r.stderr, `evals ${argv.join(' ')}`);
  }
}

describe('secrets outside runs', () => {
  it("the dry run's plan shows a command's argv and an HTTP URL without secrets", async () => {
    const dir = jsonlProject(ROWS, [
      'target: { type: command, run: [sh, -c, "true", "Authorization: Bearer ${API_TOKEN}"] }',
    ]);
    const command = await runInProcess(['run', '--dry-run'], dir, ENV);
    assert.equal(command.code, 0, command.stderr);
    assert.match(command.stdout, /^s: command sh -c true Authorization: Bearer \[redacted\]/m);
    assert.match(command.stdout, /not counted: the command .*\[redacted\]/);
    assertClean(command.stdout + command.stderr, 'the plan of a command');

    const http = jsonlProject(ROWS, [
      'target: { type: http, method: GET, url: "http://127.0.0.1:8/${MY_SERVICE_TOKEN}/x" }',
    ]);
    const r = await runInProcess(['run', '--dry-run'], http, ENV);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^s: GET http:\/\/127\.0\.0\.1:8\/\[redacted\]\/x/m);
    assertClean(r.stdout + r.stderr, 'the plan of an HTTP target');
  });

  it("the dry run's plan cuts a command line within a secret's first characters keeping none", async () => {
    // The line is cut at 59 characters: `echo ` and 49 to 54 of padding leave 5 to 0 characters
    // of the secret before the cut, too few for a scrub after it to know them.
    for (let pad = 49; pad <= 54; pad++) {
      const dir = jsonlProject(ROWS, [
        `target: { type: command, shell: true, run: "echo ${'p'.repeat(pad)}\${API_TOKEN}" }`,
        'evaluators: [ { use: is-equals, with: { expected: x } } ]',
      ]);
      const r = await runInProcess(['run', '--dry-run'], dir, ENV);
      assert.equal(r.code, 0, r.stderr);
      const cut = new RegExp(`command echo p{${pad}}(.*?)\u2026`).exec(r.stdout);
      assert.ok(cut, r.stdout);
      assert.ok('[redacted]'.startsWith(cut[1]!), `padding ${pad}: ${cut[0]}`);
    }
  });

  it("the dry run's plan shows a grid value that is a secret as [redacted]", async () => {
    const dir = jsonlProject(ROWS, [
      'grid: { token: ["${API_TOKEN}", "${MY_SERVICE_TOKEN}-and-more-${API_TOKEN}"] }',
      'target: { type: command, run: [echo, "{{params.token}}"] }',
    ]);
    const r = await runInProcess(['run', '--dry-run'], dir, ENV);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /token=\[redacted\]/);
    assert.match(r.stdout, /2 grid points/);
    assertClean(r.stdout + r.stderr, 'the plan of a grid');
  });

  it('a problem quoting a URL built from a secret', async () => {
    const dir = jsonlProject(ROWS, ['target: { type: http, url: "${MY_SERVICE_TOKEN}/x" }']);
    await refusedClean(dir, /target\.url: expected an http:\/\/ or https:\/\/ URL/, ENV);
  });

  it('a problem quoting a value cut short inside a secret', async () => {
    // describeValue cuts a quoted value at 80 characters: the secret straddles the cut.
    const dir = jsonlProject(ROWS, [
      `evaluators: [ { use: is-equals, with: { expected: x, ignoreCase: "${'p'.repeat(66)}\${API_TOKEN}" } } ]`,
    ]);
    await refusedClean(dir, /ignoreCase: expected a boolean.*, found "p{66}\[redacted\]"/, ENV);
  });

  it('a problem quoting a value cut within the first characters of a secret keeps none of them', async () => {
    // 73 to 78 characters of padding leave 5 to 0 characters of the secret before the cut at 80:
    // too few for a scrub after the cut to know them, so the value is scrubbed before it.
    const plain = 'Zq7Xw9Lm2Np4Rt6V';
    for (let pad = 73; pad <= 78; pad++) {
      const dir = jsonlProject(
        ROWS,
        ['function: ./fn.mjs#fn', 'evaluators: [ { use: is-equals, with: { expected: x } } ]'],
        {},
        [
          'defaults:',
          `  judge: { model: m, apiKey: "\${PLAIN}", headers: "${'p'.repeat(pad)}\${PLAIN}" }`,
        ],
      );
      const r = await runInProcess(['validate'], dir, { ...ENV, PLAIN: plain });
      assert.equal(r.code, 2, r.stdout + r.stderr);
      const quoted = new RegExp(`headers: expected object, found "p{${pad}}(.*?)…`).exec(r.stderr);
      assert.ok(quoted, r.stderr);
      // What follows the padding is the start of [redacted], never of the key.
      assert.ok('[redacted]'.startsWith(quoted[1]!), `padding ${pad}: ${quoted[0]}`);
    }
  });

  it('a duplicate identity quoting a hash: field cut within the first characters of a secret keeps none of them', async () => {
    // The field's value is cut at 60 characters: 54 to 59 of padding (and its quote) leave 5 to 0
    // characters of the secret before the cut, too few for a scrub after it to know them.
    for (let pad = 54; pad <= 59; pad++) {
      const q = `${'p'.repeat(pad)}${SERVICE_TOKEN}`;
      const dir = jsonlProject(
        [
          { q, n: 1 },
          { q, n: 2 },
        ],
        [
          'hash: [q]',
          'function: ./fn.mjs#fn',
          'evaluators: [ { use: is-equals, with: { expected: x } } ]',
        ],
      );
      const r = await runInProcess(['validate'], dir, ENV);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      const quoted = new RegExp(`hash: fields, q "p{${pad}}(.*?)…`).exec(r.stderr);
      assert.ok(quoted, r.stderr);
      assert.ok('[redacted]'.startsWith(quoted[1]!), `padding ${pad}: ${quoted[0]}`);
    }
  });

  it('problems of a config that fails to load: a regex and a key from the environment', async () => {
    const dir = jsonlProject(ROWS, [
      'target:',
      '  type: model',
      '  model: m',
      // Not a secret-looking name: the value is a secret because it is the key.
      '  apiKey: ${RAW_NUMBER}',
      '  prompt: "{{case.q}}"',
      'evaluators:',
      '  - use: regex',
      '    with: { pattern: "${API_TOKEN}(" }',
    ]);
    const env = { ...ENV, RAW_NUMBER: '123456789012' };
    await refusedClean(dir, /with\.pattern: Invalid regular expression/, env);
    await refusedClean(dir, /target\.apiKey: expected string/, env);
  });

  it("the Action's path: the UsageError executeRun throws holds no secret", async () => {
    const dir = jsonlProject(ROWS, ['target: { type: http, url: "${MY_SERVICE_TOKEN}/x" }']);
    const quiet = { write: () => true };
    const error: unknown = await executeRun(
      { output: join(dir, 'out.json'), filters: {} },
      { cwd: dir, env: { ...process.env, ...ENV }, stdout: quiet, stderr: quiet },
    ).then(
      () => assert.fail('the run should be refused'),
      (thrown: unknown) => thrown,
    );
    assert.ok(error instanceof UsageError, String(error));
    assert.match(error.message, /\[redacted\]/);
    assertClean(JSON.stringify(error.issues) + error.message, 'the UsageError');
  });
});
