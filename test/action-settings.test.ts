import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { legOf } from '../src/github/check-run-origin.ts';
import { readSettings, reportPathFor, splitArgs } from '../src/action/settings.ts';

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

describe('reportPathFor: the HTML report beside the results, named after them', () => {
  const table: [string, string][] = [
    // The default name keeps the report name the docs and existing workflows use.
    ['/ws/evals-results.json', '/ws/evals-report.html'],
    ['/ws/out/evals-results.json', '/ws/out/evals-report.html'],
    // Two steps writing into one folder keep one report each.
    ['/ws/out/small.json', '/ws/out/small-report.html'],
    ['/ws/out/large.json', '/ws/out/large-report.html'],
    ['/ws/out/Run.JSON', '/ws/out/Run-report.html'],
    ['/ws/out/results', '/ws/out/results-report.html'],
    // Never the results file itself.
    ['/ws/out/x-report.html', '/ws/out/x-report.html-report.html'],
  ];
  for (const [results, report] of table) {
    it(`${results} → ${report}`, () => assert.equal(reportPathFor(results), report));
  }
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
        report: '/ws/evals/evals-report.html',
        baseline: { kind: 'none' },
        artifactName: 'evals-results',
        token: 't',
        comment: true,
        checkRun: true,
        maxAnnotations: 500,
        failOn: 'gate',
        args: [],
        mode: 'run',
        prNumber: null,
        headSha: null,
        name: '',
        retryScale: 1,
        leg: legOf(['evals', '', '', '', '', '', '', '']),
      },
    });
  });

  it('names the report after the results input, in its folder', () => {
    const r = readSettings(inputs({ results: 'out/small.json' }), '/ws');
    assert.equal(r.ok && r.settings.report, '/ws/out/small-report.html');
    const off = readSettings(inputs({ results: 'out/small.json', report: 'false' }), '/ws');
    assert.equal(off.ok && off.settings.report, null);
  });

  it('reads name on one line, and the retry scale from the environment only', () => {
    const r = readSettings(inputs({ name: '  model: small \n shard 1 ' }), '/ws', {
      EVALGATE_GITHUB_RETRY_SCALE: '0.01',
    });
    assert.equal(r.ok && r.settings.name, 'model: small shard 1');
    assert.equal(r.ok && r.settings.retryScale, 0.01);
    for (const bad of ['0', '2', 'fast', '-1']) {
      const refused = readSettings(inputs({}), '/ws', { EVALGATE_GITHUB_RETRY_SCALE: bad });
      assert.deepEqual(!refused.ok && refused.errors, [
        `environment variable EVALGATE_GITHUB_RETRY_SCALE: expected a number above 0 and at most 1, found ${JSON.stringify(bad)}`,
      ]);
    }
  });

  it('reads baseline as nothing, a file, or auto', () => {
    const kind = (value: string) => {
      const r = readSettings(inputs({ baseline: value }), '/ws');
      return r.ok ? r.settings.baseline : null;
    };
    assert.deepEqual(kind(''), { kind: 'none' });
    assert.deepEqual(kind('auto'), { kind: 'auto' });
    assert.deepEqual(kind('base/r.json'), { kind: 'file', path: '/ws/base/r.json' });
  });

  it('reads max-annotations as a whole number of 0 or more', () => {
    const max = (value: string) => {
      const r = readSettings(inputs({ 'max-annotations': value }), '/ws');
      return r.ok ? r.settings.maxAnnotations : r.errors;
    };
    assert.equal(max(''), 500);
    assert.equal(max('0'), 0);
    assert.equal(max(' 60 '), 60);
    for (const bad of ['-1', 'ten', '1e400']) {
      assert.deepEqual(max(bad), [
        `input max-annotations: expected a whole number of annotations (0 or more), found ${JSON.stringify(bad)}`,
      ]);
    }
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
        'max-annotations': '2.5',
      }),
      '/ws',
    );
    assert.equal(r.ok, false);
    assert.deepEqual(!r.ok && r.errors, [
      'input fail-on: expected gate or never, found "sometimes"',
      'input mode: expected run or report, found "dry"',
      'input pr-number: expected a pull request number, found "x"',
      'input max-annotations: expected a whole number of annotations (0 or more), found "2.5"',
      'input head-sha: expected a full 40-character commit sha, found "abc"',
      'input args: unclosed " quote in "\\"open"',
      'input comment: expected true or false, found "maybe"',
    ]);
  });
});

