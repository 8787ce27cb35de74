/**
 * The CLI end to end, in a child process: bad input exits 2 with file:line:col and no stack trace;
 * help, version, validate and init; and every example validates and runs.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot, runCli, scratch, writeFiles } from './helpers/cli.ts';
import { readArtifact } from './helpers/read-artifact.ts';

/** Bad inputs: each exits 2 with file:line and no stack trace, and nothing runs. */
const BAD_CONFIGS: {
  name: string;
  files: Record<string, string>;
  env?: Record<string, string>;
  expect: RegExp;
}[] = [
  {
    name: 'malformed YAML',
    files: { 'evals.yaml': 'version: 1\nsuites:\n  - id: a\n    testset: { path: x.csv\n' },
    expect: /^error: evals\.yaml:\d+:\d+ /m,
  },
  {
    name: 'an unknown key',
    files: {
      'evals.yaml':
        'version: 1\nsuites:\n  - id: a\n    testset: { cases: [{ q: 1 }] }\n    evaluater: []\n',
    },
    expect: /^error: evals\.yaml:5:5 +suites\[0\]: unknown key "evaluater"/m,
  },
  {
    name: 'a wrong type',
    files: {
      'evals.yaml':
        'version: 1\nsuites:\n  - id: a\n    testset: { cases: [{ q: 1 }] }\n    evaluators:\n      - { id: e, use: is-valid-json, threshold: { gte: high } }\n',
    },
    expect:
      /^error: evals\.yaml:6:\d+ +suites\[0\]\.evaluators\[0\]\.threshold\.gte: expected number, found "high"/m,
  },
  {
    name: 'an unknown evaluator',
    files: {
      'evals.yaml':
        'version: 1\nsuites:\n  - id: a\n    testset: { cases: [{ q: 1 }] }\n    evaluators:\n      - { id: e, use: is-equal, with: { expected: 1 } }\n',
    },
    expect: /^error: evals\.yaml:6:\d+ .*unknown evaluator "is-equal".*did you mean "is-equals"/m,
  },
  {
    name: 'a missing module',
    files: {
      'evals.yaml':
        'version: 1\nsuites:\n  - id: a\n    testset: { cases: [{ q: 1 }] }\n    function: ./app/nope.ts#run\n',
    },
    expect: /^error: evals\.yaml:5:\d+ +suites\[0\]\.function: .*not found/m,
  },
  {
    name: 'a missing export',
    files: {
      'evals.yaml':
        'version: 1\nsuites:\n  - id: a\n    testset: { cases: [{ q: 1 }] }\n    function: ./app.ts#answr\n',
      'app.ts': 'export function answer() { return 1; }\nexport const other = 2;\n',
    },
    expect: /^error: evals\.yaml:5:\d+ +suites\[0\]\.function: .*"answr".*answer, other/m,
  },
  {
    name: 'a TypeScript syntax error',
    files: {
      'evals.yaml':
        'version: 1\nsuites:\n  - id: a\n    testset: { cases: [{ q: 1 }] }\n    function: ./app.ts#answer\n',
      'app.ts': 'export function answer() {\n  return 1 +;\n}\n',
    },
    expect: /^error: .*app\.ts:2:\d+ /m,
  },
  {
    name: 'duplicate suite ids',
    files: {
      'evals.yaml':
        'version: 1\nsuites:\n  - id: a\n    testset: { cases: [{ q: 1 }] }\n  - id: a\n    testset: { cases: [{ q: 2 }] }\n',
    },
    expect: /^error: evals\.yaml:5:\d+ .*duplicate suite id "a"/m,
  },
  {
    name: 'duplicate case identities',
    files: {
      'evals.yaml': 'version: 1\nsuites:\n  - id: a\n    testset: { path: rows.csv }\n',
      'rows.csv': '__dedup_id__,q\nx,1\ny,2\nx,3\n',
    },
    expect: /^error: rows\.csv:4:\d+ .*rows\.csv:2 and rows\.csv:4 have the same __dedup_id__ "x"/m,
  },
  {
    name: 'a revision pin mismatch',
    files: {
      'evals.yaml':
        'version: 1\nsuites:\n  - id: a\n    testset: { path: rows.csv, revision: 0123456789ab }\n',
      'rows.csv': 'q\n1\n',
    },
    expect: /^error: evals\.yaml:4:\d+ .*pinned 0123456789ab, current [0-9a-f]{12}[ ;:]/m,
  },
  {
    name: 'a missing environment variable',
    files: {
      'evals.yaml':
        'version: 1\nsuites:\n  - id: ${SUITE_NAME_FOR_TEST}\n    testset: { cases: [{ q: 1 }] }\n',
    },
    expect: /^error: evals\.yaml:3:\d+ .*SUITE_NAME_FOR_TEST is not set/m,
  },
  {
    name: 'a missing testset file',
    files: { 'evals.yaml': 'version: 1\nsuites:\n  - id: a\n    testset: { path: nope.csv }\n' },
    expect: /^error: evals\.yaml:4:\d+ .*nope\.csv/m,
  },
];

