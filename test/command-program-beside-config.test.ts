/**
 * A command target whose program is a bare name (`run: [agent.sh]`) is looked up on PATH only,
 * as a shell does, so a script lying in the working folder is "not on PATH". The refusal says
 * so and what to write instead (`./agent.sh`), and, for a script that is not executable, to run
 * it through its interpreter, rather than leaving a first-time user to guess.
 */
import assert from 'node:assert/strict';
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { findProgram } from '../src/targets/command-checks.ts';
import { scratch, writeFiles } from './helpers/cli.ts';

const ENV = { PATH: '/nonexistent-bin' };

describe('a command program named without ./ that is in the working folder', () => {
  it('is refused with the ./ form to write', () => {
    const dir = scratch();
    writeFiles(dir, { 'agent.sh': '#!/bin/sh\necho hi\n' });
    chmodSync(join(dir, 'agent.sh'), 0o755);
    assert.equal(
      findProgram('agent.sh', dir, ENV),
      'command agent.sh is not on PATH; the working folder has agent.sh: write ./agent.sh (a program named without a / is looked up on PATH only)',
    );
  });

  it('that is not executable is refused with the interpreter to run it with', () => {
    const dir = scratch();
    writeFiles(dir, { 'agent.py': 'print("hi")\n' });
    assert.equal(
      findProgram('agent.py', dir, ENV),
      'command agent.py is not on PATH; the working folder has agent.py, which is not executable: run it with its interpreter ([python3, agent.py]), or chmod +x agent.py and write ./agent.py',
    );
  });

  it('named with ./ but not executable is refused with the interpreter to run it with', () => {
    const dir = scratch();
    writeFiles(dir, { 'agent.py': 'print("hi")\n' });
    assert.equal(
      findProgram('./agent.py', dir, ENV),
      `./agent.py is not an executable file (looked for ${join(dir, 'agent.py')}): run it with its interpreter ([python3, ./agent.py]), or chmod +x ./agent.py`,
    );
  });

  it('keeps the PATH message for a name with no such file there', () => {
    assert.equal(findProgram('agent.sh', scratch(), ENV), 'command agent.sh is not on PATH');
  });
});
