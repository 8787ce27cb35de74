/**
 * Bad input, QA round 8: a short option written with `=` means what the long one does
 * (`-o=x.json`, `-o=` refused); an option of one value given two values is refused; a duration
 * that rounds to 0 ms says so; a value `${VAR}` made names the variable; the reserved `pass` is no
 * evaluator of the suite; a symbolic link loop as the testset is named as such.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { existsSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { parseRunArgs, resumeCommand } from '../src/cli/run-args.ts';
import { runInProcess } from './helpers/in-process.ts';
import { suiteProject } from './helpers/suite-project.ts';

/** Suite `s`: data.csv through ./fn.mjs#fn, checked by `eq`, with `extra` suite lines. */
function project(
  extra: string[] = [],
  evaluators = ['- { id: eq, use: is-equals, with: { expected: x } }'],
): string {
  return suiteProject(
    [
      'testset: { path: data.csv }',
      'function: ./fn.mjs#fn',
      ...extra,
      'evaluators:',
      ...evaluators.map((line) => `  ${line}`),
    ],
    {
      'data.csv': 'question\nq\n',
      'fn.mjs': "export const fn = () => 'x';\n",
    },
  );
}

describe('a short option written with =', () => {
  it('-o=x.json writes x.json', async () => {
    const dir = project();
    const result = await runInProcess(['run', '-o=x.json'], dir);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(existsSync(join(dir, 'x.json')));
    assert.ok(!existsSync(join(dir, '=x.json')));
    assert.match(result.stderr, /results written to x\.json$/m);
  });

  it('-o= is refused as an empty name, as --output= is, and nothing is written', async () => {
    const dir = project();
    const before = readdirSync(dir).sort();
    const result = await runInProcess(['run', '-o='], dir);
    assert.equal(result.code, 2);
    assert.equal(result.stderr, 'error: -o needs a file name (see evals run --help)\n');
    assert.deepEqual(readdirSync(dir).sort(), before);
    const long = await runInProcess(['run', '--output='], dir);
    assert.equal(long.stderr, 'error: --output needs a file name (see evals run --help)\n');
  });

  it('-o= of evals merge and evals report is refused too', async () => {
    const dir = project();
    for (const command of ['merge', 'report']) {
      const result = await runInProcess([command, 'results.json', '-o='], dir);
      assert.equal(result.code, 2, command);
      assert.equal(result.stderr, `error: -o needs a file name (see evals ${command} --help)\n`);
    }
  });

  it('-o==x.json names the file =x.json, as --output==x.json does', () => {
    assert.equal(parseRunArgs(['-o==x.json']).output, '=x.json');
    assert.equal(parseRunArgs(['--output==x.json']).output, '=x.json');
  });

  it('a switch given a value this way is refused as --help=x is', async () => {
    const dir = project();
    const help = await runInProcess(['run', '-h=x'], dir);
    assert.equal(help.code, 2);
    assert.equal(help.stderr, 'error: -h: expected no value, found "x" (see evals run --help)\n');
    const version = await runInProcess(['-v='], dir);
    assert.equal(version.code, 2);
    assert.equal(version.stderr, 'error: -v: expected no value, found "" (see evals --help)\n');
  });

  it('the resume command of an interrupted run resumes the file -o= named', () => {
    assert.equal(
      resumeCommand(['-o=x.json', '--trials', '2']),
      'evals run --trials 2 --resume x.json',
    );
  });

  it('is left alone where it is no option: after --, or as the value of --junit=', () => {
    assert.equal(parseRunArgs(['--junit=-o=x']).junit, '-o=x');
    assert.equal(parseRunArgs(['--', '-o=x']).config, '-o=x');
  });
});

describe('an option of one value given twice', () => {
  it('takes the last value, whatever the spelling, as most command-line tools do', () => {
    assert.equal(parseRunArgs(['-o', 'a.json', '-o', 'b.json']).output, 'b.json');
    assert.equal(parseRunArgs(['--output=a.json', '-o', 'b.json']).output, 'b.json');
    assert.equal(parseRunArgs(['--trials', '2', '--trials', '3']).trials, 3);
  });

  it('with the same value, or a repeatable option, or a switch, is accepted', () => {
    assert.equal(parseRunArgs(['-o', 'a.json', '--output=a.json']).output, 'a.json');
    const args = parseRunArgs(['--suite', 's', '--suite', 't', '--tag', 'a', '--tag', 'b']);
    assert.deepEqual(args.filters.suites, ['s', 't']);
    assert.deepEqual(args.filters.tags, ['a', 'b']);
    assert.deepEqual(
      { ...parseRunArgs(['--grid', 'k=1', '--grid', 'k=2']).filters.grid },
      {
        k: ['1', '2'],
      },
    );
    assert.equal(parseRunArgs(['--dry-run', '--dry-run']).dryRun, true);
  });
});

