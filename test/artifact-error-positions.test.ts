/**
 * A results file the schema rejects is reported by JSON pointer and by line and column, so a
 * person can find the value in a file of tens of megabytes: in evalgate's own layout (a case
 * per line, read a case at a time, and the frame around them), compact on one line, with CRLF
 * line ends; and by every command that reads one (spawned, as the user meets them).
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { serializeArtifact } from '../src/artifact/artifact.ts';
import { ArtifactReadError, openArtifactFile, placedProblems } from '../src/artifact/read.ts';
import { locateJsonPointer } from '../src/shared/json-pointer.ts';
import type { CaseResult, RunResult } from '../src/types/index.ts';
import { artifactOf } from './helpers/cases.ts';
import { functionProject, runCli } from './helpers/cli.ts';

const work = await mkdtemp(join(tmpdir(), 'evalgate-positions-test-'));
after(() => rm(work, { recursive: true, force: true }));

/** Line and column of the `n`th (0-based) occurrence of `needle`, counted independently. */
function positionOf(text: string, needle: string, n = 0): string {
  let at = -1;
  for (let k = 0; k <= n; k++) at = text.indexOf(needle, at + 1);
  assert.ok(at >= 0, `${needle} is in the text`);
  const lines = text.slice(0, at).split('\n');
  return `line ${lines.length}, column ${(lines.at(-1) ?? '').length + 1}`;
}

describe('locateJsonPointer', () => {
  const text =
    '{"a": [1, {"b~/c": "x}\\"", "d": [true, null]}], "a\\u0062": 2, "e": 3, "e": {"f": 4}}';
  const cases: [string, string | null][] = [
    ['', '{'],
    ['/a', '['],
    ['/a/0', '1'],
    ['/a/1/b~0~1c', '"x}'],
    ['/a/1/d/1', 'null'],
    ['/ab', '2'],
    // A repeated key: the last, which JSON.parse keeps.
    ['/e/f', '4'],
    ['/e', '{"f'],
    ['/a/2', null],
    ['/zz', null],
    ['/a/1/b~0~1c/0', null],
  ];
  for (const [pointer, starts] of cases) {
    it(`finds ${JSON.stringify(pointer)}`, () => {
      const found = locateJsonPointer(text, pointer);
      if (starts === null) assert.equal(found, null);
      else assert.ok(text.startsWith(starts, found?.value ?? -1), `${found?.value}`);
    });
  }
  it('gives the key of an object member', () => {
    assert.equal(locateJsonPointer(text, '/ab')?.key, text.indexOf('"a\\u0062"'));
  });
});

function testCase(i: number): CaseResult {
  return {
    id: `case-${i}`,
    contentId: `c${i}`,
    source: { file: 'cases.csv', line: i + 2 },
    data: { i, text: 'a "quoted" brace } and ünïcödé' },
    output: `answer ${i}`,
    error: null,
    durationMs: 1,
    passed: true,
    evaluations: [
      {
        evaluator: 'exact',
        score: 1,
        threshold: { gte: 1 },
        passed: true,
        metadata: {},
        error: null,
        durationMs: 1,
      },
    ],
  };
}

function run(suite: string, count: number, first: number): RunResult {
  const cases = Array.from({ length: count }, (_, i) => testCase(first + i));
  return {
    suite,
    params: {},
    testset: { path: 'cases.csv', ref: null, commit: null, revision: 'rev', cases: count },
    verdict: 'pass',
    gate: { conditions: [] },
    summary: {
      cases: count,
      passed: count,
      failed: 0,
      errored: 0,
      passRate: 1,
      evaluators: {},
    },
    plan: { evaluators: ['exact'], trials: 1, gate: {} },
    cases,
  };
}

/** Two runs, so that a frame value of the second comes after the first run's case lines. */
const text = serializeArtifact(artifactOf([run('one', 30, 0), run('two', 5, 100)]));

function refusal(file: string, damaged: string, unknown: 'ignore' | 'refuse' = 'ignore'): string {
  const path = join(work, file);
  writeFileSync(path, damaged);
  try {
    const opened = openArtifactFile(path, file, { unknown });
    opened.frame.runs.forEach((_, r) => [...opened.cases(r)]);
  } catch (error) {
    assert.ok(error instanceof ArtifactReadError && error.kind === 'invalid', String(error));
    return error.message;
  }
  assert.fail('the file was read');
}

