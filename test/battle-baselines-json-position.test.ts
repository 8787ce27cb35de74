/**
 * An `automatic-battle` baselines file that is not JSON is refused with the line and column
 * where it goes wrong and what was expected there, as a testset or an artifact is, not with the
 * engine's character offset (`at position 19`) that nobody can find in an editor. The usual
 * cause, a merge of two branches that both recorded baselines, is named.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseBaselineFile } from '../src/evaluators/judges/battle-baselines.ts';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';

const OWNER = { suite: 'qa', evaluator: 'vs-recorded' };

const ENTRY = '{ "output": "x", "recordedAt": "2026-11-28T13:27:02.592Z" }';

/** What `git merge` leaves when both branches recorded a baseline. */
const CONFLICTED = [
  '{',
  '  "baselines": {',
  '<<<<<<< HEAD',
  `    "aaa": ${ENTRY}`,
  '=======',
  `    "bbb": ${ENTRY}`,
  '>>>>>>> feature',
  '  },',
  '  "evaluator": "vs-recorded",',
  '  "suite": "qa",',
  '  "version": 1',
  '}',
  '',
].join('\n');

/** A suite whose automatic-battle reads battles/qa/vs-recorded.json. */
const CONFIG = [
  'version: 1',
  'defaults: { judge: { model: m, baseUrl: "http://127.0.0.1:8080/v1" } }',
  'suites:',
  '  - id: qa',
  '    testset: { cases: [{ q: a, output: b }] }',
  '    evaluators: [{ id: vs-recorded, use: automatic-battle }]',
  '',
].join('\n');

describe('an automatic-battle baselines file that is not JSON', () => {
  it('is refused at its line and column, with what was expected and what was found', () => {
    const parsed = parseBaselineFile('{\n  "version": 1,\n  "suite": "qa",,\n}\n', OWNER);
    assert.equal(parsed.ok, false);
    assert.equal(
      !parsed.ok && parsed.error,
      "is not valid JSON (line 3, column 17: expected a property name in double quotes, found ',')",
    );
  });

  it('left with merge conflict markers says so', () => {
    const parsed = parseBaselineFile(CONFLICTED, OWNER);
    assert.equal(parsed.ok, false);
    assert.match(
      !parsed.ok ? parsed.error : '',
      /^is not valid JSON \(line 3, column 1: .*; it holds git merge conflict markers \(<<<<<<<\): keep one side of each conflict\)$/,
    );
  });

  it('is refused by evals validate with that position (exit 2)', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'evals.yaml': CONFIG,
      'battles/qa/vs-recorded.json': CONFLICTED,
    });
    const r = await runCli(['validate'], { cwd: dir });
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /the baselines file battles\/qa\/vs-recorded\.json is not valid JSON \(line 3, column 1: /,
    );
    assert.doesNotMatch(r.stderr, /position/);
  });

  it('quotes a bad token scrubbed of the run\u2019s secrets before it is cut, keeping no piece of one', async () => {
    // The token is quoted cut at 20 characters: 15 to 20 of padding leave 5 to 0 characters of
    // the key, too few for a scrub after the cut to know them.
    const key = 'Zq7Xw9Lm2Np4Rt6VbK3d';
    for (let pad = 15; pad <= 20; pad++) {
      const dir = scratch();
      writeFiles(dir, {
        'evals.yaml': CONFIG,
        'battles/qa/vs-recorded.json': `{"version": 1, "suite": ${'p'.repeat(pad)}${key}}\n`,
      });
      const r = await runCli(['validate'], { cwd: dir, env: { MY_SERVICE_TOKEN: key } });
      assert.equal(r.code, 2, r.stderr);
      const quoted = new RegExp(`found "p{${pad}}(.*?)\u2026"`).exec(r.stderr);
      assert.ok(quoted, r.stderr);
      assert.ok('[redacted]'.startsWith(quoted[1]!), `padding ${pad}: ${quoted[0]}`);
    }
  });
});
