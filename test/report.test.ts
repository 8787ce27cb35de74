/* eslint-disable no-control-regex -- these tests are about escape sequences and control characters */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  buildArtifact,
  overallVerdict,
  serializeArtifact,
  serializeArtifactChunks,
} from '../src/artifact/artifact.ts';
import { describeFailedEvaluation, formatCount, formatScore } from '../src/report/labels.ts';
import { describeThreshold } from '../src/run/threshold.ts';
import { renderSummary } from '../src/report/summary-table.ts';
import { textWidth } from '../src/shared/text-table.ts';
import type { EvaluationResult, RunResult, Threshold } from '../src/types/index.ts';
import { caseResult, fixtureRuns } from './report-fixture.ts';

const stripAnsi = (text: string): string => text.replace(/\x1b\[[0-9;]*m/g, '');

describe('renderSummary', () => {
  it('renders the grid matrix, failed gate conditions and failing cases with their reasons', () => {
    const expected = [
      'capitals  2 grid points · mean score per evaluator, * best',
      '  model  temperature  verdict  cases  pass rate   exact   tone',
      '  large  0            PASS         2    *100.0%  *1.000  0.800',
      '  small  0            FAIL         6      16.7%   0.400      —',
      '',
      'capitals  model=small temperature=0  FAIL',
      '',
      '  ✗ minPassRate: expected ≥ 0.5, got 0.167',
      '',
      '  cases that did not pass:',
      '    ✗ 2222abcdef0123456789  testsets/capitals.csv:3  exact 0 (needs ≥ 1): expected "Paris", got "Lyon"',
      '    ✗ 3333abcdef0123456789  testsets/capitals.csv:4  exact 0.79996 (needs ≥ 0.8); tone: error: judge timed out at line 2',
      '    ! 4444abcdef0123456789  testsets/capitals.csv:5  error: TypeError: boom …',
      '    ✗ 5555abcdef0123456789  (inline)  did not meet the pass condition',
      '    ✗ 6666abcdef0123456789  testsets/capitals.csv:7  exact 0.2 (needs > 0.5, < 0.9)',
      '',
      'FAIL  1 of 2 runs failed · 8 cases: 3 passed, 4 failed, 1 errored',
      '',
    ].join('\n');
    assert.equal(renderSummary(fixtureRuns(), { color: false, width: 120 }), expected);
  });

  it('emits no escape codes without color, and only adds escape codes with it', () => {
    const plain = renderSummary(fixtureRuns(), { color: false });
    const colored = renderSummary(fixtureRuns(), { color: true });
    assert.doesNotMatch(plain, /\x1b/);
    assert.notEqual(colored, plain);
    assert.equal(stripAnsi(colored), plain);
    assert.match(colored, /\x1b\[32mPASS\x1b\[39m/);
    assert.match(colored, /\x1b\[31mFAIL\x1b\[39m/);
  });

  it('aligns columns by visible width when cells are colored', () => {
    const colored = renderSummary(fixtureRuns(), { color: true }).split('\n');
    const header = colored.findIndex((line) => line.includes('pass rate'));
    const widths = colored.slice(header, header + 3).map(textWidth);
    assert.equal(new Set(widths).size, 1, `rows differ in width: ${widths.join(', ')}`);
  });

  it('lists at most five cases per run and counts the rest', () => {
    const [, failing] = fixtureRuns() as [RunResult, RunResult];
    const extra = [7, 8, 9].map((n) => caseResult(n, { passed: false }));
    failing.cases.push(...extra);
    const text = renderSummary([failing], { color: false });
    assert.match(text, /^ {2}8 cases did not pass, first 5:$/m);
    assert.equal(text.match(/^ {4}[✗!] /gm)?.length, 5);
    assert.doesNotMatch(text, /7777abcdef01/);
  });

  it('puts the reasons of a case too long for the width on lines of their own', () => {
    const text = renderSummary(fixtureRuns(), { color: false, width: 60 });
    const caseLines = text.split('\n').filter((line) => /^ {4}[✗!] /.test(line));
    assert.ok(caseLines.length > 0);
    // The closing verdict line is a sentence, not cut.
    const body = text.split('\n').filter((line) => !/^(PASS|FAIL) /.test(line));
    for (const line of body) assert.ok(textWidth(line) <= 60, line);
    assert.match(
      text,
      /^ {4}✗ 2222abcdef0123456789 {2}testsets\/capitals\.csv:3\n {8}exact 0 \(needs ≥ 1\): expected "Paris", got "Lyon"$/m,
    );
  });

  it('neutralises control characters in user text', () => {
    const [, failing] = fixtureRuns() as [RunResult, RunResult];
    failing.suite = 'evil\x1b[2Jsuite';
    failing.cases = [caseResult(1, { passed: false, error: 'bad\x07\x1b]0;title\x07 thing' })];
    const text = renderSummary([failing], { color: false });
    assert.doesNotMatch(text, /[\x00-\x09\x0b-\x1f]/);
    assert.match(text, /evil\\u001b\[2Jsuite/);
  });

  it('fails the overall verdict when interrupted, and handles no runs', () => {
    const [passing] = fixtureRuns() as [RunResult];
    const last = (text: string): string => text.trimEnd().split('\n').at(-1) ?? '';
    assert.equal(
      last(renderSummary([passing], { color: false })),
      'PASS  1 run passed · 2 cases: 2 passed, 0 failed, 0 errored',
    );
    assert.equal(
      last(renderSummary([passing], { color: false, interrupted: true })),
      'FAIL  interrupted  1 run passed · 2 cases: 2 passed, 0 failed, 0 errored',
    );
    assert.equal(renderSummary([], { color: false }), 'PASS  no runs\n');
  });

  it('shows a run without a grid by its suite id alone', () => {
    const [passing] = fixtureRuns() as [RunResult];
    passing.params = {};
    assert.match(renderSummary([passing], { color: false }), /^capitals {2}PASS$/m);
  });
});

/** A failed evaluation of `score` against `threshold`, for the labels. */
function evaluation(score: number, threshold: Threshold): EvaluationResult {
  return {
    evaluator: 'lev',
    score,
    threshold,
    passed: false,
    metadata: null,
    error: null,
    durationMs: 0,
  };
}

describe('describeThreshold and formatScore', () => {
  it('writes lower bounds first', () => {
    assert.equal(describeThreshold({ gte: 0.8 }), '≥ 0.8');
    assert.equal(describeThreshold({ lt: 0.9, gt: 0.5 }), '> 0.5, < 0.9');
    assert.equal(describeThreshold({ lte: 1, gte: 0 }), '≥ 0, ≤ 1');
    assert.equal(describeThreshold({}), 'any score');
  });

  it('rounds to 3 decimals unless that would print a failing score as its bound', () => {
    assert.equal(formatScore(2 / 3), '0.667');
    assert.equal(formatScore(1), '1');
    assert.equal(formatScore(0.79996, { gte: 0.8 }), '0.79996');
    assert.equal(formatScore(0.79996, { gte: 0.5 }), '0.8');
  });

  it('rounds a computed bound next to a score as the score is, never making them read alike', () => {
    // levenshtein's maxDistance 1 of 3 characters is the bound 1 - 1/3.
    const third = { gte: 1 - 1 / 3 };
    assert.equal(
      describeFailedEvaluation(evaluation(1 - 2 / 3, third)),
      'lev 0.333 (needs ≥ 0.667)',
    );
    // Rounded alike they would read as a pass: both are shown whole.
    assert.equal(
      describeFailedEvaluation(evaluation(0.6666, third)),
      'lev 0.6666 (needs ≥ 0.666666666666667)',
    );
    assert.equal(
      describeFailedEvaluation(evaluation(0.2, { gt: 0.1 + 0.2, lt: 0.9 })),
      'lev 0.2 (needs > 0.3, < 0.9)',
    );
    // A bound the user wrote with more decimals stays as written when the score is near it.
    assert.equal(
      describeFailedEvaluation(evaluation(0.8004, { gte: 0.8005 })),
      'lev 0.8004 (needs ≥ 0.8005)',
    );
  });

  it('shows a derived bound without float noise (levenshtein maxDistance 7 of 10 is ≥ 0.3)', () => {
    assert.equal(describeThreshold({ gte: 1 - 7 / 10 }), '≥ 0.3');
    assert.equal(describeThreshold({ gt: 0.1 + 0.2, lte: 1 - 0.9 }), '> 0.3, ≤ 0.1');
    // A failing score that rounds onto the bound as shown keeps its digits.
    assert.equal(formatScore(0.29996, { gte: 1 - 7 / 10 }), '0.29996');
  });
});

describe('buildArtifact', () => {
  const input = {
    toolVersion: '1.2.3',
    config: 'evals.yaml',
    configHash: 'abc',
    git: { sha: 'f00', ref: null },
    startedAt: new Date('2025-01-02T03:04:05.678Z'),
    durationMs: 1234,
    interrupted: false,
  };

  it('copies the inputs into schemaVersion 1', () => {
    const [passing] = fixtureRuns() as [RunResult];
    const artifact = buildArtifact({ ...input, runs: [passing] });
    assert.deepEqual(
      { ...artifact, runs: artifact.runs.length },
      {
        schemaVersion: 1,
        tool: { name: 'evalgate', version: '1.2.3' },
        config: 'evals.yaml',
        configHash: 'abc',
        git: { sha: 'f00', ref: null },
        startedAt: '2025-01-02T03:04:05.678Z',
        durationMs: 1234,
        interrupted: false,
        verdict: 'pass',
        runs: 1,
      },
    );
  });

  it('passes only when every run passes and the run was not interrupted', () => {
    const [passing, failing] = fixtureRuns() as [RunResult, RunResult];
    assert.equal(buildArtifact({ ...input, runs: [passing, passing] }).verdict, 'pass');
    assert.equal(buildArtifact({ ...input, runs: [passing, failing] }).verdict, 'fail');
    assert.equal(buildArtifact({ ...input, interrupted: true, runs: [passing] }).verdict, 'fail');
    assert.equal(overallVerdict([], false), 'pass');
    assert.equal(overallVerdict([], true), 'fail');
  });
});

describe('serializeArtifact', () => {
  const artifact = buildArtifact({
    toolVersion: '1.2.3',
    config: 'evals.yaml',
    configHash: 'abc',
    git: null,
    startedAt: new Date(0),
    durationMs: 1,
    interrupted: false,
    runs: fixtureRuns(),
  });

  it('writes indented JSON with a trailing newline that parses back', () => {
    const text = serializeArtifact(artifact);
    assert.ok(text.startsWith('{\n  "schemaVersion": 1,\n'));
    assert.ok(text.endsWith('}\n'));
    assert.deepEqual(JSON.parse(text), artifact);
  });

  it('puts each case on one line, and is pretty JSON everywhere else', () => {
    const text = serializeArtifact(artifact);
    const caseLines = text.split('\n').filter((line) => line.startsWith('        {"id":'));
    const cases = artifact.runs.flatMap((run) => run.cases);
    assert.ok(cases.length > 0);
    assert.deepEqual(
      caseLines.map((line) => JSON.parse(line.replace(/,$/, '')) as unknown),
      JSON.parse(JSON.stringify(cases)),
    );
    const noCases = structuredClone(artifact);
    for (const run of noCases.runs) run.cases = [];
    assert.equal(serializeArtifact(noCases), `${JSON.stringify(noCases, null, 2)}\n`);
    assert.equal(
      serializeArtifact({ ...artifact, runs: [] }),
      `${JSON.stringify({ ...artifact, runs: [] }, null, 2)}\n`,
    );
  });

  it('gives the same text chunk by chunk, whatever the run params hold', () => {
    const tricky = structuredClone(artifact);
    const first = tricky.runs[0];
    assert.ok(first);
    // A grid value that looks like the internal split marker must not confuse the writer.
    first.params = { note: '\u0000evalgate-split\u0000', nested: { a: [1, { b: 'x\ny' }] } };
    for (const variant of [artifact, tricky]) {
      const text = [...serializeArtifactChunks(variant)].join('');
      assert.equal(text, serializeArtifact(variant));
      assert.deepEqual(JSON.parse(text), JSON.parse(JSON.stringify(variant)));
    }
    assert.ok([...serializeArtifactChunks(artifact)].length > artifact.runs.length);
  });

  it('survives outputs JSON cannot hold: BigInt and cycles', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const shared = { n: 1 };
    const copy = structuredClone(artifact);
    const target = copy.runs[0]?.cases[0];
    assert.ok(target);
    target.output = { big: 10n, cyclic, a: shared, b: shared };
    const parsed = JSON.parse(serializeArtifact(copy)) as typeof artifact;
    assert.deepEqual(parsed.runs[0]?.cases[0]?.output, {
      big: '10',
      cyclic: { name: 'loop', self: '[Circular]' },
      a: { n: 1 },
      b: { n: 1 },
    });
  });
});

describe('formatCount', () => {
  it('groups thousands with commas', () => {
    const table: [number, string][] = [
      [0, '0'],
      [999, '999'],
      [1000, '1,000'],
      [10000, '10,000'],
      [200000, '200,000'],
      [1234567, '1,234,567'],
    ];
    for (const [n, text] of table) assert.equal(formatCount(n), text);
  });
});