describe('a results file the schema rejects', () => {
  it('names the line and column of a case value (read a case at a time)', () => {
    const damaged = text.replace('"id":"case-103"', '"id":103');
    assert.equal(
      refusal('case.json', damaged),
      `case.json is not a results artifact of this evalgate: /runs/1/cases/3/id (${positionOf(damaged, '103,"contentId"')}): must be string, found 103`,
    );
  });

  it('names the line of a frame value after another run\u2019s case lines', () => {
    const damaged = text.replace('"suite": "two"', '"suite": 2');
    assert.equal(
      refusal('frame.json', damaged),
      `frame.json is not a results artifact of this evalgate: /runs/1/suite (${positionOf(damaged, '2,\n      "params"')}): must be string, found 2`,
    );
  });

  it('points at the key of an unexpected property (refused), and at the object missing one', () => {
    const damaged = text
      .replace('"passRate": 1,', '"passRate": 1, "dollars": 3,')
      .replace('"output":"answer 4",', '');
    // A reader that writes what it reads (evals merge, --resume) refuses a property it does not
    // know; one that only reads ignores it, and finds the case's missing property.
    assert.match(
      refusal('keys.json', damaged, 'refuse'),
      new RegExp(
        `^keys\\.json says it was written by evalgate \\S+, not newer than this one \\([^)]+\\), and has fields this evalgate does not know, which the artifact it writes from the file would lose: /runs/0/summary/dollars \\(${positionOf(damaged, '"dollars"')}\\)$`,
      ),
    );
    assert.equal(
      refusal('keys.json', damaged),
      `keys.json is not a results artifact of this evalgate: /runs/0/cases/4 (${positionOf(damaged, '{"id":"case-4"')}): missing property "output"`,
    );
    const missing = damaged.replace('"dollars": 3,', '');
    assert.equal(
      refusal('missing.json', missing),
      `missing.json is not a results artifact of this evalgate: /runs/0/cases/4 (${positionOf(missing, '{"id":"case-4"')}): missing property "output"`,
    );
  });

  it('counts in the file as written: compact on one line, and with CRLF line ends', () => {
    const compact = JSON.stringify(JSON.parse(text.replace('"score":1', '"score":"1"')));
    assert.equal(
      refusal('compact.json', compact),
      `compact.json is not a results artifact of this evalgate: /runs/0/cases/0/evaluations/0/score (${positionOf(compact, '"1"')}): must be number or null, found "1"`,
    );
    const crlf = text.replace('"suite": "two"', '"suite": 2').replaceAll('\n', '\r\n');
    assert.match(
      refusal('crlf.json', crlf),
      new RegExp(`/runs/1/suite \\(${positionOf(crlf, '2,\r\n')}\\): must be string`),
    );
  });
});

describe('placedProblems (compare and run --baseline read a file not in the layout whole)', () => {
  it('places only the problems a message lists, so every case wrong costs one scan per line shown', () => {
    // Placing each of 100,000 problems scanned the 50 MB text 100,000 times: a compare that
    // refused such a file in a second before the positions took hours.
    const compact = JSON.stringify(
      JSON.parse(text.replaceAll('"passed":true,"evaluations"', '"passed":"yes","evaluations"')),
    );
    const { problems, all } = placedProblems(compact, JSON.parse(compact));
    assert.equal(all, true);
    assert.equal(problems.length, 35);
    assert.equal(problems.filter((p) => /^\S+ \(line 1, column \d+\): /.test(p)).length, 3);
    assert.equal(problems[3], '/runs/0/cases/3/passed: must be boolean, found "yes"');
  });
});

describe('every command reading a damaged results file says where the value is', () => {
  const dir = functionProject({ 'fn.ts': 'export const fn = () => "x";\n' });
  const ok = join(dir, 'ok.json');

  it('show, report, compare, override, run --baseline and run --resume', async () => {
    const first = await runCli(['run', '-o', 'ok.json'], { cwd: dir });
    assert.equal(first.code, 0, first.stderr);
    const good = readFileSync(ok, 'utf8');
    // Marked interrupted too, so that --resume reads its cases rather than refusing a whole run.
    const damaged = good
      .replace('"passed":true', '"passed":"yes"')
      .replace('"interrupted": false', '"interrupted": true');
    await writeFile(join(dir, 'bad.json'), damaged);
    const where = `/runs/0/cases/0/passed (${positionOf(damaged, '"yes"')}): must be boolean, found "yes"`;
    const commands: [string[], string][] = [
      [['show', 'bad.json'], 'evals show: bad.json is not a results artifact of this evalgate'],
      [
        ['report', 'bad.json', '-o', 'r.html'],
        'evals report: bad.json is not a results artifact of this evalgate',
      ],
      [['compare', 'ok.json', 'bad.json'], 'bad.json  not a valid results artifact'],
      [['compare', 'bad.json', 'ok.json'], 'bad.json  not a valid results artifact'],
      [
        ['override', 'bad.json', '--case', 'x', '--evaluator', 'ok', '--score', '1'],
        'evals override: bad.json is not a results artifact of this evalgate',
      ],
      [
        ['run', '--baseline', 'bad.json', '-o', 'x.json'],
        '--baseline bad.json is not a results artifact',
      ],
      [
        ['run', '--resume', 'bad.json'],
        '--resume bad.json is not a results artifact of this evalgate',
      ],
    ];
    for (const [args, says] of commands) {
      const r = await runCli(args, { cwd: dir });
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stderr, `error: ${says}: ${where}\n`, args.join(' '));
    }
  });
});
