/**
 * A suite with no case to run (an empty testset, or `--tag` filters that select none of its
 * rows) is valid, but its run fails unless the suite allows it (`allowEmpty: true`). `validate`
 * and `run --dry-run` say so before anything runs, in the words of the gate's failure, and only
 * where the run would in fact fail.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

const WARNING = 'no cases, so its run fails (allowEmpty: true on the suite accepts this)';

/** Three suites: an empty JSON Lines file, the same allowed to be empty, and two tagged rows. */
function project(): string {
  const dir = scratch();
  writeFiles(dir, {
    'evals.yaml': [
      'version: 1',
      'suites:',
      '  - id: empty',
      '    testset: { path: empty.jsonl }',
      '  - id: allowed',
      '    testset: { path: empty.json }',
      '    allowEmpty: true',
      '  - id: tagged',
      '    testset: { path: rows.csv }',
      '    evaluators:',
      '      - { use: is-equals, with: { expected: "{{case.expected}}" } }',
      '',
    ].join('\n'),
    'empty.jsonl': '',
    'empty.json': '[]\n',
    'rows.csv': 'q,output,expected,__tags__\na,1,1,smoke\nb,2,2,smoke\n',
  });
  return dir;
}

describe('suites with no case to run', () => {
  it('validate: valid (exit 0), with a warning for each suite whose run would fail', async () => {
    const r = await runInProcess(['validate'], project());
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /evals\.yaml is valid: 3 suites, 3 runs, 2 case executions/);
    assert.equal(r.stderr, `warning: suite empty: ${WARNING}\n`);
  });

  it('run --dry-run: the plan marks the suite whose run would fail, not the allowed one', async () => {
    const r = await runInProcess(['run', '--dry-run'], project());
    assert.equal(r.code, 0, r.stderr);
    const blocks = r.stdout.split('\n\n');
    const block = (id: string) => blocks.find((b) => b.startsWith(`${id}: `)) ?? '';
    assert.match(block('empty'), new RegExp(`^  warning     ${escape(WARNING)}$`, 'm'));
    assert.doesNotMatch(block('allowed'), /warning/);
    assert.doesNotMatch(block('tagged'), /warning/);
  });

  it('the warning is what the run does: that suite fails, the allowed one passes', async () => {
    const dir = project();
    const r = await runInProcess(['run', '-o', 'out.json'], dir);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^empty +FAIL$/m);
    assert.match(r.stdout, /^allowed +PASS$/m);
    assert.match(r.stdout, /cases: expected at least 1 case, got no cases matched/);
  });

  it('a --tag that selects no row of a suite warns for that suite too', async () => {
    const dir = project();
    writeFiles(dir, {
      'evals.yaml': [
        'version: 1',
        'suites:',
        '  - id: tagged',
        '    testset: { path: rows.csv }',
        '  - id: untagged',
        '    testset: { path: plain.csv }',
        '',
      ].join('\n'),
      'plain.csv': 'q,output\nc,3\n',
    });
    const r = await runInProcess(['run', '--dry-run', '--tag', 'smoke'], dir);
    assert.equal(r.code, 0, r.stderr);
    const blocks = r.stdout.split('\n\n');
    const block = (id: string) => blocks.find((b) => b.startsWith(`${id}: `)) ?? '';
    assert.doesNotMatch(block('tagged'), /warning/);
    assert.match(block('untagged'), new RegExp(`^  warning     ${escape(WARNING)}$`, 'm'));
  });

  it("a testset's tags: that no row has is refused too, allowEmpty or not (it passed with 0 cases)", async () => {
    const dir = project();
    writeFiles(dir, {
      'evals.yaml': [
        'version: 1',
        'suites:',
        '  - id: tagged',
        '    testset: { path: rows.csv, tags: [smoke, smoek] }',
        '    allowEmpty: true',
        '',
      ].join('\n'),
    });
    const r = await runInProcess(['run', '-o', 'out.json'], dir);
    assert.equal(r.code, 2, r.stdout);
    assert.match(
      r.stderr,
      /evals\.yaml:4:\d+ .*testset tags: no row of the testset has the tag smoek \(did you mean smoke\? their tags: smoke\); tag the rows, or remove it/,
    );
  });

  it('a --tag no row of the selected suites has is a typo: refused, naming the tags they have', async () => {
    const r = await runInProcess(['run', '--dry-run', '--tag', 'smoek'], project());
    assert.equal(r.code, 2, r.stdout);
    assert.match(
      r.stderr,
      /--tag smoek: no row of the selected suites' testsets has this tag \(did you mean smoke\? their tags: smoke\)/,
    );
    // A tag that is not one plain word is quoted, so its blanks and an empty tag can be seen.
    const odd = await runInProcess(['run', '--dry-run', '--tag', 'we ird', '--tag', ''], project());
    assert.equal(odd.code, 2, odd.stdout);
    assert.match(odd.stderr, /--tag "we ird": no row/);
    assert.match(odd.stderr, /--tag "": no row/);
    // A tag only an unselected suite's rows have is as unknown to this run.
    const only = await runInProcess(['run', '--suite', 'empty', '--tag', 'smoke'], project());
    assert.equal(only.code, 2, only.stdout);
    assert.match(only.stderr, /--tag smoke: no row .* \(they have no __tags__\)/);
  });

  it('a --tag typo is said with the problems found beside it, not after they are fixed', async () => {
    const dir = project();
    // A module that is not there stops the run before it is planned; the tag is still said.
    writeFiles(dir, {
      'evals.yaml': [
        'version: 1',
        'suites:',
        '  - id: tagged',
        '    testset: { path: rows.csv }',
        '    function: ./missing.ts#fn',
        '',
      ].join('\n'),
    });
    for (const argv of [
      ['run', '--dry-run'],
      ['run', '-o', 'out.json'],
    ]) {
      const r = await runInProcess([...argv, '--tag', 'smoek'], dir);
      assert.equal(r.code, 2, r.stdout);
      assert.match(r.stderr, /suites\[0\]\.function: module not found: \.\/missing\.ts/);
      assert.match(r.stderr, /--tag smoek: no row of the selected suites' testsets has this tag/);
    }
  });

  it('one shard of a run may get no case: no warning (the merged run is judged whole)', async () => {
    const r = await runInProcess(
      ['run', '--dry-run', '--suite', 'empty', '--shard', '1/2'],
      project(),
    );
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /warning/);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
