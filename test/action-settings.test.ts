import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readSettings, splitArgs } from '../src/action/settings.ts';

describe('splitArgs', () => {
  const table: [string, string[]][] = [
    ['', []],
    ['--suite qa --grid model=large', ['--suite', 'qa', '--grid', 'model=large']],
    ['  --tag   smoke  ', ['--tag', 'smoke']],
    [`--suite "my suite" --tag 'a b'`, ['--suite', 'my suite', '--tag', 'a b']],
    ['--grid key=a\\ b', ['--grid', 'key=a b']],
    ['--x ""', ['--x', '']],
    ['"say \\"hi\\""', ['say "hi"']],
  ];
  for (const [text, words] of table) {
    it(JSON.stringify(text), () => assert.deepEqual(splitArgs(text), { ok: true, value: words }));
  }
  it('rejects an unclosed quote', () => {
    assert.deepEqual(splitArgs('--suite "qa'), {
      ok: false,
      error: 'unclosed " quote in "--suite \\"qa"',
    });
  });
});

describe('readSettings', () => {
  const inputs =
    (values: Record<string, string>) =>
    (name: string): string =>
      values[name] ?? '';

  it('applies the defaults of action.yml and resolves paths against the working directory', () => {
    const r = readSettings(inputs({ 'working-directory': 'evals', 'github-token': 't' }), '/ws');
    assert.deepEqual(r, {
      ok: true,
      settings: {
        config: 'evals.yaml',
        workingDirectory: '/ws/evals',
        results: '/ws/evals/evals-results.json',
        baseline: null,
        token: 't',
        comment: true,
        checkRun: true,
        failOn: 'gate',
        args: [],
        mode: 'run',
        prNumber: null,
        headSha: null,
      },
    });
  });

  it('reports every bad input at once, quoting the value', () => {
    const r = readSettings(
      inputs({
        comment: 'maybe',
        'fail-on': 'sometimes',
        args: '"open',
        mode: 'dry',
        'pr-number': 'x',
        'head-sha': 'abc',
      }),
      '/ws',
    );
    assert.equal(r.ok, false);
    assert.deepEqual(!r.ok && r.errors, [
      'input fail-on: expected gate or never, found "sometimes"',
      'input mode: expected run or report, found "dry"',
      'input pr-number: expected a pull request number, found "x"',
      'input head-sha: expected a full 40-character commit sha, found "abc"',
      'input args: unclosed " quote in "\\"open"',
      'input comment: expected true or false, found "maybe"',
    ]);
  });
});
