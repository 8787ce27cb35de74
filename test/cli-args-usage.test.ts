/**
 * Command-line arguments beyond the parser table: `parseRunArgs` (which the Action uses too), the
 * --help texts, and usage errors as the CLI prints them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { COMMANDS, EVALS } from '../src/cli/commands.ts';
import { TESTSET_COMMANDS } from '../src/cli/testset/commands.ts';
import { cli } from '../src/cli/main.ts';
import { parseRunArgs } from '../src/cli/run-args.ts';
import type { CommandContext } from '../src/pipeline/context.ts';
import { textWidth } from '../src/shared/text-table.ts';
import { usageProblem } from './helpers/usage-problem.ts';

/** An in-process CLI context that keeps what is written. */
function context(): { ctx: CommandContext; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    ctx: {
      cwd: process.cwd(),
      env: {},
      stdout: { write: (text: string) => (out += text) },
      stderr: { write: (text: string) => (err += text) },
    },
    out: () => out,
    err: () => err,
  };
}

describe('parseRunArgs (the Action parses its args input with it)', () => {
  it('parses --dry-run into RunArgs.dryRun', () => {
    assert.equal(parseRunArgs(['--dry-run']).dryRun, true);
    assert.equal('dryRun' in parseRunArgs([]), false);
  });

  it('turns every flag into RunArgs', () => {
    assert.deepEqual(
      parseRunArgs([
        'evals.yaml',
        '-o',
        'out.json',
        '--suite',
        'a',
        '--grid',
        'model=small',
        '--grid',
        'model=large',
        '--tag',
        'smoke',
        '--concurrency',
        '4',
        '--trials',
        '3',
        '--junit',
        'j.xml',
        '--baseline',
        'base.json',
        '--shard',
        '2/4',
        '--resume',
        'cut.json',
        '--no-cache',
        '--cache-dir',
        'cache',
        '--update-baselines',
        '--dry-run',
      ]),
      {
        config: 'evals.yaml',
        output: 'out.json',
        junit: 'j.xml',
        baseline: 'base.json',
        resume: 'cut.json',
        noCache: true,
        cacheDir: 'cache',
        updateBaselines: true,
        dryRun: true,
        concurrency: 4,
        trials: 3,
        filters: {
          suites: ['a'],
          tags: ['smoke'],
          // Null-prototype, so that a key named like an Object member (`constructor`) is a key.
          grid: Object.assign(Object.create(null) as object, { model: ['small', 'large'] }),
          shard: { index: 2, count: 4 },
        },
      },
    );
    assert.deepEqual(parseRunArgs([]), { output: 'evals-results.json', filters: {} });
  });

  it('refuses bad numbers, grid filters and shards, naming the flag and the help', () => {
    const cases: [string[], RegExp][] = [
      [
        ['--trials', '1.5'],
        /^--trials: expected a whole number of at least 1, found "1\.5" \(see evals run --help\)$/,
      ],
      [
        ['--concurrency', 'lots'],
        /^--concurrency: expected a whole number of at least 1, found "lots" \(see evals run --help\)$/,
      ],
      [['--grid', 'model'], /^--grid: expected KEY=VALUE, found "model" \(see evals run --help\)$/],
      [
        ['--shard', 'two'],
        /^--shard: expected INDEX\/COUNT .*found "two" \(see evals run --help\)$/,
      ],
      [['a', 'b'], /^evals run takes at most one config file/],
    ];
    for (const [argv, expect] of cases) {
      assert.match(usageProblem(() => parseRunArgs(argv)).message, expect, argv.join(' '));
    }
  });
});

describe('help texts', () => {
  const invocations = [
    [],
    ['--help'],
    ...Object.keys(COMMANDS).map((word) => [word, '--help']),
    ...Object.keys(TESTSET_COMMANDS).map((word) => ['testset', word, '--help']),
  ];

  it('every --help fits 80 columns and lists every option of its command', async () => {
    const specs = [EVALS, EVALS, ...Object.values(COMMANDS), ...Object.values(TESTSET_COMMANDS)];
    for (const [i, argv] of invocations.entries()) {
      const { ctx, out, err } = context();
      const code = await cli(argv, ctx);
      assert.equal(code, argv.length === 0 ? 2 : 0, `evals ${argv.join(' ')}: ${err()}`);
      const text = out();
      assert.match(text, /Usage: evals/);
      for (const line of text.split('\n')) {
        assert.ok(
          textWidth(line) <= 80,
          `evals ${argv.join(' ')}: ${textWidth(line)} columns: ${line}`,
        );
      }
      for (const [name, option] of Object.entries(specs[i]?.options ?? {})) {
        assert.match(text, new RegExp(`--${name}\\b`), `evals ${argv.join(' ')} --${name}`);
        if (option.short !== undefined)
          assert.match(text, new RegExp(`-${option.short}, --${name}`));
      }
    }
  });

  it('documents --dry-run in evals run --help', async () => {
    const { ctx, out } = context();
    assert.equal(await cli(['run', '--help'], ctx), 0);
    assert.match(out(), /--dry-run {2,}Print what would run \(suites, grid points, cases,/);
  });
});

describe('usage errors on the command line', () => {
  const cases: [argv: string[], stderr: RegExp][] = [
    [
      ['run', '--frobnicate'],
      /^error: unknown option --frobnicate for evals run: .*\(see evals run --help\)\n$/,
    ],
    [
      ['run', '-o'],
      /^error: -o: expected a value \(FILE\), found nothing \(see evals run --help\)\n$/,
    ],
    [['validate', 'a', 'b'], /^error: evals validate takes at most one config file/],
    [
      ['compare', 'a.json', 'b.json', '--format', 'xml'],
      /^error: --format: expected text, md or json, found "xml" \(see evals compare --help\)\n$/,
    ],
    [
      ['merge', '--allow'],
      /^error: unknown option --allow for evals merge: did you mean --allow-partial\?/,
    ],
    [['testset', 'diff', 'a.csv'], /^error: evals testset diff needs two versions of a testset/],
    [
      ['testset', 'show', 'a.csv', '--hash', ','],
      /^error: --hash: expected field names such as question,locale, found "," \(see evals testset show --help\)\n$/,
    ],
    [
      ['testset', '--frobnicate'],
      /^error: unknown option --frobnicate for evals testset: expected -h\/--help/,
    ],
    [['testset', 'shwo'], /^error: unknown command "testset shwo" \(did you mean testset show\?/],
    [
      ['--frobnicate'],
      /^error: unknown option --frobnicate for evals: expected -h\/--help, -v\/--version/,
    ],
    [['rn'], /^error: unknown command "rn" \(did you mean run\?/],
  ];
  for (const [argv, expect] of cases) {
    it(`evals ${argv.join(' ')}`, async () => {
      const { ctx, err } = context();
      assert.equal(await cli(argv, ctx), 2);
      assert.match(err(), expect);
      assert.doesNotMatch(err(), /\n\s+at /, 'no stack trace');
    });
  }
});
