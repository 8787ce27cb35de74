/**
 * An integer past 2^53 in a JSON output (an http answer, a command's `output: json`, a model's
 * JSON mode) is read as the nearest double, as every JSON reader in JavaScript reads it: the
 * output holds 12345678901234567000, not ...891. That was silent; the run now warns, once per
 * target, naming the number as written and as read. A string of those digits, or an integer
 * a double holds, is no warning.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

const BIG = '12345678901234567891';
/** Past the largest double: JSON.parse reads it as Infinity. */
const HUGE = '1'.repeat(400);
const WARNING =
  /^warning: suite s: .* holds 12345678901234567891, an integer past 2\^53 that a JSON number cannot hold: it is read as 12345678901234567000\b/m;

/** `/big` answers the big id (as a number), `/safe` a safe one and the big one as a string. */
const server = useLoopbackServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const json =
      req.url === '/safe'
        ? `{"id": 9007199254740991, "ref": "${BIG}"}`
        : req.url === '/big'
          ? `{"id": ${BIG}}`
          : req.url === '/huge'
            ? `{"id": ${HUGE}}`
            : JSON.stringify({
                choices: [{ index: 0, message: { role: 'assistant', content: `{"id": ${BIG}}` } }],
              });
    res.writeHead(200, { 'content-type': 'application/json' }).end(json);
  });
});

async function run(suite: string[]): Promise<{ stderr: string; outputs: unknown[] }> {
  const dir = jsonlProject([{ q: 'a' }, { q: 'b' }], suite);
  const result = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir);
  return { stderr: result.stderr, outputs: artifactCases(dir)[0]!.cases.map((c) => c.output) };
}

const warnings = (stderr: string): number =>
  stderr.split('\n').filter((l) => l.includes('2^53')).length;

describe('an integer past 2^53 in a JSON output', () => {
  it('an http answer: read as a double, warned about once for the target', async () => {
    const { stderr, outputs } = await run([
      'target:',
      '  type: http',
      `  url: ${server.base}/big`,
      '  output: id',
    ]);
    assert.deepEqual(outputs, [12345678901234567000, 12345678901234567000]);
    assert.match(stderr, WARNING);
    assert.match(stderr, /the http target GET http:\/\/127\.0\.0\.1:\d+\/big holds/);
    assert.equal(warnings(stderr), 1, stderr);
  });

  it("a command's output: json and a model's JSON mode warn the same way", async () => {
    const command = await run([
      'target:',
      '  type: command',
      `  run: [node, -e, 'process.stdout.write("{\\"id\\": ${BIG}}")']`,
      '  output: json',
    ]);
    assert.deepEqual(command.outputs, [{ id: 12345678901234567000 }, { id: 12345678901234567000 }]);
    assert.match(command.stderr, WARNING);
    assert.equal(warnings(command.stderr), 1, command.stderr);
    const model = await run([
      'target:',
      '  type: model',
      '  model: m',
      `  baseUrl: ${server.base}/v1`,
      '  apiKey: sk-test-key',
      '  prompt: "{{ case.q }}"',
      '  responseFormat: json',
    ]);
    assert.match(model.stderr, WARNING);
    assert.equal(warnings(model.stderr), 1, model.stderr);
  });

  it('a safe integer, or the digits in a string, is no warning', async () => {
    const { stderr, outputs } = await run([
      'target:',
      '  type: http',
      `  url: ${server.base}/safe`,
    ]);
    assert.deepEqual(outputs[0], { id: 9007199254740991, ref: BIG });
    assert.equal(warnings(stderr), 0, stderr);
  });

  it('an integer past the largest double is read as Infinity: warned about, not a case error', async () => {
    const dir = jsonlProject(
      [{ q: 'a' }],
      ['target:', '  type: http', `  url: ${server.base}/huge`],
    );
    const result = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir);
    const [only] = artifactCases(dir)[0]!.cases;
    assert.equal(only?.error ?? null, null, result.stderr);
    // Named by its length, not quoted: 400 digits would fill the line.
    assert.match(
      result.stderr,
      /holds an integer of 400 characters, past 2\^53 .* it is read as Infinity\b/,
    );
    assert.doesNotMatch(result.stderr, /1{41}/);
  });

  it("names a command whose line holds a secret with none of the secret's characters", async () => {
    const key = 'sk-proj-SECRETSECRETSECRET0123456789';
    // The line is cut at 60 characters; the cut falls inside the key.
    const dir = jsonlProject(
      [{ q: 'a' }],
      [
        'target:',
        '  type: command',
        `  run: [node, -e, 'console.log("{\\"id\\":${BIG}}")', "\${EVAL_API_KEY}"]`,
        '  output: json',
      ],
    );
    const result = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir, {
      EVAL_API_KEY: key,
    });
    assert.match(result.stderr, WARNING);
    assert.doesNotMatch(result.stderr, /sk-p/, result.stderr);
  });
});
