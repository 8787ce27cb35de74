/**
 * QA pass 7, the terminal summary of `evals run` at narrow widths: grid values that keep the
 * rows of the matrix apart (and a matrix that never overflows), grouped errors that keep their
 * cause, and reasons that keep their score, threshold and `got` value.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { painter } from '../src/report/ansi.ts';
import { cutApart, renderMatrixText, splitHeader } from '../src/report/grid-matrix-text.ts';
import type { GridMatrix } from '../src/report/grid-matrix.ts';
import { cutReason } from '../src/report/reason-cut.ts';
import { renderSummary } from '../src/report/summary-table.ts';
import { textWidth } from '../src/shared/text-table.ts';
import type { CaseResult } from '../src/types/index.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const plain = painter(false);
const SONNET = 'claude-3-5-sonnet-20241022';
const HAIKU = 'claude-3-5-haiku-20241022';

/** The lines of `text` wider than `width`. */
function tooWide(text: string, width: number): string[] {
  return text.split('\n').filter((line) => textWidth(line) > width);
}

/** The lines from the one matching `start` to the next blank line. */
function section(text: string, start: RegExp): string[] {
  const lines = text.split('\n');
  const from = lines.findIndex((line) => start.test(line));
  assert.ok(from !== -1, text);
  const to = lines.findIndex((line, index) => index > from && line.trim() === '');
  return lines.slice(from, to === -1 ? undefined : to);
}

async function run(dir: string, columns: string): Promise<string> {
  const result = await runInProcess(['run', '-o', 'r.json'], dir, { COLUMNS: columns });
  return result.stdout + result.stderr;
}

const claudeProject = (): string =>
  jsonlProject(
    [{ question: 'q1', output: 'answer one', expected: 'answer one' }],
    [
      'grid:',
      `  model: [${SONNET}, ${HAIKU}]`,
      '  prompt: [prompts/v1.md, prompts/v2.md]',
      'evaluators:',
      "  - { id: correct, use: is-equals, with: { expected: '{{case.expected}}' } }",
      "  - { id: faithful, use: has-all-substrings, with: { substrings: ['{{case.expected}}'] } }",
      "  - { id: relevant, use: levenshtein, with: { expected: '{{case.expected}}' } }",
    ],
  );

