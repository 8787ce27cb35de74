/**
 * `BaseAutomaticBattle` under `runTestSuite`: a baselines file that cannot be read (not JSON,
 * another suite's) or cannot be named (an evaluator id that is no safe file name, a
 * `baselinesFile` that is no path) failed every case, one by one, while evals.yaml refuses the
 * same at load. It is a UsageError before any case runs, naming the evaluator, and the hints
 * name the class's `baselinesFile` (the SDK has no option "file").
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runTestSuite } from '../src/api/run-test-suite.ts';
import { createJudgeClient } from '../src/judge/client.ts';
import { BaseAutomaticBattle } from '../src/testing.ts';
import { UsageError } from '../src/shared/errors.ts';
import { scratch } from './helpers/cli.ts';

interface Case {
  q: string;
}

class Battle extends BaseAutomaticBattle<Case, string> {
  id = 'battle';
  override criteria = 'The more helpful answer.';
  outputMapper({ output }: { output: string }): string {
    return output;
  }
}

/** The message of the UsageError `battle` gets in `dir`, asserted to come before any case. */
async function refusal(battle: Battle, dir: string): Promise<string> {
  let calls = 0;
  const error: unknown = await runTestSuite<Case, string>({
    id: 's',
    testCases: [{ q: 'a' }, { q: 'b' }],
    testCaseHash: ['q'],
    fn: ({ testCase }) => {
      calls++;
      return testCase.q;
    },
    evaluators: [battle],
    baselinesDir: dir,
    judge: { client: createJudgeClient({ baseUrl: 'http://127.0.0.1:8080/v1', env: {} }) },
    quiet: true,
    setExitCode: false,
  }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  assert.ok(error instanceof UsageError, `a UsageError, not ${String(error)}`);
  assert.equal(calls, 0, 'no case ran');
  return error.message;
}

describe("an automatic battle's baselines file", () => {
  it('that is not JSON is refused before any case', async () => {
    const dir = scratch();
    mkdirSync(join(dir, 'battles', 's'), { recursive: true });
    writeFileSync(join(dir, 'battles', 's', 'battle.json'), '{not json');
    assert.match(
      await refusal(new Battle(), dir),
      /^runTestSuite\(s\): evaluators\[0\] \(Battle\): automatic-battle: the baselines file battles\/s\/battle\.json is not valid JSON \(.*\)\. Fix it, or delete it to record new baselines\.$/,
    );
  });

  it('that an evaluator id cannot name is refused before any case, naming baselinesFile', async () => {
    const battle = new Battle();
    battle.id = 'my battle';
    assert.equal(
      await refusal(battle, scratch()),
      'runTestSuite(s): evaluators[0] (Battle): automatic-battle: suite "s" or evaluator "my battle" is not a safe file name; set option "file" (baselinesFile on an SDK class)',
    );
  });

  it('given as something other than a path is refused before any case', async () => {
    const battle = new Battle();
    battle.baselinesFile = 5 as unknown as string;
    assert.equal(
      await refusal(battle, scratch()),
      'runTestSuite(s): evaluators[0] (Battle): automatic-battle: option "file" (baselinesFile on an SDK class) must be a path without templates',
    );
  });
});
