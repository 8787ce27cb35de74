/**
 * `evals show --baseline` prints, under a case's baseline result, what its target sent in the
 * baseline when that is not what it sends now (a changed prompt or command line: often why the
 * answer changed), and leaves it out when it is the same. A real command target.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { writeFiles } from './helpers/cli.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const suite = (version: string): string[] => [
  'target:',
  '  type: command',
  `  run: [node, answer.cjs, '{{ case.q }}', ${version}]`,
  'evaluators:',
  '  - { id: v2, use: contains, with: { values: [v2] } }',
];

describe('evals show --baseline, what the target sent', () => {
  it('prints the baseline side of it when it differs, and not when it is the same', async () => {
    const script = { 'answer.cjs': 'process.stdout.write(process.argv.slice(2).join(" "));\n' };
    const dir = jsonlProject([{ q: 'a' }], suite('v1'), script);
    assert.equal((await runInProcess(['run', '-o', 'base.json'], dir)).code, 1);
    const changed = jsonlProject([{ q: 'a' }], suite('v2'), script);
    writeFiles(dir, { 'evals.yaml': readFileSync(join(changed, 'evals.yaml'), 'utf8') });
    assert.equal((await runInProcess(['run', '-o', 'head.json'], dir)).code, 0);
    const shown = await runInProcess(['show', 'head.json', '--baseline', 'base.json'], dir);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /\n {2}sent {6}node answer\.cjs a v2\n/);
    assert.match(
      shown.stdout,
      /in BASE \(base\.json\): FAILED\n {2}sent {6}node answer\.cjs a v1\n/,
    );
    // The same on both sides: said once, for HEAD.
    const same = await runInProcess(['show', 'head.json', '--baseline', 'head.json'], dir);
    assert.equal(same.stdout.match(/\n {2}sent /g)?.length, 1, same.stdout);
  });
});
