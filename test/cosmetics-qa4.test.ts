/**
 * What users read, QA round 4: the model-calls line of `evals show` names itself once; counts
 * of one are singular (`1 edit of 1 character`, the HTML verdict of one run); invisible
 * characters show as escapes, so two values that differ by one do not look the same; a refused
 * `--report` says the report is what could not be written; `-o ''` asks for a file name.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { painter } from '../src/report/ansi.ts';
import { renderCaseDetail } from '../src/report/case-detail.ts';
import { renderCaseLines } from '../src/report/case-lines.ts';
import { reasonOf } from '../src/report/evaluation-reason.ts';
import { printable } from '../src/shared/text-table.ts';
import type { CaseResult, RunResult } from '../src/types/index.ts';
import { gateSentence } from '../report-app/wording.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const plain = painter(false);

function caseResult(over: Partial<CaseResult>): CaseResult {
  return {
    id: 'c1',
    contentId: 'c',
    source: { file: 'rows.jsonl', line: 1 },
    data: { input: 'hi' },
    output: 'hello',
    error: null,
    durationMs: 3,
    passed: true,
    evaluations: [],
    ...over,
  };
}

describe('evals show: the model calls of a case', () => {
  it('are named once', () => {
    const usage = {
      calls: 1,
      cacheHits: 0,
      promptTokens: 10,
      completionTokens: 5,
      cost: null,
      latencyMs: 100,
    };
    const run = { suite: 's', params: {} } as unknown as RunResult;
    const text = renderCaseDetail(run, caseResult({ usage }), { full: false, paint: plain });
    assert.match(text, /^ *model calls: 1 · tokens: 10 prompt/m);
    assert.doesNotMatch(text, /model calls\s+model calls/);
  });
});

describe('counts of one are singular', () => {
  it('levenshtein: 1 edit of 1 character', () => {
    const reason = reasonOf({
      error: null,
      metadata: { distance: 1, maxLength: 1, expected: 'a', actual: 'b' },
    });
    assert.equal(reason, '1 edit of 1 character: expected "a", got "b"');
    const many = reasonOf({
      error: null,
      metadata: { distance: 2, maxDistance: 1, maxLength: 3, expected: 'abc', actual: 'a' },
    });
    assert.equal(many, '2 edits > max 1 of 3 characters: expected "abc", got "a"');
  });

  it('the HTML verdict of one run speaks of the run, of several of runs', () => {
    assert.equal(gateSentence(1, 1), 'The run failed its gate.');
    assert.equal(gateSentence(0, 1), 'The run passed its gate.');
    assert.equal(gateSentence(1, 3), '1 of 3 runs failed its gate.');
    assert.equal(gateSentence(2, 3), '2 of 3 runs failed their gates.');
    assert.equal(gateSentence(0, 3), 'All 3 runs passed their gates.');
  });
});

describe('invisible characters are shown as escapes', () => {
  it('a zero-width space, a no-break space, a soft hyphen, a BOM and a line separator', () => {
    assert.equal(printable('a\u200bb'), 'a\\u200bb');
    assert.equal(printable('a\u00a0b'), 'a\\u00a0b');
    assert.equal(printable('a\u00adb'), 'a\\u00adb');
    assert.equal(printable('\ufeffa'), '\\ufeffa');
    assert.equal(printable('a\u2028b'), 'a\\u2028b');
    assert.equal(printable('a\u{e0041}b'), 'a\\u{e0041}b');
    // As control characters and bidirectional overrides already were, a tab too.
    assert.equal(printable('a\u001b[31mb\u202ec\td'), 'a\\u001b[31mb\\u202ec\\u0009d');
    // Plain spaces, accents and emoji sequences (joiners, a flag's tags) stay as they are.
    const text = 'a b café 👩‍💻 👨‍👩‍👧 🏴\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f} 日本';
    assert.equal(printable(text), text);
  });

  it('in the terminal summary, expected "ab" and got "a\\u200bb" look different', () => {
    const result = caseResult({
      passed: false,
      evaluations: [
        {
          evaluator: 'is-equals',
          score: 0,
          threshold: { gte: 1 },
          passed: false,
          metadata: { expected: 'ab', actual: 'a\u200bb' },
          error: null,
          durationMs: 0,
        },
      ],
    });
    const [line] = renderCaseLines(result, 'c1', plain, 120, '');
    assert.ok(line!.includes('expected "ab", got "a\\u200bb"'), line);
  });
});

describe('refused outputs of evals run', () => {
  const project = (): string =>
    jsonlProject(
      [{ n: 1, output: 'x' }],
      ['evaluators:', '  - { id: says, use: contains, with: { values: [x] } }'],
    );

  it('--report on a folder says the HTML report could not be written, not the results', async () => {
    const dir = project();
    mkdirSync(join(dir, 'adir'));
    const r = await runInProcess(['run', '--report', 'adir'], dir);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--report adir: is a folder, .*so the HTML report could not be written/);
    assert.doesNotMatch(r.stderr, /the results could not be written/);
    const junit = await runInProcess(['run', '--junit', 'adir'], dir);
    assert.match(junit.stderr, /so the JUnit report could not be written/);
  });

  it("-o '' asks for a file name instead of calling the current folder a folder", async () => {
    const dir = project();
    for (const argv of [
      ['run', '-o', ''],
      ['run', '--output='],
      ['run', '--report', ''],
    ]) {
      const r = await runInProcess(argv, dir);
      assert.equal(r.code, 2);
      const flag = argv[1] === '--output=' ? '--output' : argv[1];
      assert.match(
        r.stderr,
        new RegExp(`^error: ${flag} needs a file name \\(see evals run --help\\)`),
      );
      assert.doesNotMatch(r.stderr, /is a folder/);
    }
  });
});
