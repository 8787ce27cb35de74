/**
 * A server that reports a fractional token count (`"prompt_tokens": 1.5`, a gateway's estimate
 * or garbage) had it taken as a count: the case's, the evaluation's and the run's `usage` held
 * 1.5, and the artifact no longer matched schemas/results.schema.json (`promptTokens: must be
 * integer`), so `show`, `compare` and `merge` would refuse it. Found by the response fuzz
 * (scripts/fuzz-responses.ts, `usage-garbage`). A count that is not a whole number is read as
 * not reported, as a negative one or one past 2^53 already was.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';
import { readArtifact } from './helpers/read-artifact.ts';

const server = useLoopbackServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      tools?: { function: { name: string } }[];
    };
    const tool = request.tools?.[0]?.function.name;
    const message =
      tool === undefined
        ? { role: 'assistant', content: 'fine' }
        : {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'c',
                type: 'function',
                function: { name: tool, arguments: '{"choice":"yes","reason":"ok"}' },
              },
            ],
          };
    const body = {
      choices: [{ index: 0, message, finish_reason: 'stop' }],
      usage: { prompt_tokens: 1.5, completion_tokens: 2 },
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
});

describe('a fractional token count', () => {
  it('is not taken as a count: the artifact of a model target and a judge stays valid', async () => {
    const dir = jsonlProject(
      [{ q: 'x' }],
      [
        `target: { type: model, model: m, baseUrl: "${server.base}/v1", apiKey: k, prompt: "{{ case.q }}" }`,
        'evaluators:',
        '  - use: llm-judge',
        `    judge: { model: j, baseUrl: "${server.base}/v1", apiKey: k }`,
        '    with: { prompt: "ok? {{output}}", choices: { "yes": 1, "no": 0 } }',
      ],
    );
    const result = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const artifact = readArtifact(join(dir, 'results.json'));
    const only = artifact.runs[0]!.cases[0]!;
    assert.equal(only.usage?.promptTokens, 0);
    assert.equal(only.usage?.completionTokens, 2);
    assert.equal(only.evaluations[0]!.usage?.promptTokens, 0);
  });
});