describe('grid matrix at narrow widths (QA 1)', () => {
  for (const columns of ['80', '60', '40']) {
    it(`keeps the four grid points apart and within COLUMNS=${columns}`, async () => {
      const output = await run(claudeProject(), columns);
      const matrix = section(output, /^s {2}4 grid points/);
      assert.deepEqual(tooWide(matrix.join('\n'), Number(columns)), [], matrix.join('\n'));
      // Each grid point shows its distinguishing parts: the model's and the prompt's.
      const text = matrix.join('\n');
      for (const part of ['sonnet', 'haiku', '1.md', '2.md']) assert.ok(text.includes(part), text);
      const rows = matrix.filter((line) => /sonnet|haiku/.test(line));
      const points = rows.map((line) => `${/sonnet/.test(line)}`);
      assert.equal(points.filter((point) => point === 'true').length, 2, text);
      assert.equal(points.filter((point) => point === 'false').length, 2, text);
      assert.ok(!/claude-3-…|claud…\s/.test(text), text);
      // Where a line names both, no two grid points read the same.
      const whole = rows.filter((line) => line.includes('.md')).map((line) => line.trim());
      assert.equal(new Set(whole).size, whole.length, text);
    });
  }

  it('keeps gpt-4o and gpt-4o-mini apart and the header temperature whole at the pipe width', async () => {
    const dir = jsonlProject(
      [{ question: 'q1', output: 'answer one', expected: 'answer one' }],
      [
        'grid:',
        '  model: [gpt-4o-2024-08-06, gpt-4o-mini-2024-07-18]',
        '  prompt: [prompts/v1.md, prompts/v2.md]',
        '  temperature: [0, 0.7]',
        'evaluators:',
        "  - { id: answer-correctness, use: is-equals, with: { expected: '{{case.expected}}' } }",
        "  - { id: faithfulness-check, use: has-all-substrings, with: { substrings: ['{{case.expected}}'] } }",
        '  - { id: response-length, use: length, with: { max: 200 } }',
        "  - { id: answer-relevancy, use: levenshtein, with: { expected: '{{case.expected}}' } }",
      ],
    );
    const output = await run(dir, '');
    const matrix = section(output, /^s {2}8 grid points/);
    const text = matrix.join('\n');
    assert.deepEqual(tooWide(text, 160), [], text);
    assert.ok(text.includes('temperature'), text);
    assert.ok(!text.includes('tempe…'), text);
    // One line per grid point names its model, prompt and temperature, all eight different.
    const points = matrix
      .filter((line) => /08-06|mini/.test(line))
      .map((line) => [/mini/.test(line), /1\.md/.test(line), /0\.7/.test(line)].join());
    assert.equal(points.length, 8, text);
    assert.equal(new Set(points).size, 8, text);
  });

  it('cuts grid values where they agree, never so far that two read the same', () => {
    const cut = cutApart([SONNET, HAIKU, SONNET], 14);
    assert.ok(cut !== null);
    const sonnet = cut.get(SONNET)!;
    const haiku = cut.get(HAIKU)!;
    assert.notEqual(sonnet, haiku);
    assert.ok(sonnet.includes('sonnet') && textWidth(sonnet) <= 14, sonnet);
    assert.ok(haiku.includes('haiku') && textWidth(haiku) <= 14, haiku);
    assert.equal(cutApart(['prompts/v1.md', 'prompts/v2.md'], 7)?.get('prompts/v1.md'), 'pr…1.md');
    // Too narrow for `sonnet` and a `…` on each side: no cut rather than a misleading one.
    assert.equal(cutApart([SONNET, HAIKU], 7), null);
  });

  it('puts a long header on two lines at a break, else leaves it whole', () => {
    assert.deepEqual(splitHeader('answer-correctness', 6), ['answer-', 'correctness']);
    assert.deepEqual(splitHeader('pass rate', 6), ['pass', 'rate']);
    assert.deepEqual(splitHeader('temperature', 3), ['temperature', '']);
    assert.deepEqual(splitHeader('answer-correctness', 20), ['answer-correctness', '']);
  });

  it('renders the matrix within any width, and as before when it fits', () => {
    const matrix: GridMatrix = {
      suite: 'qa',
      keys: ['model'],
      evaluators: ['answer-correctness'],
      rows: [SONNET, HAIKU].map((model, run) => ({
        run,
        params: { model },
        cases: 1,
        passRate: run === 0 ? 1 : 0.5,
        verdict: 'pass',
        means: [run === 0 ? 1 : 0.5],
      })),
      bestPassRate: 1,
      bestMeans: [1],
      lowerIsBetter: [false],
    };
    for (const width of [40, 50, 60]) {
      const lines = renderMatrixText(matrix, plain, '  ', width);
      assert.deepEqual(tooWide(lines.join('\n'), width), [], lines.join('\n'));
      assert.ok(
        lines.some((line) => line.includes('sonnet')) &&
          lines.some((line) => line.includes('haiku')),
      );
    }
    assert.deepEqual(renderMatrixText(matrix, plain, '  ', 100), [
      'qa  2 grid points · mean score per evaluator, * best',
      '  model                       verdict  cases  pass rate  answer-correctness',
      `  ${SONNET}  PASS         1    *100.0%              *1.000`,
      `  ${HAIKU}   PASS         1      50.0%               0.500`,
    ]);
  });
});

const TRACEBACK =
  'the command exited with code 1; stderr: Traceback (most recent call last):\\n  File "agent.py", line 3, in <module>\\n    import openai\\n\\nModuleNotFoundError: No module named \'openai\'';

