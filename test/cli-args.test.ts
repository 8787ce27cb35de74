/**
 * The shared argument parser, for every command: correct argv, unknown options, missing or
 * unwanted values, positional argument counts, --help, and typo suggestions.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCommandArgs } from '../src/cli/args.ts';
import type { CommandSpec } from '../src/cli/command-spec.ts';
import {
  COMMANDS,
  COMPARE,
  EVALS,
  INIT,
  MERGE,
  OVERRIDE,
  REPORT,
  RUN,
  SHOW,
  VALIDATE,
} from '../src/cli/commands.ts';
import {
  TESTSET,
  TESTSET_COMMANDS,
  TESTSET_CONVERT,
  TESTSET_DIFF,
  TESTSET_LOG,
  TESTSET_PIN,
  TESTSET_REVISION,
  TESTSET_SHOW,
} from '../src/cli/testset/commands.ts';
import { usageProblem } from './helpers/usage-problem.ts';

/** Every command spec, groups included. */
const ALL_SPECS: CommandSpec[] = [
  EVALS,
  ...Object.values(COMMANDS),
  ...Object.values(TESTSET_COMMANDS),
];

interface ParserCase {
  spec: CommandSpec;
  /** A correct argv and what it parses into (options left out are absent or defaulted). */
  good: string[];
  values: Record<string, unknown>;
  positionals: string[];
  /**
   * An option whose value is wrong as written: missing for commands with a value-taking
   * option, else a value given to a switch.
   */
  badValue: [argv: string[], message: RegExp];
  /** Too many positional arguments (undefined: the command takes any number). */
  tooMany?: [argv: string[], message: RegExp];
  /** Too few positional arguments, for commands that need some. */
  tooFew?: [argv: string[], message: RegExp];
}