describe('readSettings: inputs written as people write them', () => {
  const inputs =
    (values: Record<string, string>) =>
    (name: string): string =>
      values[name] ?? '';

  it('reads fail-on and mode whatever their case, as the booleans are', () => {
    const r = readSettings(inputs({ 'fail-on': 'Never', mode: 'REPORT' }), '/ws');
    assert.equal(r.ok && r.settings.failOn, 'never');
    assert.equal(r.ok && r.settings.mode, 'report');
  });

  it('reads baseline: auto whatever its case, and a file of that name as ./auto', () => {
    const baseline = (value: string) => {
      const r = readSettings(inputs({ baseline: value }), '/ws');
      return r.ok ? r.settings.baseline : null;
    };
    for (const word of ['Auto', 'AUTO', ' auto '])
      assert.deepEqual(baseline(word), { kind: 'auto' });
    assert.deepEqual(baseline('./Auto'), { kind: 'file', path: '/ws/Auto' });
  });

  it('takes numbers in digits only: 0x10, 1e3 and +5 are refused, not read as 16, 1000 and 5', () => {
    for (const bad of ['0x10', '1e3', '+5', '6.0']) {
      const max = readSettings(inputs({ 'max-annotations': bad }), '/ws');
      assert.deepEqual(!max.ok && max.errors, [
        `input max-annotations: expected a whole number of annotations (0 or more), found ${JSON.stringify(bad)}`,
      ]);
      const pr = readSettings(inputs({ 'pr-number': bad }), '/ws');
      assert.deepEqual(!pr.ok && pr.errors, [
        `input pr-number: expected a pull request number, found ${JSON.stringify(bad)}`,
      ]);
    }
  });

  it('takes a full sha pasted in upper case as the commit it names, in lower case', () => {
    const r = readSettings(inputs({ 'head-sha': ` ${'AB'.repeat(20)} ` }), '/ws');
    assert.equal(r.ok && r.settings.headSha, 'ab'.repeat(20));
  });

  it('refuses an abbreviated sha and a SHA-256 id, saying what GitHub needs instead', () => {
    const refused = (value: string) => {
      const r = readSettings(inputs({ 'head-sha': value }), '/ws');
      return !r.ok ? r.errors : [];
    };
    assert.deepEqual(refused('A1B2C3D'), [
      'input head-sha: expected a full 40-character commit sha, found "A1B2C3D" (an abbreviated sha of 7 characters: GitHub needs the full one, e.g. ${{ github.event.pull_request.head.sha }} or the output of git rev-parse HEAD)',
    ]);
    assert.deepEqual(refused('c'.repeat(64)), [
      `input head-sha: expected a full 40-character commit sha, found "${'c'.repeat(64)}" (a 64-character SHA-256 object id: GitHub hosts SHA-1 repositories only, whose commits have 40-character shas)`,
    ]);
  });

  it('refuses --help and -h in args, which would otherwise run the evals without a word', () => {
    for (const args of ['--help', '-h --suite qa']) {
      const r = readSettings(inputs({ args }), '/ws');
      const flag = args.split(' ')[0];
      assert.deepEqual(!r.ok && r.errors, [
        `input args: ${flag} is refused here: the Action's inputs are listed in its action.yml, and args takes evals run options`,
      ]);
    }
  });
});

describe('action.yml', () => {
  const action = parse(readFileSync(new URL('../action.yml', import.meta.url), 'utf8')) as {
    runs: { using: string; main: string };
    inputs: Record<string, { description: string; default?: string }>;
    outputs: Record<string, { description: string }>;
  };

  it('runs dist/index.js on node24', () => {
    assert.deepEqual(action.runs, { using: 'node24', main: 'dist/index.js' });
  });

  it('declares exactly the inputs the settings read, each described', () => {
    const read = new Set<string>();
    readSettings((name) => {
      read.add(name);
      return '';
    }, '/ws');
    assert.deepEqual(Object.keys(action.inputs).sort(), [...read].sort());
    for (const [name, input] of Object.entries(action.inputs)) {
      assert.ok(input.description.length > 10, `${name} has a description`);
    }
  });

  it("documents every input in docs/action.md's table", () => {
    const readme = readFileSync(new URL('../docs/action.md', import.meta.url), 'utf8');
    const documented = new Set(
      [...readme.matchAll(/^\| `([a-z-]+)`(?:, `([a-z-]+)`)? \|/gm)].flatMap((m) =>
        [m[1], m[2]].filter((name) => name !== undefined),
      ),
    );
    for (const name of Object.keys(action.inputs)) {
      assert.ok(documented.has(name), `docs/action.md documents the input ${name}`);
    }
  });

  it('declares the outputs the Action sets', () => {
    assert.deepEqual(Object.keys(action.outputs).sort(), [
      'comment-url',
      'errored',
      'failed',
      'passed',
      'report-path',
      'results',
      'verdict',
    ]);
  });
});
