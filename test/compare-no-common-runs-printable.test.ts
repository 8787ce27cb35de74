/**
 * `evals compare` refuses two artifacts with no run in common, naming each side's runs by
 * suite and grid values. A grid value is the user's text: a newline or an escape sequence in it
 * (`"esc\e[31mred"` in YAML) was printed raw, so the error broke over lines and coloured or
 * cleared the terminal. It is shown as `evals show` shows such a value, `\u001b`, on one line.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { scratch } from './helpers/cli.ts';
import { artifact, run } from './helpers/compare-builder.ts';
import { runInProcess } from './helpers/in-process.ts';

describe('the no-common-runs refusal prints grid values safely', () => {
  it('shows a newline and an escape in a grid value as \\u000a and \\u001b', async () => {
    const dir = scratch();
    const cases = [{ id: 'c1', scores: { exact: 1 } }];
    const base = artifact([run('qa', { style: 'line1\nline2' }, cases)]);
    const head = artifact([run('qa', { style: 'esc\u001b[2Jred' }, cases)], 'b'.repeat(40));
    writeFileSync(join(dir, 'base.json'), JSON.stringify(base));
    writeFileSync(join(dir, 'head.json'), JSON.stringify(head));
    const out = await runInProcess(['compare', 'base.json', 'head.json'], dir);
    assert.equal(out.code, 2, out.stderr);
    assert.ok(!out.stderr.includes('\u001b'), 'no raw escape');
    assert.equal(out.stderr.trimEnd().split('\n').length, 1, out.stderr);
    assert.match(out.stderr, /style=esc\\u001b\[2Jred/);
    assert.match(out.stderr, /style=line1\\u000aline2/);
  });
});
