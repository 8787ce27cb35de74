import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  buildAnnotations,
  toWorkflowCommands,
  unannotatedText,
  type Annotation,
} from '../src/report/annotations.ts';
import { MAX_WORKFLOW_COMMAND_ANNOTATIONS } from '../src/report/github-limits.ts';
import type { RunResult } from '../src/types/index.ts';
import { evaluation, fixtureRuns } from './report-fixture.ts';
import { reported } from './helpers/cases.ts';
import { artifactOf, failingRun, NASTY, nastyRun, passingRun } from './report-fixture-large.ts';

const OPTIONS = { sourceRoot: 'evals', configPath: 'evals/evals.yaml' };

function annotate(runs: RunResult[], options = OPTIONS): Annotation[] {
  return buildAnnotations(reported(artifactOf(runs)), options);
}

describe('buildAnnotations', () => {
  it('annotates each failed or errored case at its row, and no passing case', () => {
    const expected: Annotation[] = [
      {
        path: 'evals/evals.yaml',
        start_line: 1,
        end_line: 1,
        annotation_level: 'failure',
        title: 'capitals: case 5555abcdef0123456789 failed: did not meet the pass condition',
        message: 'model=small temperature=0: failed\n  did not meet the pass condition',
        raw_details: '{"answer":"Capital 5"}',
      },
      {
        path: 'evals/testsets/capitals.csv',
        start_line: 3,
        end_line: 3,
        annotation_level: 'failure',
        title: 'capitals: case 2222abcdef0123456789 failed: exact 0 (needs ≥ 1)',
        message:
          'model=small temperature=0: failed\n  exact 0 (needs ≥ 1) — expected "Paris", got "Lyon"',
        raw_details: '{"answer":"Lyon"}',
      },
      {
        path: 'evals/testsets/capitals.csv',
        start_line: 4,
        end_line: 4,
        annotation_level: 'failure',
        title: 'capitals: case 3333abcdef0123456789 failed: exact 0.79996 (needs ≥ 0.8) (+1 more)',
        message:
          'model=small temperature=0: failed\n  exact 0.79996 (needs ≥ 0.8)\n  tone: error: judge timed out\n  at line 2',
        raw_details: '{"answer":"Capital 3"}',
      },
      {
        path: 'evals/testsets/capitals.csv',
        start_line: 5,
        end_line: 5,
        annotation_level: 'failure',
        title: 'capitals: case 4444abcdef0123456789 errored: TypeError: boom …',
        message:
          'model=small temperature=0: errored\n  TypeError: boom\n      at answer (app/answer.ts:3:9)',
      },
      {
        path: 'evals/testsets/capitals.csv',
        start_line: 7,
        end_line: 7,
        annotation_level: 'failure',
        title: 'capitals: case 6666abcdef0123456789 failed: exact 0.2 (needs > 0.5, < 0.9)',
        message: 'model=small temperature=0: failed\n  exact 0.2 (needs > 0.5, < 0.9)',
        raw_details: '{"answer":"Capital 6"}',
      },
    ];
    assert.deepEqual(annotate(fixtureRuns()), expected);
  });

  it('names a case by its whole dedup id, however long', () => {
    const run = failingRun(2, { suite: 'qa' });
    run.cases.forEach((result, index) => (result.id = `question-000${index + 1}`));
    const titles = annotate([run]).map((annotation) => annotation.title);
    assert.deepEqual(titles.sort(), [
      'qa: case question-0001 failed: exact 0 (needs ≥ 1)',
      'qa: case question-0002 failed: exact 0 (needs ≥ 1)',
    ]);
  });

  it('has no heading line for a run without a grid, and gives the reason from metadata', () => {
    const [annotation] = annotate([failingRun(1, { suite: 'qa' })]);
    assert.ok(annotation);
    assert.equal(annotation.title, 'qa: case case-00001 failed: exact 0 (needs ≥ 1)');
    assert.equal(annotation.message, 'exact 0 (needs ≥ 1) — row 1 did not match');
  });

  it('merges one case failing in several grid points into one annotation listing them', () => {
    const small = failingRun(2, { params: { model: 'small' } });
    const large = failingRun(2, { params: { model: 'large' } });
    const different = large.cases[1];
    assert.ok(different);
    different.output = 'another answer';
    different.evaluations = [evaluation('exact', 0.5, { gte: 1 })];
    const annotations = annotate([small, large, passingRun({ model: 'medium' })]);
    assert.equal(annotations.length, 2);
    const [same, differing] = annotations;
    assert.ok(same && differing);
    assert.equal(same.title, 'big: case case-00001 failed in 2 runs: exact 0 (needs ≥ 1)');
    assert.equal(
      same.message,
      'model=small; model=large: failed\n  exact 0 (needs ≥ 1) — row 1 did not match',
    );
    assert.match(same.raw_details ?? '', /^model=small; model=large:\nanswer 1: lorem/);
    assert.equal(
      differing.message,
      [
        'model=small: failed',
        '  exact 0 (needs ≥ 1) — row 2 did not match',
        '',
        'model=large: failed',
        '  exact 0.5 (needs ≥ 1)',
      ].join('\n'),
    );
    assert.match(differing.raw_details ?? '', /\n\nmodel=large:\nanother answer$/);
  });

  it('names the suites when suites sharing a testset fail on the same row', () => {
    const annotations = annotate([
      failingRun(1, { suite: 'qa-fast' }),
      failingRun(1, { suite: 'qa-slow' }),
    ]);
    assert.equal(annotations.length, 1);
    assert.match(
      annotations[0]?.title ?? '',
      /^qa-fast, qa-slow: case case-00001 failed in 2 runs/,
    );
    assert.match(annotations[0]?.message ?? '', /^qa-fast; qa-slow: failed\n/);
  });

  it('says errored only when the case errored everywhere', () => {
    const errored = failingRun(1, { params: { model: 'a' } });
    const failed = failingRun(1, { params: { model: 'b' } });
    const first = errored.cases[0];
    assert.ok(first);
    first.error = 'timed out after 30s';
    first.output = null;
    first.evaluations = [];
    const [mixed] = annotate([errored, failed]);
    assert.match(mixed?.title ?? '', /^big: case case-00001 failed in 2 runs: exact 0/);
    assert.equal(
      mixed?.message,
      'model=a: errored\n  timed out after 30s\n\nmodel=b: failed\n  exact 0 (needs ≥ 1) — row 1 did not match',
    );
    // Only the run that produced an output has one.
    assert.match(mixed?.raw_details ?? '', /^model=b:\nanswer 1/);
    const [onlyErrored] = annotate([errored]);
    assert.equal(onlyErrored?.title, 'big: case case-00001 errored: timed out after 30s');
    assert.equal(onlyErrored?.raw_details, undefined);
  });

  it('joins sources in subfolders, inline sources and the repo root as POSIX paths', () => {
    const run = failingRun(3);
    const [a, b, c] = run.cases;
    assert.ok(a && b && c);
    a.source = { file: 'data\\sub\\qa.jsonl', line: 9 };
    b.source = { file: 'evals.yaml', line: 14 };
    c.source = { file: '../shared/qa.csv', line: 2 };
    const paths = (options: typeof OPTIONS): string[] =>
      annotate([run], options).map((annotation) => `${annotation.path}:${annotation.start_line}`);
    assert.deepEqual(paths({ sourceRoot: 'evals', configPath: 'evals/evals.yaml' }), [
      'evals/data/sub/qa.jsonl:9',
      'evals/evals.yaml:14',
      'shared/qa.csv:2',
    ]);
    // A row outside the repository goes on the config's first line (GitHub takes no `../`).
    assert.deepEqual(paths({ sourceRoot: '', configPath: 'evals.yaml' }), [
      'data/sub/qa.jsonl:9',
      'evals.yaml:1',
      'evals.yaml:14',
    ]);
    assert.deepEqual(paths({ sourceRoot: './ci/evals/', configPath: 'ci/evals/e.yaml' }), [
      'ci/evals/data/sub/qa.jsonl:9',
      'ci/evals/evals.yaml:14',
      'ci/shared/qa.csv:2',
    ]);
  });

  it('puts cases without a source at line 1 of the config, one annotation per case', () => {
    const run = failingRun(2);
    for (const result of run.cases) result.source = null;
    const annotations = annotate([run], { sourceRoot: 'x', configPath: 'x/evals.yaml' });
    assert.deepEqual(
      annotations.map((a) => [a.path, a.start_line, a.end_line, a.title.slice(0, 22)]),
      [
        ['x/evals.yaml', 1, 1, 'big: case case-00001 f'],
        ['x/evals.yaml', 1, 1, 'big: case case-00002 f'],
      ],
    );
  });

  it('orders by path, then line', () => {
    const run = failingRun(4);
    const files = ['b.csv', 'a.csv', 'b.csv', 'a.csv'];
    const lines = [3, 20, 1, 4];
    run.cases.forEach((result, i) => {
      result.source = { file: files[i] ?? '', line: lines[i] ?? 0 };
    });
    assert.deepEqual(
      annotate([run], { sourceRoot: '', configPath: 'evals.yaml' }).map(
        (a) => `${a.path}:${a.start_line}`,
      ),
      ['a.csv:4', 'a.csv:20', 'b.csv:1', 'b.csv:3'],
    );
  });

  it('gives 120 failing cases 120 annotations', () => {
    const annotations = annotate([failingRun(120), passingRun({})]);
    assert.equal(annotations.length, 120);
    assert.equal(new Set(annotations.map((a) => a.start_line)).size, 120);
  });

  it('keeps titles to 255 characters on one line and bounds message and details', () => {
    const run = failingRun(1, { outputChars: 100_000 });
    const first = run.cases[0];
    assert.ok(first);
    run.suite = `suite\n${'s'.repeat(400)}`;
    first.evaluations = Array.from({ length: 200 }, (_, i) =>
      evaluation(`e${i}`, 0, { gte: 1 }, { metadata: { reason: '理由'.repeat(2000) } }),
    );
    const [annotation] = annotate([run]);
    assert.ok(annotation);
    assert.ok([...annotation.title].length <= 255);
    assert.doesNotMatch(annotation.title, /\n/);
    assert.ok(Buffer.byteLength(annotation.message) <= 64 * 1024);
    assert.match(annotation.message, /cut to fit the annotation size limit\)$/);
    assert.ok((annotation.raw_details ?? '').length < 3000);
    assert.match(annotation.raw_details ?? '', /more characters\)$/);
  });

  it('keeps user text as it is: annotations are plain text, not markdown', () => {
    const [failed, errored] = annotate([nastyRun()]);
    assert.ok(failed && errored);
    assert.equal(failed.path, 'evals/testsets/`we|ird`.csv');
    const shown = NASTY.replace('\u202E', '\\u202e')
      .replace('\u202C', '\\u202c')
      .replace('\u0000', '\\u0000')
      .replace('\u001b', '\\u001b');
    const indented = shown.split('\n').join('\n  ');
    assert.ok(failed.message.includes(`  first-string 0.1 (needs ≥ 0.5) — note: ${indented}`));
    assert.ok(failed.raw_details?.startsWith(shown));
    assert.ok(errored.message.includes(indented));
    // The suite id alone fills the title here; it is cut, not escaped.
    assert.ok(errored.title.startsWith('suite|</summary></details><script>'));
    assert.ok(errored.title.endsWith('…'));
  });
});

