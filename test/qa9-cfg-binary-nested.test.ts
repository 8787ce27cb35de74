/**
 * A YAML `!!binary` value (bytes, to yaml) inside an object or a list that a problem quotes is
 * described as binary data of its size, as one on its own is, not as an object of numbered keys.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeValue } from '../src/shared/errors.ts';
import { runInProcess } from './helpers/in-process.ts';
import { suiteProject } from './helpers/suite-project.ts';

describe('!!binary inside a value a problem quotes', () => {
  it('in an object or a list, is "binary data (N bytes)" in the config problem', async () => {
    for (const [value, found] of [
      ['{ a: !!binary aGVsbG8= }', 'an object {"a":binary data (5 bytes)}'],
      ['[!!binary aGVsbG8=, 2]', 'an array [binary data (5 bytes),2]'],
    ] as const) {
      const dir = suiteProject(['testset: { cases: [{ a: x }] }', `function: ${value}`]);
      const result = await runInProcess(['validate'], dir);
      assert.equal(result.code, 2, result.stdout);
      assert.match(
        result.stderr,
        /^error: evals\.yaml:5:15 {2}suites\[0\]\.function: expected string, found /m,
      );
      assert.ok(result.stderr.includes(`found ${found}\n`), result.stderr);
      assert.doesNotMatch(result.stderr, /"0":104/);
    }
  });

  it('describeValue names bytes, alone or nested, by their count and never their content', () => {
    const bytes = new Uint8Array([104, 105]);
    assert.equal(describeValue(bytes), 'binary data (2 bytes)');
    assert.equal(describeValue({ key: bytes }), 'an object {"key":binary data (2 bytes)}');
    assert.equal(describeValue([new Uint8Array([1])]), 'an array [binary data (1 byte)]');
  });
});
