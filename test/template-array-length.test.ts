/**
 * `length` after an array, in a template (`{{ case.items.length }}`) and in an http target's
 * `output:` path (`choices.length`), is the array's number of items: the same in both, a number,
 * as docs/config.md says. After a string it is no field (a case error naming the path), and an
 * object's own `length` field is read as any other field.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

/** Echoes the JSON body it got under `got`, with three choices and an object with a `length`. */
const server = useLoopbackServer((req, res) => {
  let body = '';
  req.setEncoding('utf8').on('data', (d: string) => (body += d));
  req.on('end', () => {
    const answer = {
      got: JSON.parse(body || 'null') as unknown,
      choices: [1, 2, 3],
      box: { length: 'long' },
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
});

async function onlyCase(suite: string[]): Promise<{ output: unknown; error: string }> {
  const dir = jsonlProject([{ items: ['a', 'b'], name: 'Ada' }], suite);
  await runInProcess(['run', '-o', 'results.json'], dir);
  const c = artifactCases(dir)[0]!.cases[0]!;
  return { output: c.output, error: c.error ?? '' };
}

const http = (output: string, body: string): string[] => [
  'target:',
  '  type: http',
  `  url: ${server.base}/`,
  `  body: ${body}`,
  `  output: ${output}`,
  'evaluators: [{ use: is-valid-json }]',
];

describe('length after an array', () => {
  it('is its number of items in an output: path, and in a template', async () => {
    assert.deepEqual(await onlyCase(http('choices.length', '{ n: 1 }')), { output: 3, error: '' });
    // A value that is exactly one template keeps its type: the number 2.
    assert.deepEqual(await onlyCase(http('got', '{ n: "{{ case.items.length }}" }')), {
      output: { n: 2 },
      error: '',
    });
  });

  it("reads an object's own length field, and is no field of a string", async () => {
    assert.deepEqual(await onlyCase(http('box.length', '{ n: 1 }')), { output: 'long', error: '' });
    const string = await onlyCase(http('got', '{ n: "{{ case.name.length }}" }'));
    assert.equal(string.output, null);
    assert.match(
      string.error,
      /template \{\{ case\.name\.length \}\}: case\.name\.length is not defined/,
    );
  });
});
