/**
 * A model API or judge that answered with no body at all (a `200` a proxy emptied, a `204`) was
 * errored `POST … answered 200 with a body that is not JSON` and nothing after it, so the reader
 * went looking for what was wrong with the JSON. Found by the response fuzz
 * (scripts/fuzz-responses.ts, `empty-body`, `no-content`). The error says the body was empty, as
 * an http target's does.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

const server = useLoopbackServer((req, res) => {
  req.resume().on('end', () => {
    const status = req.url?.startsWith('/204/') === true ? 204 : 200;
    res.writeHead(status, { 'content-type': 'application/json' }).end();
  });
});

describe('a model answer with an empty body', () => {
  for (const status of [200, 204]) {
    it(`answered ${status}: the case error says the body was empty`, async () => {
      const dir = jsonlProject(
        [{ q: 'x' }],
        [
          'target:',
          '  type: model',
          '  model: m',
          `  baseUrl: ${server.base}/${status}/v1`,
          '  apiKey: k',
          '  maxRetries: 0',
          '  prompt: "{{ case.q }}"',
        ],
      );
      const result = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir);
      assert.equal(result.code, 1, result.stdout + result.stderr);
      assert.match(
        artifactCases(dir)[0]!.cases[0]!.error ?? '',
        new RegExp(
          `^POST http://127\\.0\\.0\\.1:\\d+/${status}/v1/chat/completions answered ${status} with an empty body, where JSON was expected$`,
        ),
      );
    });
  }
});