describe('unannotatedText', () => {
  it('says how many failing rows the check run annotated, of how many', () => {
    assert.equal(
      unannotatedText(500, 1234),
      'Annotations on the first 500 of the 1,234 failing rows (`max-annotations`); every one is in the results artifact.',
    );
    assert.equal(
      unannotatedText(0, 1),
      'No annotations for the 1 failing row (`max-annotations` is 0): every one is in the results artifact.',
    );
  });
});

describe('toWorkflowCommands', () => {
  it('gives the first 10 annotations as file, line, title and message', () => {
    const annotations = annotate([failingRun(25)]);
    const commands = toWorkflowCommands(annotations);
    assert.equal(MAX_WORKFLOW_COMMAND_ANNOTATIONS, 10);
    assert.equal(commands.length, 10);
    assert.deepEqual(commands[0], {
      file: 'evals/testsets/capitals.csv',
      line: 2,
      title: 'big: case case-00001 failed: exact 0 (needs ≥ 1)',
      message: 'exact 0 (needs ≥ 1) — row 1 did not match',
    });
    assert.deepEqual(toWorkflowCommands(annotations.slice(0, 3)).length, 3);
    assert.deepEqual(toWorkflowCommands([]), []);
  });

  it('has nothing to say about a passing artifact', () => {
    const [passing] = fixtureRuns();
    assert.ok(passing);
    assert.deepEqual(annotate([passing, passingRun({ m: 1 })]), []);
  });
});

// A run whose case ids repeat across rows must still not lose a failure.
describe('buildAnnotations with repeated ids', () => {
  it('keeps the same id on different rows apart', () => {
    const run = failingRun(2);
    for (const result of run.cases) result.id = 'dup';
    const annotations = annotate([run]);
    assert.equal(annotations.length, 2);
  });
});
