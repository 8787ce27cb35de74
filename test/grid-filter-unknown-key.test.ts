/**
 * `--grid KEY=VALUE` with a key no suite's grid has says which keys there are, and the one
 * meant when it is a near miss, as `--suite` lists the suites: `--grid modle=a` no longer leaves
 * the user to open the config to find the key's spelling.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

function project(grid: string): string {
  const dir = scratch();
  writeFiles(dir, {
    'evals.yaml': [
      'version: 1',
      'suites:',
      '  - id: g',
      '    testset: { cases: [{ q: a }] }',
      ...(grid === '' ? [] : [`    grid: ${grid}`]),
      '    target: { type: command, run: [echo, hi] }',
      '',
    ].join('\n'),
  });
  return dir;
}

describe('--grid with a key no suite has', () => {
  it('names the key meant and the keys there are', async () => {
    const r = await runInProcess(
      ['run', '--dry-run', '--grid', 'modle=a'],
      project('{ model: [a, b], style: [x] }'),
    );
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /^error: --grid modle=…: no suite has a grid parameter "modle" \(did you mean model\? grid parameters: model, style\)$/m,
    );
  });

  it('says when no suite has a grid', async () => {
    const r = await runInProcess(['run', '--dry-run', '--grid', 'model=a'], project(''));
    assert.equal(r.code, 2);
    assert.match(r.stderr, /no suite has a grid parameter "model" \(no suite has a grid\)$/m);
  });
});
