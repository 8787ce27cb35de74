/**
 * A command target's `sent` quotes its arguments as a shell would read them; a secret holding a
 * `'` is split by that quoting (`'ab'\''cd'`), so each argument is scrubbed before it is quoted.
 * A real run of a real command, its secret from the environment.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { scratch, writeFiles } from './helpers/cli.ts';
import { artifactCases, runInProcess } from './helpers/in-process.ts';

const KEY = "pass'word-Q7w8e9r0";

describe("a command's sent", () => {
  it("holds no part of a secret with a ' in it", async () => {
    const dir = scratch();
    writeFiles(dir, {
      'q.csv': 'country,expected\nFrance,Paris\n',
      'agent.cjs': "process.stdout.write('Lyon');\n",
      'evals.yaml': [
        'version: 1',
        'suites:',
        '  - id: cmd',
        '    testset: { path: q.csv }',
        '    target:',
        '      type: command',
        '      run: [node, agent.cjs, "{{ case.country }}", "--key=${QUOTED_API_KEY}"]',
        '    evaluators:',
        '      - { id: exact, use: is-equals, with: { expected: "{{ case.expected }}" } }',
      ].join('\n'),
    });
    const run = await runInProcess(['run', '--no-cache'], dir, { QUOTED_API_KEY: KEY });
    assert.equal(run.code, 1, run.stderr);
    const [sent] = (artifactCases(dir, 'evals-results.json')[0]?.cases ?? []).map(
      (c) => (c as { sent?: unknown }).sent,
    );
    assert.equal(sent, "node agent.cjs France '--key=[redacted]'");
    const text = readFileSync(join(dir, 'evals-results.json'), 'utf8');
    assert.ok(!text.includes('word-Q7w8e9r0'), 'a part of the secret is in the artifact');
  });
});
