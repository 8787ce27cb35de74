/**
 * A number or a boolean written in quotes (`concurrency: "4"`, `allowEmptyOutput: "true"`) is
 * text to YAML, and was refused as `expected integer, found "4"` with no word on why "4" is not
 * 4 (the other way round, an unquoted sha, already says to quote it). The problem now says to
 * write it without the quotes. A value `${VAR}` made keeps its own note instead (dropping the
 * quotes alone would not do in a flow collection), and text that reads as no number gets none.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

async function problems(yaml: string, env: Record<string, string> = {}): Promise<string> {
  const dir = scratch();
  writeFiles(dir, { 'evals.yaml': yaml, 'rows.jsonl': '{"q": "a", "output": "a"}\n' });
  const r = await runInProcess(['validate'], dir, env);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  return r.stderr;
}

const SUITE = `suites:
  - id: s
    testset: { path: rows.jsonl }
    evaluators: [{ use: is-equals, with: { expected: a } }]
`;

describe('a number or a boolean in quotes', () => {
  it('is refused saying to write it without the quotes', async () => {
    const stderr = await problems(`version: 1
defaults:
  concurrency: "4"
  stopAfterErrors: " 3 "
suites:
  - id: s
    testset: { path: rows.jsonl }
    gate: { minPassRate: "0.5" }
    target: { type: http, url: "http://127.0.0.1:8999/a", allowEmptyOutput: "true" }
    evaluators: [{ use: is-equals, with: { expected: a } }]
`);
    assert.match(
      stderr,
      /defaults\.concurrency: expected integer, found "4" \(in quotes it is text: write 4 without them\)/,
    );
    assert.match(
      stderr,
      /defaults\.stopAfterErrors: expected integer, found " 3 " \(in quotes it is text: write 3 without them\)/,
    );
    assert.match(
      stderr,
      /gate\.minPassRate: expected number, found "0\.5" \(in quotes it is text: write 0\.5 without them\)/,
    );
    assert.match(
      stderr,
      /allowEmptyOutput: expected boolean, found "true" \(in quotes it is text: write true without them\)/,
    );
  });

  it('gets no such hint when it reads as no number, or when ${VAR} made it', async () => {
    const stderr = await problems(
      `version: 1\ndefaults: { concurrency: "many", trials: "\${T}" }\n${SUITE}`,
      { T: '2' },
    );
    assert.match(stderr, /defaults\.concurrency: expected integer, found "many"\n/);
    assert.match(
      stderr,
      /defaults\.trials: expected integer, found "2" \(from \$\{T\}; a quoted value stays a string/,
    );
    assert.doesNotMatch(stderr, /in quotes it is text/);
  });
});
