/**
 * A damaged results file (a sed over every case, a hand edit) is refused at the cost of its first
 * few problems: collecting stops after COLLECTED_PROBLEMS, the message lists three and says there
 * are more, counting them only when all were collected. Before, every problem of the file was
 * collected (one per case: 86 s for `evals compare` on 100,000 cases).
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  artifactProblems,
  caseProblems,
  COLLECTED_PROBLEMS,
  listProblems,
  problemText,
} from '../src/artifact/schema.ts';
import type { CaseResult, RunResult } from '../src/types/index.ts';
import { artifactOf } from './helpers/cases.ts';
import { functionProject, runCli } from './helpers/cli.ts';

function testCase(i: number): CaseResult {
  return {
    id: `case-${i}`,
    contentId: `c${i}`,
    source: { file: 'cases.csv', line: i + 2 },
    data: { i },
    output: 'x',
    error: null,
    durationMs: 1,
    passed: true,
    evaluations: [],
  };
}

function runOf(cases: CaseResult[]): RunResult {
  const count = cases.length;
  return {
    suite: 'one',
    params: {},
    testset: { path: 'cases.csv', ref: null, commit: null, revision: 'rev', cases: count },
    verdict: 'pass',
    gate: { conditions: [] },
    summary: { cases: count, passed: count, failed: 0, errored: 0, passRate: 1, evaluators: {} },
    plan: { evaluators: [], trials: 1, gate: {} },
    cases,
  };
}

describe('collecting the schema problems of a results file', () => {
  it('stops after a few, reading no case past them, when every case has a mistake', () => {
    // Each case's `passed` says which cases the validation read at all.
    const read = new Set<number>();
    const cases = Array.from({ length: 100_000 }, (_, i) => {
      const result = testCase(i);
      Object.defineProperty(result, 'passed', {
        enumerable: true,
        get: () => (read.add(i), 'yes'),
      });
      return result;
    });
    const found = artifactProblems(artifactOf([runOf(cases)]));
    assert.equal(found.all, false);
    assert.equal(found.problems.length, COLLECTED_PROBLEMS);
    assert.equal(
      problemText(found.problems[2]!),
      '/runs/0/cases/2/passed: must be boolean, found "yes"',
    );
    assert.ok(read.size <= COLLECTED_PROBLEMS + 1, `${read.size} cases read`);
    const listed = listProblems({ problems: found.problems.map(problemText), all: found.all });
    assert.match(listed, /cases\/2\/passed: must be boolean, found "yes" \(and more\)$/);
  });

  it('counts them when there are few, across runs and cases', () => {
    const cases = Array.from({ length: 50 }, (_, i) => testCase(i));
    const bad = (i: number): CaseResult => ({ ...testCase(i), passed: 'no' as unknown as boolean });
    const other = { ...runOf([bad(0), testCase(1), bad(2)]), suite: 3 as unknown as string };
    const found = artifactProblems(artifactOf([runOf([...cases, bad(50)]), other]));
    assert.deepEqual(found.problems.map(problemText), [
      '/runs/0/cases/50/passed: must be boolean, found "no"',
      '/runs/1/suite: must be string, found 3',
      '/runs/1/cases/0/passed: must be boolean, found "no"',
      '/runs/1/cases/2/passed: must be boolean, found "no"',
    ]);
    const texts = { problems: found.problems.map(problemText), all: found.all };
    assert.match(listProblems(texts), /found "no"; \/runs\/1\/suite: .*found "no" \(and 1 more\)$/);
    assert.deepEqual(caseProblems(testCase(0)), { problems: [], all: true });
  });

  it('gives every problem of a case read on its own', () => {
    const found = caseProblems({ ...testCase(0), passed: 1, durationMs: 'x', extra: 3 });
    assert.equal(found.all, true);
    assert.deepEqual(found.problems.map(problemText), [
      '/: unexpected property "extra"',
      '/durationMs: must be number, found "x"',
      '/passed: must be boolean, found 1',
    ]);
  });
});

describe('every command reading a file damaged in every case lists three problems and more', () => {
  const dir = functionProject({ 'fn.ts': 'export const fn = () => "x";\n' }, [], 150);

  it('show, report, compare, override, run --baseline and run --resume', async () => {
    const first = await runCli(['run', '-o', 'ok.json'], { cwd: dir });
    assert.equal(first.code, 0, first.stderr);
    const damaged = readFileSync(join(dir, 'ok.json'), 'utf8')
      .replaceAll('"passed":true', '"passed":"yes"')
      .replace('"interrupted": false', '"interrupted": true');
    // In evalgate's layout (a case per line), and compact: read whole, every case validated.
    writeFileSync(join(dir, 'lines.json'), damaged);
    writeFileSync(join(dir, 'compact.json'), JSON.stringify(JSON.parse(damaged)));
    const commands: [string[], string][] = [
      [['show', 'compact.json'], 'evals show: compact.json is not a results artifact'],
      [['report', 'compact.json', '-o', 'r.html'], 'evals report: compact.json is not a results'],
      [['compare', 'ok.json', 'compact.json'], 'compact.json  not a valid results artifact'],
      [['compare', 'lines.json', 'ok.json'], 'lines.json  not a valid results artifact'],
      [
        ['override', 'compact.json', '--case', 'x', '--evaluator', 'ok', '--score', '1'],
        'evals override: compact.json is not a results artifact',
      ],
      [['run', '--baseline', 'compact.json', '-o', 'x.json'], '--baseline compact.json is not'],
      [['run', '--baseline', 'lines.json', '-o', 'x.json'], '--baseline lines.json is not'],
      [['run', '--resume', 'compact.json'], '--resume compact.json is not a results artifact'],
    ];
    for (const [args, says] of commands) {
      const r = await runCli(args, { cwd: dir });
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.ok(r.stderr.startsWith(`error: ${says}`), r.stderr);
      // Three problems, placed, and no count of the others (uncounted: collecting stopped).
      assert.equal(r.stderr.match(/\(line \d+, column \d+\): must be boolean/g)?.length, 3);
      assert.ok(r.stderr.endsWith('found "yes" (and more)\n'), `${args.join(' ')}: ${r.stderr}`);
    }
  });
});
