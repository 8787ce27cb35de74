/**
 * QA round 10, L8: the dry-run plan of a suite whose judge is an SDK class named in evals.yaml
 * (a module evaluator: its calls cannot be counted without importing it) says that the class may
 * call models, rather than "model calls at most 0; not counted: evaluator IsFriendly", which
 * reads as "no judge calls".
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runInProcess } from './helpers/in-process.ts';
import { suiteProject } from './helpers/suite-project.ts';

describe('the dry-run plan of an SDK judge class in evals.yaml (QA10 L8)', () => {
  it('says the class may make model calls of its own that are not counted', async () => {
    const dir = suiteProject(
      [
        'testset:',
        '  cases:',
        '    - { input: hi, output: "Hello!" }',
        'evaluators:',
        '  - use: ./judge.ts#IsFriendly',
      ],
      { 'judge.ts': 'export class IsFriendly {}\n' },
    );
    const r = await runInProcess(['run', '--dry-run'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^ {2}model calls at most 0 counted; not counted: evaluator IsFriendly may make model calls of its own$/m,
    );
  });
});