describe('errors counted once keep their cause (QA 3)', () => {
  for (const columns of ['80', '']) {
    it(`shows the first line and the cause at ${columns || 'the pipe width'}`, async () => {
      const dir = jsonlProject(
        [1, 2, 3, 4].map((i) => ({ i })),
        [
          'function: ./fn.mjs#run',
          'evaluators: [ { id: eq, use: is-equals, with: { expected: ok } } ]',
        ],
        {
          'fn.mjs': `export async function run({ testCase }) {\n  if (testCase.i % 2) throw new Error('${TRACEBACK.replace(/'/g, "\\'")}');\n  return 'ok';\n}\n`,
        },
      );
      const output = await run(dir, columns);
      const errors = section(output, /errors \(identical ones counted once\)/);
      // The counted line and, when it is too long for one, its rest on the next (further in).
      const at = errors.findIndex((line) => line.includes('2 × error:'));
      assert.ok(at !== -1, output);
      const rest = errors[at + 1]?.startsWith('      ') === true ? [errors[at + 1] ?? ''] : [];
      const lines = [errors[at] ?? '', ...rest];
      const counted = lines.join('\n');
      assert.ok(lines[0]?.includes('2 × error: the command'), counted);
      assert.ok(counted.endsWith("ModuleNotFoundError: No module named 'openai'"), counted);
      assert.ok(!counted.includes('⏎'), counted);
      for (const line of lines) assert.ok(textWidth(line) <= (Number(columns) || 160), line);
    });
  }

  it("leaves a Node error's stack frames out of the grouped line", () => {
    const error = 'boom: the agent crashed\n    at run (agent.js:1:1)\n    at main (agent.js:9:1)';
    const failing = (id: string): CaseResult => ({
      id,
      contentId: 'c',
      source: { file: 'd.csv', line: 2 },
      data: {},
      output: null,
      error,
      durationMs: 1,
      passed: false,
      evaluations: [],
    });
    const summary = { total: 2, passed: 0, failed: 0, errored: 2, passRate: 0, evaluators: {} };
    const runResult = {
      suite: 's',
      params: {},
      passed: false,
      cases: [failing('a'), failing('b')],
      summary,
      gate: { passed: false, conditions: [] },
      durationMs: 1,
    };
    const text = renderSummary([runResult] as never, { color: false, width: 100 });
    const counted = text.split('\n').find((line) => line.includes('2 × error:'));
    assert.equal(counted?.trim(), '2 × error: boom: the agent crashed …');
  });
});

describe('reasons on a narrow terminal (QA 4)', () => {
  const project = (): string =>
    jsonlProject(
      [{ q: 'q1', output: 'answer one with some words', expected: 'answer one' }],
      [
        'evaluators:',
        "  - { id: exact-match-evaluator, use: is-equals, with: { expected: '{{case.expected}}' } }",
        '  - { id: length-check-long-id, use: length, with: { max: 20 } }',
      ],
    );

  it('puts the framing whole on a line and the reason under it at COLUMNS=60', async () => {
    const output = await run(project(), '60');
    const lines = section(output, /cases that did not pass/);
    assert.deepEqual(tooWide(lines.join('\n'), 60), [], lines.join('\n'));
    const at = (framing: string): number => lines.findIndex((line) => line.trim() === framing);
    const length = at('length-check-long-id 0 (needs ≥ 1):');
    assert.ok(length !== -1, lines.join('\n'));
    assert.equal(lines[length + 1]?.trim(), 'length 26 characters > max 20');
    const exact = at('exact-match-evaluator 0 (needs ≥ 1):');
    assert.ok(exact !== -1, lines.join('\n'));
    // A quoted value keeps its start, cut after whole characters at its end.
    assert.match(lines[exact + 1] ?? '', /^ +expected "answer one", got "answer one with[^"]*…"$/);
  });

  it('keeps the score, the threshold and both values at COLUMNS=40', async () => {
    const output = await run(project(), '40');
    const lines = section(output, /cases that did not pass/);
    const text = lines.join('\n');
    assert.deepEqual(tooWide(text, 40), [], text);
    assert.equal(lines.filter((line) => line.trim().endsWith(' 0 (needs ≥ 1):')).length, 2, text);
    assert.ok(
      lines.some((line) => /expected "[^"]*", got "[^"]*"$/.test(line)),
      text,
    );
  });

  it('cuts both values of a reason rather than its `got` when room is short', () => {
    const reason = 'expected "answer one", got "answer one with some words"';
    const cut = cutReason(reason, 30);
    assert.ok(textWidth(cut) <= 30, cut);
    assert.match(cut, /^expected "[^"]+", got "[^"]+"$/);
  });
});
