/**
 * A command that exits while a process it started in a session of its own (`setsid`, Python's
 * `start_new_session=True`) still holds its stdout: that process is beyond the group evalgate
 * stops, and its open pipe kept the case waiting for the end of stdout until the suite's
 * timeout, which then blamed the command (`timed out after …`) and dropped what it had written.
 * The case ends shortly after the command does, on its exit code and the stdout it wrote.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';

// Starts a detached node process that inherits stdout and stderr, records its pid, then exits.
const LAUNCHER = [
  "import { spawn } from 'node:child_process';",
  "import { writeFileSync } from 'node:fs';",
  "const held = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)'], {",
  "  detached: true, stdio: ['ignore', 'inherit', 'inherit'],",
  '});',
  'held.unref();',
  "writeFileSync('held.pid', String(held.pid));",
  "process.stdout.write('Paris\\n');",
  'process.exitCode = Number(process.argv[2]);',
  '',
].join('\n');

const heldPids: number[] = [];
after(() => {
  for (const pid of heldPids) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

async function runWithExit(code: number): Promise<{ error: unknown; output: unknown; ms: number }> {
  const dir = jsonlProject(
    [{ q: 'a' }],
    ['timeout: 4s', 'target:', '  type: command', `  run: [node, launch.mjs, "${code}"]`],
    { 'launch.mjs': LAUNCHER },
  );
  const started = Date.now();
  const result = await runInProcess(['run', '-o', 'results.json'], dir);
  const ms = Date.now() - started;
  heldPids.push(Number(readFileSync(join(dir, 'held.pid'), 'utf8')));
  const c = artifactCases(dir)[0]!.cases[0]!;
  assert.ok(result.code === 0 || result.code === 1, result.stdout + result.stderr);
  return { error: c.error ?? null, output: c.output, ms };
}

describe('a command whose stdout a process outside its group keeps open', () => {
  it('ends with the command, its output what it wrote, not at the timeout', async () => {
    const ran = await runWithExit(0);
    assert.equal(ran.error, null);
    assert.equal(ran.output, 'Paris');
    assert.ok(ran.ms < 3000, `took ${ran.ms} ms`);
  });

  it('still errors on a non-zero exit, without waiting for the timeout', async () => {
    const ran = await runWithExit(3);
    assert.equal(ran.error, 'the command exited with code 3');
    assert.equal(ran.output, 'Paris');
    assert.ok(ran.ms < 3000, `took ${ran.ms} ms`);
  });
});
