/**
 * A model target with `responseFormat: json` whose reply was `null`, and a command target with
 * `output: json` whose program printed `null`, scored null as the output: it passes every check
 * that something is not there (`not: true` on a regex), a false pass, as an http target's
 * `output:` path to a null did (http-output-null). Each is a case error now. The real CLI, with a
 * loopback model server and a real program.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.ts';
import { artifactCases, jsonlProject } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

const server = useLoopbackServer((req, res) => {
  req.resume().on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        choices: [
          { index: 0, message: { role: 'assistant', content: 'null' }, finish_reason: 'stop' },
        ],
        usage: { prompt_tokens: 1, completion_tokens: 1 },
      }),
    );
  });
});

/** Runs a suite of one case with `target` (YAML lines), failing; its case error. */
async function caseError(target: string[], files: Record<string, string> = {}): Promise<string> {
  const dir = jsonlProject(
    [{ q: 'x' }],
    [
      ...target,
      'evaluators:',
      // Passes on anything that does not say sorry: null included, were it scored.
      '  - { use: regex, with: { pattern: sorry }, not: true }',
    ],
    files,
  );
  const r = await runCli(['run', '-o', 'results.json', '--no-cache'], { cwd: dir });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  return artifactCases(dir)[0]!.cases[0]!.error ?? '';
}

describe('JSON null as the output of a target', () => {
  it('a model reply of null (responseFormat: json) is a case error', async () => {
    const error = await caseError([
      'target:',
      '  type: model',
      '  model: m',
      `  baseUrl: ${server.base}/v1`,
      '  responseFormat: json',
      '  prompt: "{{ case.q }}"',
    ]);
    assert.equal(error, "the model's reply is the JSON null: no output to score");
  });

  it('a command printing null (output: json) is a case error', async () => {
    const error = await caseError(
      ['target: { type: command, run: [node, print-null.mjs], output: json }'],
      { 'print-null.mjs': "process.stdout.write('null\\n');\n" },
    );
    assert.equal(error, 'stdout is the JSON null (output: json): no output to score');
  });
});
