/**
 * A command's program is run from the PATH the process gets: evalgate's, or the one the
 * target's own `env:` gives (a virtualenv's or node_modules' bin folder), relative entries
 * read from its working folder, as spawn reads them. The check before the run looked the
 * program up on evalgate's PATH only, so it refused a program the run would have found, and
 * let through one the run could not start.
 */
import assert from 'node:assert/strict';
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';

const TOOL = '#!/bin/sh\necho "mytool says $1"\n';

function project(env: string, grid: string[] = [], program = 'mytool'): string {
  const dir = jsonlProject(
    [{ q: 'x' }],
    [...grid, 'target:', '  type: command', `  run: [${program}, "{{ case.q }}"]`, `  env: ${env}`],
    { 'tools/mytool': TOOL },
  );
  chmodSync(join(dir, 'tools', 'mytool'), 0o755);
  return dir;
}

describe("a command's program on the PATH its env: gives", () => {
  it('is found there, a relative entry read from the working folder', async () => {
    const dir = project(`{ PATH: "tools:${process.env.PATH}" }`);
    const validated = await runInProcess(['validate'], dir);
    assert.equal(validated.code, 0, validated.stderr);
    const ran = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(ran.code, 0, ran.stderr + ran.stdout);
    assert.equal(artifactCases(dir)[0]!.cases[0]!.output, 'mytool says x');
  });

  it("is refused before the run when that PATH does not have it, though evalgate's has", async () => {
    const dir = project('{ PATH: "/nonexistent" }', [], 'sh');
    const validated = await runInProcess(['validate'], dir);
    assert.equal(validated.code, 2);
    assert.match(validated.stderr, /suites\[0\]\.target\.run\[0\]: command sh is not on PATH/);
  });

  it('is looked up per case when a template gives that PATH', async () => {
    const dir = project(`{ PATH: "{{ params.bin }}:${process.env.PATH}" }`, [
      'grid: { bin: [tools] }',
    ]);
    const ran = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(ran.code, 0, ran.stderr + ran.stdout);
    assert.equal(artifactCases(dir)[0]!.cases[0]!.output, 'mytool says x');
  });
});
