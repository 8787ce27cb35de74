/**
 * Code under test that replaces a built-in evals writes with must not make a run pass on
 * results it did not write: a no-op `Array.prototype.push` made `evals run` exit 0 with no
 * artifact (or, over an old one, with an artifact counting 3 cases and holding none), and an
 * `Object.prototype.toJSON` made it exit 0 with an artifact that was not JSON. The run's last
 * checks (src/pipeline/written-check.ts) name the replaced built-in, raise a 0 to 1, and exit 3
 * for a file not written as its format is; a `JSON.stringify` that throws, which stops evals
 * itself, is named instead of a stack trace. `isolation: worker` keeps such code apart, and code
 * that leaves the built-ins alone passes as before. The built CLI, as a child process.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.ts';
import { suiteProject } from './helpers/suite-project.ts';

/** Three passing cases; the function runs `sabotage` on case b. */
function project(sabotage: string, settings: string[] = []): string {
  return suiteProject(
    [
      ...settings,
      'testset: { cases: [ { q: a }, { q: b }, { q: c } ] }',
      'function: ./fn.mjs#fn',
      'evaluators:',
      '  - { use: contains, with: { values: ["ok"] } }',
    ],
    {
      'fn.mjs': [
        'export function fn({ testCase }) {',
        `  if (testCase.q === 'b') { ${sabotage} }`,
        "  return 'ok';",
        '}',
        '',
      ].join('\n'),
    },
  );
}

const REPLACED = (name: string): RegExp =>
  new RegExp(
    `error: the code this run loaded replaced built-ins that evals relies on \\(${name}\\)`,
  );

describe('a run whose code replaces a built-in does not pass without its results', () => {
  it('a no-op Array.prototype.push: exit 3, the built-in and the missing artifact named', async () => {
    const dir = project('Array.prototype.push = function () { return 0; };');
    const r = await runCli(['run', '-o', 'out.json'], { cwd: dir, timeoutMs: 30_000 });
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, REPLACED('Array\\.prototype\\.push'));
    assert.match(r.stderr, /error: -o out\.json was not written, although no write failed/);
  });

  it('a no-op Array.prototype.push over an old artifact: exit 1, not 0', async () => {
    const dir = project('Array.prototype.push = function () { return 0; };');
    writeFileSync(join(dir, 'out.json'), '{"old":true}\n');
    const r = await runCli(['run', '-o', 'out.json'], { cwd: dir, timeoutMs: 30_000 });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, REPLACED('Array\\.prototype\\.push'));
    // The artifact was failed as it was built (a `built-ins` condition), so 1 is its verdict's.
    const artifact = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as { verdict: string };
    assert.equal(artifact.verdict, 'fail');
  });

  it('an Object.prototype.toJSON: exit 3, the artifact said not to be JSON', async () => {
    const dir = project("Object.prototype.toJSON = function () { return 'x'; };");
    const r = await runCli(['run', '-o', 'out.json'], { cwd: dir, timeoutMs: 30_000 });
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, REPLACED('Object\\.prototype\\.toJSON \\(added\\)'));
    assert.match(r.stderr, /error: -o out\.json was written, but does not begin with "\{"/);
  });

  it('a JSON.stringify that throws: exit 1, the built-in named, no stack trace', async () => {
    const dir = project("JSON.stringify = () => { throw new Error('no JSON here'); };");
    const r = await runCli(['run', '-o', 'out.json'], { cwd: dir, timeoutMs: 30_000 });
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stderr,
      /error: evals could not go on \(no JSON here\): the code the run loaded replaced built-ins it relies on \(JSON\.stringify\)/,
    );
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  });

  it('the same code with isolation: worker changes only its thread: the run passes', async () => {
    const dir = project('Array.prototype.push = function () { return 0; };', ['isolation: worker']);
    const r = await runCli(['run', '-o', 'out.json'], { cwd: dir, timeoutMs: 30_000 });
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /replaced built-ins/);
    const artifact = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as {
      runs: { cases: unknown[] }[];
    };
    assert.equal(artifact.runs[0]?.cases.length, 3);
  });

  it('code that leaves the built-ins alone: old files are replaced and the run exits 0', async () => {
    const dir = project('globalThis.touched = true;');
    writeFileSync(join(dir, 'out.json'), '{"old":true}\n');
    writeFileSync(join(dir, 'junit.xml'), 'old');
    const r = await runCli(
      ['run', '-o', 'out.json', '--junit', 'junit.xml', '--report', 'report.html'],
      { cwd: dir, timeoutMs: 30_000 },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /error:/);
    const artifact = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as { verdict: string };
    assert.equal(artifact.verdict, 'pass');
    assert.match(readFileSync(join(dir, 'junit.xml'), 'utf8'), /^<\?xml/);
  });
});
