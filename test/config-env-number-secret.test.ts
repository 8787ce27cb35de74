/**
 * A number a `${VAR}` makes that a JSON number cannot hold is refused with a message that quotes
 * it, cut at 37 characters with `...`. That message was written with no scrub: a numeric secret
 * (the value of a secret-named variable, or a key the config reads from a variable whose name
 * says nothing) at the cut kept its first digits, which the scrub of the finished message cannot
 * recognise. It is now written once the config's secrets are known, scrubbed before the cut.
 * Every offset of the cut is tried.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseConfig } from '../src/config/load.ts';
import { builtinEvaluators } from '../src/evaluators/registry.ts';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';
import { leaksIn } from './helpers/secret-fuzz.ts';

/** Digits a double cannot keep, as a numeric token is; no digit repeats six times in a row. */
const TOKEN = '9182736450918273645091827364';
const RAW = '5647382910564738291056473829';
const ENV = { MY_SERVICE_TOKEN: TOKEN, RAW_VALUE: RAW };

/** A config whose grid values are `${VAR}` behind each of `pads` digits of padding. */
function config(pads: number[]): string {
  const items = (name: string): string[] =>
    pads.map((pad) => `        - ${'1'.repeat(pad)}\${${name}}`);
  return [
    'version: 1',
    'defaults:',
    '  judge: { model: m, apiKey: "${RAW_VALUE}", baseUrl: "http://127.0.0.1:8080/v1" }',
    'suites:',
    '  - id: s',
    '    testset: { cases: [ { output: a } ] }',
    '    evaluators: [ { use: is-equals, with: { expected: a } } ]',
    '    grid:',
    '      t:',
    ...items('MY_SERVICE_TOKEN'),
    '      u:',
    ...items('RAW_VALUE'),
    '',
  ].join('\n');
}

describe('a number ${VAR} makes that holds a secret', () => {
  it('is refused without a piece of the secret, wherever it falls around the cut', () => {
    const loaded = parseConfig(config(Array.from({ length: 45 }, (_, pad) => pad)), {
      file: 'evals.yaml',
      absPath: '/nowhere/evals.yaml',
      env: ENV,
      builtins: builtinEvaluators,
    });
    assert.equal(loaded.ok, false);
    if (loaded.ok) return;
    const inexact = loaded.issues.filter((issue) => issue.code === 'config.inexact-number');
    assert.equal(inexact.length, 90, JSON.stringify(loaded.issues, null, 2));
    const messages = inexact.map((issue): [string, string] => [issue.path, issue.message]);
    assert.deepEqual(leaksIn(messages, [TOKEN, RAW]), []);
    // Behind 37 digits or more of padding, the cut falls before the secret.
    const redacted = messages.filter(([, text]) => text.includes('[redacted]'));
    assert.equal(redacted.length, 2 * 31);
    // The number as read would be the secret's first digits: not shown either.
    assert.match(
      messages[0]![1],
      /it would be read as another number; .* \(from \$\{MY_SERVICE_TOKEN\}\)$/,
    );
  });

  it('evals validate prints no piece of it', async () => {
    const dir = scratch();
    // Few values: the CLI lists only the first problems.
    writeFiles(dir, { 'evals.yaml': config([0, 25, 31, 34, 36]) });
    const r = await runCli(['validate'], { cwd: dir, env: ENV });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /the number 1{31}\[redac\.\.\. is not held exactly/);
    assert.deepEqual(leaksIn([['stderr', r.stdout + r.stderr]], [TOKEN, RAW]), []);
  });
});
