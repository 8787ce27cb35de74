/**
 * Bad input that used to lose data or pass CI silently:
 *
 * - `evals run -o evals.yaml` (or `--junit`/`--report` naming the testset or a module) wrote the
 *   results over the files the run reads; it is refused before anything runs (exit 2).
 * - A module that calls `process.exit(0)` when it is imported ended `evals run` and `validate`
 *   with exit 0, no word and no artifact; the CLI now names the module and exits 2.
 * - `--grid constructor=1` (a key named like a member of every object) crashed with a stack trace
 *   in run, show and override; such keys are keys like any other.
 *
 * Through the built CLI (bin/evals.js): the exit watch lives in the process's own entry.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.ts';
import { suiteProject } from './helpers/suite-project.ts';
import { runInProcess } from './helpers/in-process.ts';

function project(grid = ''): string {
  return suiteProject(
    [
      'testset: { path: data.csv }',
      'function: ./app/fn.mjs#fn',
      ...(grid === '' ? [] : [`grid: ${grid}`]),
      'evaluators:',
      '  - { id: eq, use: is-equals, with: { expected: "{{case.a}}" } }',
    ],
    {
      'data.csv': 'a,b\nx,1\ny,2\n',
      'app/fn.mjs':
        "import { helper } from './helper.mjs';\nexport async function fn({ testCase }) { return helper(testCase.a); }\n",
      'app/helper.mjs': 'export const helper = (text) => text;\n',
    },
  );
}

describe('evals run never writes over the files it reads', () => {
  const CASES: [flag: string, file: string, said: RegExp][] = [
    [
      '-o',
      'evals.yaml',
      /^error: -o evals\.yaml: the config itself, which the run reads; name another file \(nothing was run\)$/m,
    ],
    ['-o', 'data.csv', /^error: -o data\.csv: the testset of suite s, which the run reads/m],
    [
      '--junit',
      'app/fn.mjs',
      /^error: --junit app\/fn\.mjs: a module the config loads \(or a file it imports\), which the run reads/m,
    ],
    [
      '--report',
      './app/helper.mjs',
      /^error: --report \.\/app\/helper\.mjs: a module the config loads \(or a file it imports\)/m,
    ],
  ];
  for (const [flag, file, said] of CASES) {
    it(`refuses ${flag} ${file}, and leaves it as it was`, async () => {
      const dir = project();
      const before = readFileSync(join(dir, file), 'utf8');
      const r = await runCli(['run', ...(flag === '-o' ? [] : ['-o', 'out.json']), flag, file], {
        cwd: dir,
      });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, said);
      assert.equal(readFileSync(join(dir, file), 'utf8'), before);
      assert.equal(existsSync(join(dir, 'out.json')), false, 'nothing ran');
    });
  }

  it('refuses it in --dry-run too, which prints the plan of that run', async () => {
    const dir = project();
    const r = await runCli(['run', '--dry-run', '-o', 'evals.yaml'], { cwd: dir });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /-o evals\.yaml: the config itself/);
  });
});

describe('a module that ends the process while it is imported', () => {
  for (const command of ['run', 'validate']) {
    for (const code of [0, 3]) {
      it(`ends evals ${command} with exit 2 and names the module (process.exit(${code}))`, async () => {
        const dir = project();
        writeFileSync(
          join(dir, 'app/helper.mjs'),
          `process.exit(${code});\nexport const helper = (t) => t;\n`,
        );
        const r = await runCli([command], { cwd: dir });
        assert.equal(r.code, 2, r.stdout + r.stderr);
        assert.match(
          r.stderr,
          new RegExp(
            `^error: the process was ended \\(exit code ${code}\\) before evals finished, while it loaded app/fn\\.mjs: a module that calls process\\.exit when it is imported ends evals with it; no case ran and nothing was written$`,
            'm',
          ),
        );
        assert.equal(existsSync(join(dir, 'evals-results.json')), false);
      });
    }
  }

  it('names a module whose top-level await never settles, exit 2', async () => {
    const dir = project();
    writeFileSync(
      join(dir, 'app/helper.mjs'),
      'await new Promise(() => {});\nexport const helper = (t) => t;\n',
    );
    for (const command of ['validate', 'run']) {
      const r = await runCli([command], { cwd: dir });
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(
        r.stderr,
        /^error: evals stopped before it finished: app\/fn\.mjs never finished loading \(a top-level await that can never settle\), with nothing else left to run$/m,
      );
    }
  });

  it('leaves an exit during a case to the run, which keeps its artifact', async () => {
    const dir = project();
    writeFileSync(join(dir, 'app/fn.mjs'), 'export async function fn() { process.exit(0); }\n');
    const r = await runCli(['run', '-o', 'out.json'], { cwd: dir });
    assert.equal(r.code, 1, r.stderr);
    assert.doesNotMatch(r.stderr, /before evals finished/);
    assert.equal(existsSync(join(dir, 'out.json')), true);
  });
});

describe('a module that throws something other than an Error while it is imported', () => {
  it('is described as the engine records it, not as [object Object]', async () => {
    const dir = project();
    writeFileSync(
      join(dir, 'app/helper.mjs'),
      'throw { code: 1 };\nexport const helper = (t) => t;\n',
    );
    const r = await runInProcess(['validate'], dir);
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /suites\[0\]\.function: \.\/app\/fn\.mjs failed to load: \{"code":1\}$/m,
    );
  });
});

describe('columns the config names outside templates', () => {
  it('are refused at their key when no row has them: output:, split:, agreement.column', async () => {
    const dir = suiteProject(
      [
        'testset: { path: data.csv, split: { tagz: ";" } }',
        'output: answr',
        'evaluators:',
        '  - { id: e, use: is-equals, with: { expected: a }, agreement: { column: humn } }',
      ],
      { 'data.csv': 'answer,human,tags\na,pass,x;y\n' },
    );
    const r = await runInProcess(['validate'], dir);
    assert.equal(r.code, 2, r.stderr);
    const rows = '"answer", "human", "tags"';
    assert.equal(
      r.stderr,
      [
        `error: evals.yaml:5:13  suites[0].output: the column of the recorded outputs: no row of the testset has a field "answr" (did you mean "answer"? the rows have ${rows})`,
        `error: evals.yaml:4:47  suites[0].testset.split.tagz: a column to split: no row of the testset has a field "tagz" (did you mean "tags"? the rows have ${rows})`,
        `error: evals.yaml:7:78  suites[0].evaluators[0].agreement.column: the column of the human labels: no row of the testset has a field "humn" (did you mean "human"? the rows have ${rows})`,
        '3 problems found',
        '',
      ].join('\n'),
    );
  });
});

describe('--grid keys named like members of every object', () => {
  it('filter a grid that has such a parameter, in run, show and override', async () => {
    const dir = project('{ constructor: [1, 2], toString: [a] }');
    const run = await runCli(['run', '--grid', 'constructor=2', '-o', 'r.json'], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    const artifact = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as {
      runs: { params: Record<string, unknown> }[];
    };
    assert.deepEqual(
      artifact.runs.map((r) => r.params),
      [{ constructor: 2, toString: 'a' }],
    );
    const show = await runCli(['show', 'r.json', '--grid', 'toString=a'], { cwd: dir });
    assert.equal(show.code, 0, show.stderr);
    const id = (
      JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as {
        runs: { cases: { id: string }[] }[];
      }
    ).runs[0]!.cases[0]!.id;
    const override = await runCli(
      [
        'override',
        'r.json',
        '--case',
        id.slice(0, 12),
        '--evaluator',
        'eq',
        '--score',
        '1',
        '--grid',
        'constructor=2',
      ],
      { cwd: dir },
    );
    assert.equal(override.code, 0, override.stderr);
  });

  it('are refused with exit 2 where the grid has no such parameter', async () => {
    const dir = project();
    for (const key of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const r = await runCli(['run', '--grid', `${key}=1`], { cwd: dir });
      assert.equal(r.code, 2, r.stderr);
      assert.equal(
        r.stderr,
        `error: --grid ${key}=…: no suite has a grid parameter "${key}" (no suite has a grid)\n`,
      );
    }
    const ran = await runCli(['run', '-o', 'r.json'], { cwd: dir });
    assert.equal(ran.code, 0, ran.stderr);
    for (const args of [
      ['show', 'r.json', '--grid', 'valueOf=1'],
      [
        'override',
        'r.json',
        '--case',
        'abc',
        '--evaluator',
        'eq',
        '--score',
        '1',
        '--grid',
        'constructor=1',
      ],
    ]) {
      const r = await runCli(args, { cwd: dir });
      assert.equal(r.code, 2, r.stderr);
      assert.doesNotMatch(r.stderr, /TypeError|at .*\.js:\d+/);
    }
  });
});
