/**
 * A script saved with Windows line ends (a checkout with core.autocrlf) has `#!/bin/sh\r` as
 * its first line: the system looks for an interpreter named `/bin/sh\r`, and its ENOENT read as
 * if the script itself were missing (`cannot start ./agent.sh: not found`), after validate had
 * passed. Now validate refuses such a script, and one whose `#!` names an interpreter that is not
 * there, at the program; a script a case names says the same as its case's error.
 */
import assert from 'node:assert/strict';
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';

const CRLF =
  'its #! line ends in a carriage return (the script has Windows line ends), so the system looks for the interpreter "/bin/sh\\r", which does not exist: save it with LF line ends (dos2unix, or git config core.autocrlf false and check it out again)';

function project(run: string): string {
  const dir = jsonlProject([{ q: 'agent.sh' }], ['target:', '  type: command', `  run: ${run}`], {
    'agent.sh': '#!/bin/sh\r\necho hi\r\n',
    'old.py': '#!/nonexistent/python9\nprint(1)\n',
  });
  chmodSync(join(dir, 'agent.sh'), 0o755);
  chmodSync(join(dir, 'old.py'), 0o755);
  return dir;
}

describe('a script whose #! interpreter cannot be found', () => {
  it('validate refuses a script with Windows line ends, saying why', async () => {
    const result = await runInProcess(['validate'], project('[./agent.sh]'));
    assert.equal(result.code, 2);
    assert.equal(
      result.stderr.split('\n')[0],
      `error: evals.yaml:7:13  suites[0].target.run[0]: ./agent.sh: ${CRLF}`,
    );
  });

  it('validate refuses a script whose interpreter is not there', async () => {
    const result = await runInProcess(['validate'], project('[./old.py]'));
    assert.equal(result.code, 2);
    assert.equal(
      result.stderr.split('\n')[0],
      'error: evals.yaml:7:13  suites[0].target.run[0]: ./old.py: the interpreter its #! line names, /nonexistent/python9, is not an executable file',
    );
  });

  it('a script a case names errors its case with the reason, not "not found"', async () => {
    const dir = project('["./{{ case.q }}"]');
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(result.code, 1, result.stderr + result.stdout);
    assert.equal(artifactCases(dir)[0]!.cases[0]!.error, `cannot start ./agent.sh: ${CRLF}`);
  });
});
