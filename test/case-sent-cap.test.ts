/**
 * What a case's target sent (`sent`) is kept to 8,000 characters in the artifact, its start and
 * its end, cut after the run's secrets are scrubbed (src/pipeline/sent-cap.ts): a real command
 * target whose argument is a long case field with a secret across the cut.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { SENT_MAX_CHARS } from '../src/pipeline/sent-cap.ts';
import { scratch, writeFiles } from './helpers/cli.ts';
import { artifactCases, runInProcess } from './helpers/in-process.ts';

const SECRET = 'tok-sent-cap-Q1w2E3r4T5y6';

void test("a long sent is kept as its start and end, scrubbed before it is cut, trials' too", async () => {
  // `node echo.cjs ` is 14 characters: the secret then spans the first half's end (4,000).
  const text = `${'a'.repeat(4000 - 14 - 10)}${SECRET}${'b'.repeat(12_000)}`;
  const dir = scratch();
  writeFiles(dir, {
    'rows.jsonl': `${JSON.stringify({ text, short: 'hi' })}\n${JSON.stringify({ text: 'hi', short: 'hi' })}\n`,
    'echo.cjs': 'process.stdout.write(String(process.argv[2].length));\n',
    'evals.yaml': [
      'version: 1',
      'suites:',
      '  - id: s',
      '    testset: { path: rows.jsonl }',
      '    trials: 2',
      '    target:',
      '      type: command',
      "      run: [node, echo.cjs, '{{ case.text }}']",
      '    evaluators:',
      '      - { id: has, use: contains, with: { values: ["1"] } }',
    ].join('\n'),
  });
  const r = await runInProcess(['run', '--no-cache'], dir, { SENT_CAP_TOKEN: SECRET });
  assert.ok(r.code === 0 || r.code === 1, r.stderr);
  const [long, short] = artifactCases(dir, 'evals-results.json')[0]!.cases as unknown as {
    sent: string;
    trials: { sent: string }[];
  }[];
  const whole = `node echo.cjs ${text.replace(SECRET, '[redacted]')}`;
  for (const sent of [long!.sent, ...long!.trials.map((trial) => trial.sent)]) {
    const marker = /\n\[\.\.\. (\d+) characters left out \.\.\.\]\n/.exec(sent);
    assert.ok(marker !== null, sent.slice(0, 200));
    const [head, tail] = sent.split(marker[0]) as [string, string];
    assert.equal(head.length + tail.length, SENT_MAX_CHARS);
    assert.equal(
      head + tail,
      whole.slice(0, head.length) + whole.slice(whole.length - tail.length),
    );
    assert.equal(Number(marker[1]), whole.length - SENT_MAX_CHARS);
  }
  // A short one is whole.
  assert.equal(short!.sent, 'node echo.cjs hi');
  const artifact = readFileSync(join(dir, 'evals-results.json'), 'utf8');
  for (const piece of [SECRET.slice(0, 8), SECRET.slice(-8)]) {
    assert.ok(!artifact.includes(piece), `a piece of the secret (${piece}) is in the artifact`);
  }
});
