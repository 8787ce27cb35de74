/**
 * An integer past 2^53 in a JSON output is read as another number: besides the run's warning on
 * stderr (once per suite), each case whose output holds one says so in its own result, its
 * `warnings` in the artifact (and each trial's), and `evals show` prints it beside the output, so
 * a user looking at a failing case sees that its number was rounded. A case whose output holds
 * none has no `warnings`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

const BIG = '12345678901234567891';
const NOTE = `the output holds ${BIG}, an integer past 2^53 that a JSON number cannot hold: it is read as 12345678901234567000, so it compares and prints as that; to compare such ids digit for digit, have them sent as JSON strings`;

/** `/big?q=…` answers the big id, `/small` a safe one. */
const server = useLoopbackServer((req, res) => {
  req.resume();
  const json = req.url?.startsWith('/big') === true ? `{"id": ${BIG}}` : '{"id": 7}';
  res.writeHead(200, { 'content-type': 'application/json' }).end(json);
});

interface Case {
  id: string;
  warnings?: string[];
  trials?: { warnings?: string[] }[];
}

async function run(
  suite: string[],
): Promise<{ dir: string; code: number; stderr: string; cases: Case[] }> {
  const dir = jsonlProject([{ q: 'a' }, { q: 'b' }], suite);
  const result = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir);
  const artifact = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as {
    runs: { cases: Case[] }[];
  };
  return { dir, code: result.code, stderr: result.stderr, cases: artifact.runs[0]!.cases };
}

const EQUALS = [
  'evaluators:',
  `  - { id: eq, use: is-equals, with: { expected: '${BIG}' }, threshold: { gte: 1 } }`,
];

describe("an integer past 2^53 in a case's JSON output", () => {
  it("is noted in each such case's result and shown by evals show", async () => {
    const ran = await run([
      'target:',
      '  type: http',
      `  url: ${server.base}/big?q={{ case.q }}`,
      '  output: id',
      ...EQUALS,
    ]);
    assert.equal(ran.code, 1, ran.stderr);
    // With output: a path, the note speaks of the answer, which is what was scanned.
    const note = NOTE.replace('the output holds', 'the answer holds');
    assert.deepEqual(
      ran.cases.map((c) => c.warnings),
      [[note], [note]],
    );
    // The stderr warning stays once per suite, and points at the case's own note.
    assert.equal(ran.stderr.split('\n').filter((line) => line.includes('2^53')).length, 1);
    assert.match(ran.stderr, /each case's result notes its own, see evals show/);
    const shown = await runInProcess(['show', 'results.json', '--failed'], ran.dir);
    assert.equal(shown.code, 0, shown.stderr);
    // Under the case's output, once per case.
    const warned = shown.stdout.match(
      /^ +output +12345678901234567000\n +warning:\n +the answer holds 12345678901234567891, .* read as 12345678901234567000\b/gm,
    );
    assert.equal(warned?.length, 2, shown.stdout);
  });

  it("is noted in each trial and in the case from the trial it shows (a command's output: json)", async () => {
    const ran = await run([
      'trials: 2',
      'target:',
      '  type: command',
      `  run: [node, -e, 'process.stdout.write("{\\"id\\": ${BIG}}")']`,
      '  output: json',
    ]);
    assert.equal(ran.code, 0, ran.stderr);
    for (const c of ran.cases) {
      assert.deepEqual(c.warnings, [NOTE]);
      assert.deepEqual(
        c.trials?.map((trial) => trial.warnings),
        [[NOTE], [NOTE]],
      );
    }
  });

  it('is not there for an output with no such integer', async () => {
    const ran = await run(['target:', '  type: http', `  url: ${server.base}/small`]);
    assert.equal(ran.code, 0, ran.stderr);
    assert.deepEqual(
      ran.cases.map((c) => 'warnings' in c),
      [false, false],
    );
  });
});
