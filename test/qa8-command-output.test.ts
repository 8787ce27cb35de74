/**
 * What a `command` target's output and stderr become when they are not what a reader expects:
 * stdout that is not UTF-8 is a case error (never text the program did not write, scored as if
 * it had), and a stderr line longer than the kept tail is never kept from its middle, where it
 * could begin with the end of a secret that no scrubbing would recognise.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';

/** A one-case project whose command is `node script.cjs`; the case passes if the output is "café". */
function project(script: string, output = 'text'): string {
  return jsonlProject(
    [{ q: 'x' }],
    [
      'target:',
      '  type: command',
      '  run: [node, script.cjs]',
      `  output: ${output}`,
      'evaluators:',
      '  - { id: eq, use: is-equals, with: { expected: "café" } }',
    ],
    { 'script.cjs': script },
  );
}

async function onlyCase(dir: string): Promise<{ code: number; output: unknown; error: string }> {
  const result = await runInProcess(['run', '-o', 'results.json'], dir);
  const c = artifactCases(dir)[0]!.cases[0]!;
  return { code: result.code, output: c.output, error: c.error ?? '' };
}

describe('command target stdout that is not UTF-8', () => {
  it('is a case error at the first bad byte, the output kept with U+FFFD', async () => {
    // Latin-1 "café": the é is the single byte 0xE9.
    const run = await onlyCase(
      project('process.stdout.write(Buffer.from([0x6f, 0x6b, 0x0a, 0x63, 0x61, 0x66, 0xe9]));'),
    );
    assert.equal(run.code, 1);
    assert.equal(run.output, 'ok\ncaf\uFFFD');
    assert.match(
      run.error,
      /^stdout is not valid UTF-8 at line 2, column 4 .*make the program write UTF-8$/,
    );
  });

  it('is refused before JSON parsing with output: json', async () => {
    const run = await onlyCase(
      project("process.stdout.write(Buffer.from('\"caf\\xe9\"', 'latin1'));", 'json'),
    );
    assert.match(run.error, /^stdout is not valid UTF-8 at line 1, column 5/);
  });

  it('UTF-8 output is the output, and a failing exit still says so first', async () => {
    assert.deepEqual(await onlyCase(project("process.stdout.write('café\\n');")), {
      code: 0,
      output: 'café',
      error: '',
    });
    const failed = await onlyCase(
      project('process.stdout.write(Buffer.from([0xe9])); process.exitCode = 3;'),
    );
    assert.match(failed.error, /^the command exited with code 3/);
  });
});

describe('command target stderr lines longer than the kept tail', () => {
  it('a last line of 200 KiB is not kept from its middle; the error says it was left out', async () => {
    // The secret-looking end of the line is what a cut in the middle would have kept.
    const script = [
      "process.stderr.write('first line\\n');",
      "process.stderr.write('A'.repeat(200 * 1024) + 'TAIL-OF-LONG-LINE');",
      'process.exitCode = 1;',
    ].join('\n');
    const run = await onlyCase(project(script));
    assert.equal(run.code, 1);
    assert.doesNotMatch(run.error, /TAIL-OF-LONG-LINE|AAAA/);
    assert.match(run.error, /its last line passed 64 KiB and is not shown/);
  });

  it('lines after a long one are kept whole', async () => {
    const script = [
      "process.stderr.write('B'.repeat(200 * 1024));",
      "process.stderr.write('\\nValueError: the real cause\\n');",
      'process.exitCode = 1;',
    ].join('\n');
    const run = await onlyCase(project(script));
    assert.match(run.error, /stderr:\nValueError: the real cause$/);
    assert.doesNotMatch(run.error, /BBBB/);
  });
});

describe('an output nested too deeply for JSON', () => {
  it('is a case error that says so, not V8 words about the call stack', async () => {
    const dir = jsonlProject([{ q: 'x' }], ['function: ./deep.mjs#fn'], {
      'deep.mjs': [
        'export function fn() {',
        '  let value = {};',
        '  for (let i = 0; i < 100000; i++) value = { inner: value };',
        '  return value;',
        '}',
      ].join('\n'),
    });
    const run = await onlyCase(dir);
    assert.equal(run.code, 1);
    assert.equal(
      run.error,
      'the result cannot be written as JSON (output: nested thousands of levels deep)',
    );
  });
});
