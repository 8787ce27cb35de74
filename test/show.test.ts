/**
 * `evals show` and the end of `evals run` as a new user meets them: end to end on the built CLI
 * at 80 columns, over a project whose cases fail with long errors, long ids sharing a prefix,
 * rows without a dedup id and built-in evaluators that say why in numbers; then each flag of
 * `evals show` and each bad input (exit 2, one clear line, no stack trace), in-process.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { textWidth } from '../src/shared/text-table.ts';
import { runCli } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';
import { ERROR_CAUSE, LONG_IDS, showProject } from './helpers/show-project.ts';

let dir = '';
let run = { code: null as number | null, stdout: '', stderr: '' };

before(async () => {
  dir = showProject();
  run = await runCli(['run'], { cwd: dir, env: { COLUMNS: '80' } });
});

describe('the end of evals run, at 80 columns', () => {
  it('fails with exit 1 and keeps every line of the summary within 80 columns', () => {
    assert.equal(run.code, 1, run.stderr);
    const lines = run.stdout.split('\n').filter((line) => !/^(PASS|FAIL) /.test(line));
    for (const line of lines) assert.ok(textWidth(line) <= 80, `wider than 80: ${line}`);
  });

  it('shows one grid matrix for the suite, the best value of a column marked', () => {
    assert.match(run.stdout, /^support {2}2 grid points · mean score per evaluator, \* best$/m);
    assert.match(
      run.stdout,
      /^ {2}model {2}verdict {2}cases {2}pass rate {3}exact {2}short {2}polite$/m,
    );
    assert.match(run.stdout, /^ {2}large {2}FAIL .* \*\d+\.\d%/m);
    // The matrix holds the counts: the runs' own tables are left out.
    assert.doesNotMatch(run.stdout, /evaluator {3}mean/);
  });

  it('counts identical errors once and keeps their cause when it cuts a line', () => {
    // The URL keeps its host and port and gives up its path; the cause keeps its start, cut at
    // a word where the 80 columns end (reason-cut.ts: host:port before the cause's last words).
    const cut = `${ERROR_CAUSE.split(' ').slice(0, 4).join(' ')}\u2026`;
    assert.match(
      run.stdout,
      new RegExp(`^ {4}2 × error: judge call failed: POST 127\\.0\\.0\\.1:9… ${cut}$`, 'm'),
    );
    for (const line of run.stdout.split('\n').filter((l) => l.includes('judge call'))) {
      assert.ok(line.includes('127.0.0.1:9') && line.endsWith(cut), line);
    }
  });

  it('shows ids that share a prefix far enough to tell them apart, and labels hash ids', () => {
    const [first, second] = LONG_IDS as [string, string];
    assert.ok(run.stdout.includes(first) && run.stdout.includes(second), run.stdout);
    assert.match(run.stdout, /✗ [0-9a-f]{11}… "Say sorry" {2}rows\.csv:4/);
  });

  it('says why built-in evaluators failed, in numbers', () => {
    assert.match(run.stdout, /short 0 \(needs ≥ 1\): length 2,799 characters > max 200/);
    assert.match(run.stdout, /polite 0 \(needs ≥ 1\): regex matched "Sorry" at 0/);
    assert.match(run.stdout, /exact 0 \(needs ≥ 1\): expected "No", got "Yes"/);
  });

  it('ends by pointing at evals show', () => {
    assert.match(
      run.stdout,
      /^why each case did not pass: evals show evals-results\.json --failed$/m,
    );
  });
});

describe('evals show', () => {
  const show = (...args: string[]) => runInProcess(['show', 'evals-results.json', ...args], dir);

  it('prints a failing case whole: inputs, output, every evaluation with its reason', async () => {
    const { code, stdout } = await show(
      '--failed',
      '--case',
      'customer-support-refund-policy-question-0002',
    );
    assert.equal(code, 0);
    assert.match(stdout, /1 match --failed --case customer-support-refund-policy-question-0002/);
    assert.match(stdout, /✗ customer-support-refund-policy-question-0002 {2}FAILED/);
    assert.match(stdout, /run {7}support · model=small/);
    assert.match(stdout, /question {2}Can I get a refund after 40 days\?/);
    assert.match(stdout, /output {4}Yes/);
    assert.match(stdout, /✗ exact +0 {2}needs ≥ 1\n {6}expected "No", got "Yes"/);
    assert.match(stdout, /✓ short +1 {2}needs ≥ 1\n {6}length 3 characters/);
  });

  it('--errored prints the error whole, its cause included', async () => {
    const { code, stdout } = await show('--errored', '--grid', 'model=large');
    assert.equal(code, 0);
    assert.match(stdout, /2 match --errored --grid model=large\n/);
    assert.match(
      stdout,
      new RegExp(
        `error:\\n {4}judge call failed: POST http://127\\.0\\.0\\.1:9/v1/chat/completions\\?x{150} ${ERROR_CAUSE}`,
      ),
    );
    assert.doesNotMatch(stdout, /model=small/);
  });

  it('--limit without a filter says how many cases there are and how many are below', async () => {
    const { code, stdout } = await show('--limit', '1');
    assert.equal(code, 0);
    const [heading] = stdout.split('\n');
    assert.match(heading ?? '', /^evals-results\.json: 2 runs, (\d+) cases, first 1 below$/);
    assert.doesNotMatch(heading ?? '', /shown/);
  });

  it('--limit counts the cases it leaves out; --flaky finds none in a run without trials', async () => {
    const limited = await show('--failed', '--limit', '2');
    assert.match(limited.stdout, /10 match --failed, first 2 below/);
    assert.match(
      limited.stdout,
      /8 more cases match \(--limit N shows more; --case ID shows one\)\n$/,
    );
    const flaky = await show('--flaky');
    assert.equal(flaky.code, 0);
    assert.match(flaky.stdout, /no case is flaky in the runs selected/);
  });

  it('cuts a long output with a note, and --full shows it whole', async () => {
    const cut = await show('--case', 'fb389f3d90b', '--suite', 'support', '--grid', 'model=small');
    assert.match(cut.stdout, /more characters\) \(--full shows all\)/);
    const full = await show('--case', 'fb389f3d90b', '--grid', 'model=small', '--full');
    assert.ok(full.stdout.includes('word '.repeat(559).trim()));
    assert.doesNotMatch(full.stdout, /--full shows all/);
  });

  it('--json prints the selected cases as JSON', async () => {
    const { code, stdout } = await show('--errored', '--json');
    assert.equal(code, 0);
    const parsed = JSON.parse(stdout) as {
      shown: number;
      matched: number;
      cases: { suite: string; params: { model: string }; case: { error: string } }[];
    };
    assert.equal(parsed.matched, 4);
    assert.equal(parsed.cases[0]?.suite, 'support');
    assert.ok(parsed.cases.every((c) => c.case.error.endsWith(ERROR_CAUSE)));
  });

  it('neutralises escape sequences from outputs', async () => {
    const { stdout } = await show('--case', 'dc5e0ae57d6', '--limit', '1');
    // eslint-disable-next-line no-control-regex
    assert.doesNotMatch(stdout, /\x1b/);
  });
});

describe('evals show: bad input is exit 2 with one clear line', () => {
  const cases: [string, string[], RegExp][] = [
    // The file is named once, not as a location and again in the message.
    ['a missing file', ['show', 'nope.json'], /^error: nope\.json: no such results file\n$/],
    [
      'a file that is not JSON',
      ['show', 'not-json.txt'],
      // Where it goes wrong, on one line, the same on every Node version (not V8's own words).
      /^error: not-json\.txt is not JSON: at line 1, column 1: expected a value, found "hello"\n$/,
    ],
    ['no file at all', ['show'], /evals show needs one results file \(RESULTS\.json\), found none/],
    [
      'an unknown suite',
      ['show', 'evals-results.json', '--suite', 'nope'],
      /--suite nope: no such suite in the results \(suites: support\)/,
    ],
    [
      'an unknown grid key',
      ['show', 'evals-results.json', '--grid', 'temp=0'],
      /--grid temp: no run has this grid key \(keys: model\)/,
    ],
    [
      'an unknown grid value',
      ['show', 'evals-results.json', '--grid', 'model=huge'],
      /--grid model=huge: no run has this value \(values: small, large\)/,
    ],
    [
      'a --grid without =',
      ['show', 'evals-results.json', '--grid', 'model'],
      /--grid: expected KEY=VALUE, found "model"/,
    ],
    [
      'a --limit of 0',
      ['show', 'evals-results.json', '--limit', '0'],
      /--limit: expected a whole number of at least 1, found "0"/,
    ],
    [
      'a --case no id starts with',
      ['show', 'evals-results.json', '--case', 'zzz'],
      /--case zzz: no case id starts with it/,
    ],
    ['an unknown flag', ['show', 'evals-results.json', '--faild'], /did you mean --failed\?/],
  ];
  for (const [what, argv, message] of cases) {
    it(`refuses ${what}`, async () => {
      // JSON.parse quotes the text it stopped at, line breaks included.
      writeFileSync(join(dir, 'not-json.txt'), 'hello\nthere\n');
      const { code, stdout, stderr } = await runInProcess(argv, dir);
      assert.equal(code, 2, stdout);
      assert.match(stderr, /^error: /);
      assert.equal(stderr.trimEnd().split('\n').length, 1, stderr);
      assert.match(stderr, message);
      assert.doesNotMatch(stderr, /\n\s+at /);
    });
  }
});
