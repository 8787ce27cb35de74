/**
 * An http target whose `output:` path led to `null` (`{ "answer": null, "detail": "…" }`, how
 * many APIs say they have no answer) scored null as the output, which passes every check that
 * something is not there (`not: true` on a regex, a maximum length): a false pass. So did a JSON
 * body that is `null` as a whole, with no `output:`. Each is a case error now, naming the path
 * and quoting the answer, scrubbed before it is cut short. The real CLI against a loopback server.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.ts';
import { artifactCases, jsonlProject } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

const KEY = 'sk-live-ABCDEFGH12345678';

const server = useLoopbackServer((req, res) => {
  req.resume().on('end', () => {
    const body =
      req.url === '/whole'
        ? 'null'
        : JSON.stringify({
            data: { answer: null },
            detail: `upstream failed with key ${KEY} ${'x'.repeat(600)}`,
          });
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
});

/** The run's one case error, after checking that the run failed. */
async function caseError(target: string): Promise<{ error: string; stdout: string }> {
  const dir = jsonlProject(
    [{ q: 'x' }],
    [
      `target: { type: http, ${target}, maxRetries: 0 }`,
      'evaluators:',
      // Passes on anything that does not say sorry: null included, were it scored.
      '  - { use: regex, with: { pattern: sorry }, not: true }',
    ],
  );
  const r = await runCli(['run', '-o', 'results.json'], {
    cwd: dir,
    env: { OPENAI_API_KEY: KEY },
  });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  return { error: artifactCases(dir)[0]!.cases[0]!.error ?? '', stdout: r.stdout + r.stderr };
}

describe('an http answer with null where the output should be', () => {
  it('output: data.answer resolving to null is a case error naming the path', async () => {
    const { error, stdout } = await caseError(`url: "${server.base}/path", output: data.answer`);
    assert.match(
      error,
      /^the answer's data\.answer is null \(output: data\.answer\), so there is no output to score: \{"data":\{"answer":null\},"detail":"upstream failed with key \[redacted\] x+ … x+"\}$/,
    );
    assert.ok(!error.includes(KEY) && !stdout.includes(KEY), 'the key is scrubbed');
  });

  it('a JSON body of null, with no output:, is a case error', async () => {
    const { error } = await caseError(`url: "${server.base}/whole"`);
    assert.match(
      error,
      /^GET http:\/\/127\.0\.0\.1:\d+\/whole answered 200 with the JSON body null: no output to score$/,
    );
  });
});