const CASES: ParserCase[] = [
  {
    spec: EVALS,
    good: ['--version'],
    values: { version: true },
    positionals: [],
    badValue: [['--version=1'], /^--version: expected no value, found "1" \(see evals --help\)$/],
  },
  {
    spec: RUN,
    good: [
      'evals.yaml',
      '-o',
      'out.json',
      '--suite',
      'a',
      '--suite',
      'b',
      '--grid',
      'model=small',
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
      '1/2',
      '--resume',
      'cut.json',
      '--no-cache',
      '--cache-dir',
      'cache',
      '--update-baselines',
      '--dry-run',
    ],
    values: {
      output: 'out.json',
      suite: ['a', 'b'],
      grid: ['model=small'],
      tag: ['smoke'],
      concurrency: '4',
      trials: '3',
      junit: 'j.xml',
      baseline: 'base.json',
      shard: '1/2',
      resume: 'cut.json',
      'no-cache': true,
      'cache-dir': 'cache',
      'update-baselines': true,
      'dry-run': true,
    },
    positionals: ['evals.yaml'],
    badValue: [
      ['--junit'],
      /^--junit: expected a value \(FILE\), found nothing \(see evals run --help\)$/,
    ],
    tooMany: [
      ['a.yaml', 'b.yaml'],
      /^evals run takes at most one config file \(\[config\]\), found 2: a\.yaml b\.yaml \(see evals run --help\)$/,
    ],
  },
  {
    spec: VALIDATE,
    good: ['evals.yaml'],
    values: {},
    positionals: ['evals.yaml'],
    badValue: [
      ['--help=no'],
      /^--help: expected no value, found "no" \(see evals validate --help\)$/,
    ],
    tooMany: [['a', 'b'], /^evals validate takes at most one config file .*found 2: a b/],
  },
  {
    spec: INIT,
    good: ['demo'],
    values: {},
    positionals: ['demo'],
    badValue: [['--help=x'], /^--help: expected no value, found "x" \(see evals init --help\)$/],
    tooMany: [['a', 'b'], /^evals init takes at most one folder \(\[dir\]\), found 2: a b/],
  },
  {
    spec: COMPARE,
    good: ['base.json', 'head.json', '--format', 'md'],
    values: { format: 'md' },
    positionals: ['base.json', 'head.json'],
    badValue: [
      ['a', 'b', '--format'],
      /^--format: expected a value \(text\|md\|json\), found nothing \(see evals compare --help\)$/,
    ],
    tooMany: [
      ['a', 'b', 'c'],
      /^evals compare takes two results files \(BASE HEAD\), found 3: a b c \(see evals compare --help\)$/,
    ],
    tooFew: [['a'], /^evals compare needs two results files \(BASE HEAD\), found 1: a/],
  },
  {
    spec: MERGE,
    good: ['s1.json', 's2.json', '-o', 'all.json', '--allow-partial'],
    values: { output: 'all.json', 'allow-partial': true },
    positionals: ['s1.json', 's2.json'],
    badValue: [['s1.json', '-o'], /^-o: expected a value \(FILE\), found nothing/],
    tooFew: [[], /^evals merge needs the shard results files \(SHARD\.json…\), found none/],
  },
  {
    spec: SHOW,
    good: [
      'r.json',
      '--failed',
      '--errored',
      '--flaky',
      '--case',
      'ab',
      '--suite',
      's',
      '--grid',
      'm=a',
      '--limit',
      '3',
      '--full',
      '--json',
    ],
    values: {
      failed: true,
      errored: true,
      flaky: true,
      case: 'ab',
      suite: ['s'],
      grid: ['m=a'],
      limit: '3',
      full: true,
      json: true,
    },
    positionals: ['r.json'],
    badValue: [['r.json', '--limit'], /^--limit: expected a value \(N\), found nothing/],
    tooMany: [['a', 'b'], /^evals show takes one results file \(RESULTS\.json\), found 2: a b/],
    tooFew: [[], /^evals show needs one results file \(RESULTS\.json\), found none/],
  },
  {
    spec: REPORT,
    good: ['r.json', '-o', 'out.html', '--baseline', 'b.json'],
    values: { output: 'out.html', baseline: 'b.json' },
    positionals: ['r.json'],
    badValue: [['r.json', '-o'], /^-o: expected a value \(FILE\), found nothing/],
    tooMany: [['a', 'b'], /^evals report takes one results file \(RESULTS\.json\), found 2: a b/],
    tooFew: [[], /^evals report needs one results file \(RESULTS\.json\), found none/],
  },
  {
    spec: OVERRIDE,
    good: ['r.json', '--case', 'c1', '--evaluator', 'tone', '--score', '0', '--reason', 'rude'],
    values: { case: 'c1', evaluator: 'tone', score: '0', reason: 'rude' },
    positionals: ['r.json'],
    badValue: [['r.json', '--score'], /^--score: expected a value \(N\), found nothing/],
    tooMany: [['a', 'b'], /^evals override takes one results file \(RESULTS\.json\), found 2: a b/],
    tooFew: [[], /^evals override needs one results file \(RESULTS\.json\), found none/],
  },
  {
    spec: TESTSET,
    good: ['--help'],
    values: { help: true },
    positionals: [],
    badValue: [['--help=1'], /^--help: expected no value, found "1" \(see evals testset --help\)$/],
  },
  {
    spec: TESTSET_REVISION,
    good: ['qa.csv@main', '--hash', 'q,locale', '--id', 'qa', '--config', 'e.yaml', '--json'],
    values: { hash: 'q,locale', id: 'qa', config: 'e.yaml', json: true },
    positionals: ['qa.csv@main'],
    badValue: [
      ['qa.csv', '--hash'],
      /^--hash: expected a value \(FIELDS\), found nothing \(see evals testset revision --help\)$/,
    ],
    tooMany: [['a', 'b'], /^evals testset revision takes one testset file \(FILE\[@REF\]\)/],
    tooFew: [[], /^evals testset revision needs one testset file .*found none/],
  },
  {
    spec: TESTSET_SHOW,
    good: ['qa.csv', '--json'],
    values: { json: true },
    positionals: ['qa.csv'],
    badValue: [['qa.csv', '--id'], /^--id: expected a value \(ID\), found nothing/],
    tooMany: [['a', 'b'], /^evals testset show takes one testset file/],
  },
  {
    spec: TESTSET_DIFF,
    good: ['qa.csv@main', 'qa.csv', '--hash', 'q'],
    values: { hash: 'q' },
    positionals: ['qa.csv@main', 'qa.csv'],
    badValue: [
      ['a', 'b', '--config', '--json'],
      /^--config: expected a value \(FILE\), found the option "--json"; to pass it as the value, write --config=--json \(see evals testset diff --help\)$/,
    ],
    tooMany: [['a', 'b', 'c'], /^evals testset diff takes two versions of a testset \(A B\)/],
    tooFew: [['a'], /^evals testset diff needs two versions of a testset \(A B\), found 1: a/],
  },
  {
    spec: TESTSET_LOG,
    good: ['qa.csv', '--json'],
    values: { json: true },
    positionals: ['qa.csv'],
    badValue: [['qa.csv', '--hash'], /^--hash: expected a value \(FIELDS\), found nothing/],
    tooMany: [['a', 'b'], /^evals testset log takes one testset file \(FILE\)/],
  },
  {
    spec: TESTSET_CONVERT,
    good: ['qa.csv', 'qa.jsonl', '--lossy'],
    values: { lossy: true },
    positionals: ['qa.csv', 'qa.jsonl'],
    badValue: [['a', 'b', '--lossy=yes'], /^--lossy: expected no value, found "yes"/],
    tooMany: [['a', 'b', 'c'], /^evals testset convert takes an input and an output file/],
    tooFew: [['a'], /^evals testset convert needs an input and an output file .*found 1: a/],
  },
  {
    spec: TESTSET_PIN,
    good: ['evals.yaml', '--check'],
    values: { check: true },
    positionals: ['evals.yaml'],
    badValue: [['--check=1'], /^--check: expected no value, found "1"/],
    tooMany: [['a', 'b'], /^evals testset pin takes at most one config file/],
  },
];

