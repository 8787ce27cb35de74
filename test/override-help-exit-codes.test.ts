/**
 * `evals override --help` lists the exit codes the command returns, as docs/cli.md does: `3`
 * when the overrides file cannot be written (it is left as it was). The help listed 0 and 2 only.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runInProcess } from './helpers/in-process.ts';
import { tempFolder } from './helpers/temp.ts';

describe('evals override --help', () => {
  it('lists exit code 3, the overrides file not written, as the docs do', async () => {
    const result = await runInProcess(['override', '--help'], tempFolder('evalgate-help-'));
    assert.equal(result.code, 0, result.stderr);
    const codes = /Exit codes: ([^]*)$/.exec(result.stdout)?.[1]?.replace(/\s+/g, ' ') ?? '';
    assert.match(codes, /0 recorded · 2 bad input \(nothing written\) · 3 /);
    assert.match(codes, /3 the overrides file could not be written/);
  });
});
