/**
 * A command target's `env:` values under secret-looking names are secrets: evalgate sets them
 * for the child, which may print them, and nothing evalgate writes may hold them. Real
 * processes (`sh -c`), the real CLI in this process, every output checked.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

const RAW_KEY = 'rawkeyvalue99999';
const DB_PASSWORD = 'dbpassword-4455667788';
const CASE_VALUE = 'case-token-value-123';

type Output = 'terminal' | 'show' | 'artifact' | 'junit' | 'html';

/** Runs `evals run` (artifact, JUnit, HTML report) and `evals show` in `dir`; every output. */
async function everyOutput(
  dir: string,
  env: Record<string, string>,
): Promise<{ code: number; outputs: Record<Output, string> }> {
  const run = await runInProcess(
    ['run', '-o', 'results.json', '--junit', 'junit.xml', '--report', 'report.html'],
    dir,
    env,
  );
  const show = await runInProcess(['show', 'results.json'], dir, env);
  const failed = await runInProcess(['show', 'results.json', '--failed'], dir, env);
  return {
    code: run.code,
    outputs: {
      terminal: run.stdout + run.stderr,
      show: show.stdout + show.stderr + failed.stdout + failed.stderr,
      artifact: readFileSync(join(dir, 'results.json'), 'utf8'),
      junit: readFileSync(join(dir, 'junit.xml'), 'utf8'),
      html: readFileSync(join(dir, 'report.html'), 'utf8'),
    },
  };
}

describe("a command target's env: values", () => {
  it('under a secret name are scrubbed from stdout and stderr everywhere', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'evals.yaml': [
        'version: 1',
        'suites:',
        '  - id: stdout-key',
        '    testset: { cases: [ { q: x } ] }',
        `    target: { type: command, run: [sh, -c, 'echo "cfg: $OPENAI_API_KEY"'], env: { OPENAI_API_KEY: "\${RAWK}" } }`,
        '    evaluators: [{ use: contains, with: { values: [nothing-like-this] } }]',
        '  - id: stderr-password',
        '    testset: { cases: [ { q: x } ] }',
        `    target: { type: command, run: [sh, -c, 'echo "db: $DB_PASSWORD" >&2; exit 3'], env: { DB_PASSWORD: "\${DBPW}" } }`,
        '',
      ].join('\n'),
    });
    // RAWK and DBPW do not look secret by name: the names under env: do.
    const { code, outputs } = await everyOutput(dir, { RAWK: RAW_KEY, DBPW: DB_PASSWORD });
    assert.equal(code, 1, outputs.terminal);
    // The program did print them: what shows is the redaction.
    assert.match(outputs.artifact, /cfg: \[redacted\]/);
    assert.match(outputs.artifact, /db: \[redacted\]/);
    for (const [where, text] of Object.entries(outputs)) {
      assert.ok(!text.includes(RAW_KEY), `${where} holds the OPENAI_API_KEY value`);
      assert.ok(!text.includes(DB_PASSWORD), `${where} holds the DB_PASSWORD value`);
    }
  });

  it('under a plain name, or a template resolved per case, are not secrets', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'evals.yaml': [
        'version: 1',
        'suites:',
        '  - id: plain',
        `    testset: { cases: [ { q: "${CASE_VALUE}" } ] }`,
        `    target: { type: command, run: [sh, -c, 'echo "$GREETING / $CASE_TOKEN"'], env: { GREETING: "hello-everyone-here", CASE_TOKEN: "{{case.q}}" } }`,
        '',
      ].join('\n'),
    });
    const { code, outputs } = await everyOutput(dir, {});
    assert.equal(code, 0, outputs.terminal);
    assert.match(outputs.artifact, new RegExp(`hello-everyone-here / ${CASE_VALUE}`));
  });
});