describe('the shared argument parser, for every command', () => {
  it('has a case for every command', () => {
    assert.deepEqual(
      CASES.map((c) => c.spec.name),
      ALL_SPECS.map((s) => s.name),
    );
  });

  for (const c of CASES) {
    describe(c.spec.name, () => {
      it('parses a correct argv into typed values', () => {
        const parsed = parseCommandArgs(c.spec, c.good);
        const defaults = Object.fromEntries(
          Object.entries(c.spec.options).flatMap(([name, option]) =>
            option.type === 'string' && option.default !== undefined
              ? [[name, option.default]]
              : [],
          ),
        );
        assert.deepEqual({ ...parsed.values }, { ...defaults, ...c.values });
        assert.deepEqual(parsed.positionals, c.positionals);
      });

      it('refuses an unknown option, naming it and the help', () => {
        const { code, message } = usageProblem(() =>
          parseCommandArgs(c.spec, [...c.positionals, '--frobnicate']),
        );
        assert.equal(code, 'cli.bad-option');
        assert.match(
          message,
          new RegExp(
            `^unknown option --frobnicate for ${c.spec.name}: expected .*-h/--help.* \\(see ${c.spec.name} --help\\)$`,
          ),
        );
      });

      it('refuses an option whose value is missing or not allowed', () => {
        const [argv, expect] = c.badValue;
        const { code, message } = usageProblem(() => parseCommandArgs(c.spec, argv));
        assert.equal(code, 'cli.bad-option');
        assert.match(message, expect);
      });

      const counts = [c.tooMany, c.tooFew].filter((x) => x !== undefined);
      for (const [argv, expect] of counts) {
        it(`refuses ${argv.length} positional argument(s)`, () => {
          const { code, message } = usageProblem(() => parseCommandArgs(c.spec, argv));
          assert.equal(code, 'cli.arguments');
          assert.match(message, expect);
        });
      }

      it('shows the help without checking the positional arguments', () => {
        const parsed = parseCommandArgs(c.spec, ['a', 'b', 'c', '--help']);
        assert.equal(parsed.help, true);
      });
    });
  }

  it('suggests the option a typo was meant to be', () => {
    const { message } = usageProblem(() => parseCommandArgs(RUN, ['--tirals', '3']));
    assert.equal(
      message,
      'unknown option --tirals for evals run: did you mean --trials? (see evals run --help)',
    );
  });
});