describe('a duration that rounds to 0 ms', () => {
  it('says it rounds to 0ms, and what the least is', async () => {
    const dir = project(['timeout: 0.0001ms']);
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /^error: evals\.yaml:6:14 {2}suites\[0\]\.timeout: expected a duration of at least 1ms, found "0\.0001ms" \(it rounds to 0ms\)$/m,
    );
  });

  it('is refused in judge settings and a model target too, where a zero limit would fail every call', async () => {
    const judged = await runInProcess(
      ['validate'],
      project(
        [],
        [
          '- { id: j, use: llm-judge, with: { prompt: "ok?" }, judge: { model: m, timeout: 0.2ms } }',
        ],
      ),
    );
    assert.equal(judged.code, 2);
    assert.match(
      judged.stderr,
      /suites\[0\]\.evaluators\[0\]\.judge\.timeout: expected a duration of at least 1ms, found "0\.2ms" \(it rounds to 0ms\)$/m,
    );
    const targeted = await runInProcess(
      ['validate'],
      suiteProject(
        [
          'testset: { path: data.csv }',
          'target: { type: model, model: m, prompt: "{{case.a}}", baseUrl: "http://127.0.0.1:8/v1", timeout: 0ms }',
        ],
        { 'data.csv': 'a\nx\n' },
      ),
    );
    assert.equal(targeted.code, 2);
    assert.match(
      targeted.stderr,
      /suites\[0\]\.target\.timeout: expected a duration of at least 1ms, found "0ms"$/m,
    );
  });

  it('a zero written as such does not claim to be rounded', async () => {
    const result = await runInProcess(['validate'], project(['timeout: 0s']));
    assert.match(result.stderr, /expected a duration of at least 1ms, found "0s"$/m);
  });
});

describe('a value made by ${VAR}', () => {
  it('names the variable in a schema problem', async () => {
    const dir = project(['concurrency: ${CONC}']);
    const result = await runInProcess(['validate'], dir, { CONC: 'abc' });
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /suites\[0\]\.concurrency: expected integer, found "abc" \(from \$\{CONC\}\)$/m,
    );
  });

  it('names the variable in a rule problem, and says when its default was used', async () => {
    const dir = project(['timeout: ${T}']);
    const set = await runInProcess(['validate'], dir, { T: '0ms' });
    assert.match(set.stderr, /found "0ms" \(from \$\{T\}\)$/m);
    const defaulted = project(['concurrency: ${CONC:-abc}']);
    const result = await runInProcess(['validate'], defaulted, { CONC: undefined });
    assert.match(result.stderr, /found "abc" \(from the default of \$\{CONC\}\)$/m);
  });

  it('is not claimed for the same value written as it is', async () => {
    await runInProcess(['validate'], project(['concurrency: ${CONC}']), { CONC: 'abc' });
    const result = await runInProcess(['validate'], project(['concurrency: abc']));
    assert.equal(result.code, 2);
    assert.match(result.stderr, /expected integer, found "abc"$/m);
  });
});

describe('gate.evaluators naming no evaluator', () => {
  it('leaves the reserved pass out of the suite evaluators it lists', async () => {
    const dir = project(
      ['gate:', '  evaluators:', '    zzzzzz: { mean: { gte: 0.5 } }'],
      [
        '- { id: pass, use: is-equals, with: { expected: x } }',
        '- { id: e, use: is-equals, with: { expected: x } }',
        '- { id: Nope, use: is-equals, with: { expected: x } }',
      ],
    );
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /no evaluator "zzzzzz" in this suite \(the suite's evaluators are e or Nope\)$/m,
    );
  });

  it('does not suggest pass for a near miss', async () => {
    const dir = project(
      ['gate:', '  evaluators:', '    pas: { mean: { gte: 0.5 } }'],
      [
        '- { id: pass, use: is-equals, with: { expected: x } }',
        '- { id: eq, use: is-equals, with: { expected: x } }',
      ],
    );
    const result = await runInProcess(['validate'], dir);
    assert.match(
      result.stderr,
      /no evaluator "pas" in this suite \(the suite's evaluators are eq\)$/m,
    );
  });
});

describe('a testset path that is a loop of symbolic links', () => {
  it('is named as such at the testset path of the config (exit 2)', async () => {
    const dir = project();
    rmSync(join(dir, 'data.csv'));
    symlinkSync('data.csv', join(dir, 'data.csv'));
    for (const argv of [['validate'], ['run', '--dry-run'], ['run']]) {
      const result = await runInProcess(argv, dir);
      assert.equal(result.code, 2, argv.join(' '));
      assert.match(
        result.stderr,
        /^error: evals\.yaml:4:22 {2}suites\[0\]\.testset\.path: cannot read testset data\.csv: a loop of symbolic links; point it at a file$/m,
      );
      assert.doesNotMatch(result.stderr, /ELOOP/);
    }
  });

  it('is named as such by evals testset show', async () => {
    const dir = project();
    rmSync(join(dir, 'data.csv'));
    symlinkSync('data.csv', join(dir, 'data.csv'));
    const result = await runInProcess(['testset', 'show', 'data.csv'], dir);
    assert.equal(result.code, 2);
    assert.equal(
      result.stderr,
      'error: cannot read testset data.csv: a loop of symbolic links; point it at a file\n',
    );
  });
});

describe('a config or prompt file that is a loop of symbolic links', () => {
  it('the config is named as such, without the errno line', async () => {
    const dir = project();
    rmSync(join(dir, 'evals.yaml'));
    symlinkSync('evals.yaml', join(dir, 'evals.yaml'));
    const result = await runInProcess(['validate', 'evals.yaml'], dir);
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /cannot read the config: a loop of symbolic links; point it at a file$/m,
    );
    assert.doesNotMatch(result.stderr, /ELOOP/);
  });

  it('a prompt file is named as such at the target', async () => {
    const dir = suiteProject(
      [
        'testset: { path: data.csv }',
        'target: { type: model, model: m, prompt: { file: p.md }, baseUrl: "http://127.0.0.1:8/v1" }',
      ],
      { 'data.csv': 'a\nx\n' },
    );
    symlinkSync('p.md', join(dir, 'p.md'));
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /prompt file p\.md cannot be read \(a loop of symbolic links; point it at a file\)$/m,
    );
    assert.doesNotMatch(result.stderr, /ELOOP/);
  });
});