describe('bad input exits 2 with file:line:col and no stack trace', () => {
  for (const bad of BAD_CONFIGS) {
    for (const command of ['run', 'validate']) {
      it(`${command}: ${bad.name}`, async () => {
        const dir = scratch();
        writeFiles(dir, bad.files);
        const r = await runCli([command, '-o', 'out.json'].slice(0, command === 'run' ? 3 : 1), {
          cwd: dir,
          env: bad.env ?? {},
        });
        assert.equal(r.code, 2, `exit code\n${r.stderr}${r.stdout}`);
        assert.match(r.stderr, bad.expect);
        assert.doesNotMatch(r.stderr, /\n\s+at .*:\d+:\d+/, 'no stack trace');
        assert.equal(existsSync(join(dir, 'out.json')), false, 'nothing ran, no artifact');
      });
    }
  }

  it('reports every problem of a config at once', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'evals.yaml':
        'version: 1\nsuites:\n  - id: a\n    testset: { cases: [{ q: 1 }] }\n    concurrency: lots\n    evaluators:\n      - { id: e, use: regexx }\n',
    });
    const r = await runCli(['validate'], { cwd: dir });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /evals\.yaml:5:\d+ +suites\[0\]\.concurrency/);
    assert.match(r.stderr, /evals\.yaml:7:\d+ .*unknown evaluator "regexx"/);
  });

  it('an unknown flag or command is a usage error', async () => {
    const dir = scratch();
    const flag = await runCli(['run', '--frobnicate'], { cwd: dir });
    assert.equal(flag.code, 2);
    assert.match(flag.stderr, /frobnicate/);
    const command = await runCli(['explode'], { cwd: dir });
    assert.equal(command.code, 2);
    assert.match(command.stderr, /unknown command "explode"/);
    const noConfig = await runCli(['run'], { cwd: dir });
    assert.equal(noConfig.code, 2);
    assert.match(noConfig.stderr, /evals init/);
  });
});

describe('help, version, validate, init', () => {
  it('prints --help for every command and --version', async () => {
    const dir = scratch();
    for (const args of [
      ['--help'],
      ['run', '--help'],
      ['validate', '--help'],
      ['init', '--help'],
    ]) {
      const r = await runCli(args, { cwd: dir });
      assert.equal(r.code, 0, args.join(' '));
      assert.match(r.stdout, /Usage: evals/);
    }
    const version = await runCli(['--version'], { cwd: dir });
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
      version: string;
    };
    assert.equal(version.stdout.trim(), `evalgate ${pkg.version}`);
    // `--help` names the tool as `--version` does: the package, whose command is `evals`.
    const help = await runCli(['--help'], { cwd: dir });
    assert.equal(help.stdout.split('\n')[0]?.split(' \u2014 ')[0], `evalgate ${pkg.version}`);
  });

  it('validate checks the quickstart without running it', async () => {
    const dir = scratch();
    const r = await runCli(['validate', join(repoRoot, 'examples/quickstart/evals.yaml')], {
      cwd: dir,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /is valid: 1 suite, 4 runs, 40 case executions/);
    assert.deepEqual(readdirSync(dir), []);
  });

  it('init writes a project that runs, and never overwrites', async () => {
    const dir = scratch();
    const init = await runCli(['init'], { cwd: dir });
    assert.equal(init.code, 0, init.stderr);
    const run = await runCli(['run'], { cwd: dir });
    assert.equal(run.code, 0, run.stderr + run.stdout);
    assert.equal(readArtifact(join(dir, 'evals-results.json')).verdict, 'pass');
    const again = await runCli(['init'], { cwd: dir });
    assert.equal(again.code, 2);
    assert.match(again.stderr, /already has: evals\.yaml/);
  });
});

describe('every example validates and runs', () => {
  const examples = readdirSync(join(repoRoot, 'examples')).filter((name) =>
    existsSync(join(repoRoot, 'examples', name, 'evals.yaml')),
  );
  it('has examples', () => assert.ok(examples.length > 0));
  for (const name of examples) {
    it(name, async () => {
      const dir = scratch();
      const config = join(repoRoot, 'examples', name, 'evals.yaml');
      const validate = await runCli(['validate', config], { cwd: dir });
      assert.equal(validate.code, 0, validate.stderr);
      const run = await runCli(['run', config, '-o', 'out.json'], { cwd: dir });
      assert.equal(run.code, 0, run.stderr);
      readArtifact(join(dir, 'out.json'));
    });
  }
});
