/**
 * Standard output that cannot be written (redirected to a full disk: `evals show r.json --json >
 * out.json`). The CLI rethrew the write error from its stdout listener, so the process died of
 * an uncaught exception with a minified stack trace, blamed on "a timer or callback that user
 * code left running", exit 1. It now says in one line that standard output could not be
 * written, and exits 3, as for a file it could not write (docs/cli.md); a reader that closes
 * the pipe early (`| head`) still loses only what was left to print.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { describe, it } from 'node:test';
import { evalsBin, runCli, scratch, writeFiles } from './helpers/cli.ts';

/** `evals ...args` in `cwd` with stdout on /dev/full (every write fails with ENOSPC). */
function toFullDevice(
  args: string[],
  cwd: string,
): Promise<{ code: number | null; stderr: string }> {
  const full = openSync('/dev/full', 'w');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [evalsBin, ...args], {
      cwd,
      stdio: ['ignore', full, 'pipe'],
    });
    closeSync(full);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

const LINE =
  'error: standard output could not be written (ENOSPC: no space left on device, write): what evals printed there is incomplete\n';

describe('standard output that cannot be written', { skip: !existsSync('/dev/full') }, () => {
  it('evals --help says so in one line and exits 3, with no stack trace', async () => {
    const r = await toFullDevice(['--help'], scratch());
    assert.equal(r.code, 3, r.stderr);
    assert.equal(r.stderr, LINE);
  });

  it('evals validate and evals show --json: the same, once each', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'evals.yaml': 'version: 1\nsuites:\n  - id: s\n    testset: { cases: [ { output: a } ] }\n',
    });
    const validate = await toFullDevice(['validate'], dir);
    assert.equal(validate.code, 3, validate.stderr);
    assert.equal(validate.stderr, LINE);
    const run = await runCli(['run', '-o', 'r.json'], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    const show = await toFullDevice(['show', 'r.json', '--json'], dir);
    assert.equal(show.code, 3, show.stderr);
    assert.equal(show.stderr, LINE);
  });
});
