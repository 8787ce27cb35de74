/**
 * A server that is down, under a short suite timeout: the retries' backoff runs past the limit,
 * and the case error must still say what happened (connection refused), not only that time ran
 * out. The http target, the model target and an LLM judge, against a loopback port on which
 * nothing listens.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';

let closedUrl = '';

/** A port that was just free: bound, then closed, so a connection to it is refused. */
before(async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  closedUrl = `http://127.0.0.1:${port}`;
});

/** Enough retries that the backoff certainly outlasts a 1 s limit. */
const MANY_RETRIES = '  maxRetries: 10';

function assertRefusedWithinTimeout(error: string | undefined): void {
  assert.ok(error !== undefined);
  assert.match(error, /^timed out after 1000 ms while retrying/, error);
  assert.match(error, /ECONNREFUSED/, error);
  assert.match(error, /after \d+ failed attempts/, error);
}

async function runOne(dir: string): Promise<{ stdout: string; junit: string }> {
  const run = await runInProcess(['run', '-o', 'results.json', '--junit', 'junit.xml'], dir, {
    COLUMNS: '200',
    OPENAI_API_KEY: 'sk-test',
  });
  assert.equal(run.code, 1, run.stdout + run.stderr);
  return { stdout: run.stdout, junit: readFileSync(join(dir, 'junit.xml'), 'utf8') };
}

describe('a refused connection under a short timeout', () => {
  it('the http target says the connection was refused, and that time ran out', async () => {
    const dir = jsonlProject(
      [{ q: 'x' }],
      ['target:', '  type: http', `  url: ${closedUrl}/x`, MANY_RETRIES],
      {},
      ['defaults: { timeout: 1s }'],
    );
    const { stdout, junit } = await runOne(dir);
    assertRefusedWithinTimeout(artifactCases(dir)[0]!.cases[0]!.error);
    assert.match(stdout, /timed out after 1000 ms while retrying.*ECONNREFUSED/);
    assert.match(
      junit,
      /<error message="[^"]*timed out after 1000 ms while retrying[^"]*ECONNREFUSED/,
    );
  });

  it('the model target says the same', async () => {
    const dir = jsonlProject(
      [{ q: 'x' }],
      [
        'target:',
        '  type: model',
        '  model: m',
        '  prompt: "{{ case.q }}"',
        `  baseUrl: ${closedUrl}/v1`,
        MANY_RETRIES,
      ],
      {},
      ['defaults: { timeout: 1s }'],
    );
    await runOne(dir);
    assertRefusedWithinTimeout(artifactCases(dir)[0]!.cases[0]!.error);
  });

  it('an LLM judge says the same in its evaluation error', async () => {
    const dir = jsonlProject(
      [{ q: 'x', output: 'y' }],
      [
        'evaluators:',
        '  - use: llm-judge',
        `    judge: { model: m, baseUrl: "${closedUrl}/v1", maxRetries: 10 }`,
        '    with: { prompt: "Is {{ output }} good?", choices: { "yes": 1, "no": 0 } }',
      ],
      {},
      ['defaults: { timeout: 1s }'],
    );
    await runOne(dir);
    const evaluation = artifactCases(dir)[0]!.cases[0]!.evaluations[0]!;
    assertRefusedWithinTimeout(evaluation.error ?? undefined);
  });

  it('with time to spare, retries end with the refused connection itself', async () => {
    const dir = jsonlProject(
      [{ q: 'x' }],
      ['target:', '  type: http', `  url: ${closedUrl}/x`, '  maxRetries: 1'],
      {},
      ['defaults: { timeout: 30s }'],
    );
    await runOne(dir);
    const error = artifactCases(dir)[0]!.cases[0]!.error!;
    assert.match(error, /failed \(ECONNREFUSED\)/);
    assert.doesNotMatch(error, /timed out/);
  });
});
