/**
 * evals.yaml never holds a number other than it shows: a number scalar a double cannot keep (a
 * 20-digit id, a hex past 2^53, `1e400`, `1e-400`) was read rounded, as Infinity or as 0, so an
 * inline case or an `expected:` compared another value than written (a false verdict). It is
 * refused at its line and column, with the testsets' wording, by `validate` and `run` (exit 2).
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { scratch } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

const KEEP = 'write it in quotes, as a string, to keep it as written';

function project(lines: string[]): string {
  const dir = scratch();
  writeFileSync(join(dir, 'evals.yaml'), [...lines, ''].join('\n'));
  return dir;
}

describe('numbers in evals.yaml a double cannot keep', () => {
  it('are refused at their line and column by validate and run alike', async () => {
    const dir = project([
      'version: 1',
      'suites:',
      '  - id: s',
      '    testset: { cases: [ { id: 12345678901234567890, output: x, n: 1e400 } ] }',
      '    evaluators:',
      '      - { id: a, use: is-equals, with: { expected: -1E-400 } }',
      '      - { id: b, use: is-equals, with: { expected: 0x20000000000001 } }',
    ]);
    for (const command of ['validate', 'run']) {
      const r = await runInProcess([command], dir);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.equal(
        r.stderr,
        [
          `error: evals.yaml:4:31  suites[0].testset.cases[0].id: the number 12345678901234567890 is not held exactly (a JSON number keeps whole numbers up to 9007199254740991): it would be read as 12345678901234567000; ${KEEP}`,
          `error: evals.yaml:4:67  suites[0].testset.cases[0].n: the number 1e400 is too large for a JSON number: it would be read as Infinity (recorded as null); ${KEEP}`,
          `error: evals.yaml:6:52  suites[0].evaluators[0].with.expected: the number -1E-400 is too small for a JSON number: it would be read as 0; ${KEEP}`,
          `error: evals.yaml:7:52  suites[0].evaluators[1].with.expected: the number 0x20000000000001 is not held exactly (a JSON number keeps whole numbers up to 9007199254740991): it would be read as 9007199254740992; ${KEEP}`,
          '4 problems found',
          '',
        ].join('\n'),
      );
    }
  });

  it('are refused as mapping keys too, where they would become another name', async () => {
    const dir = project([
      'version: 1',
      'suites:',
      '  - id: s',
      '    testset:',
      '      cases:',
      '        - { output: x, 12345678901234567890: a }',
      '    evaluators: [ { use: is-equals, with: { expected: x } } ]',
    ]);
    const r = await runInProcess(['validate'], dir);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      // The key as written: the rounded one is no name the file has.
      /^error: evals\.yaml:6:24 {2}suites\[0\]\.testset\.cases\[0\]\["12345678901234567890"\]: the number 12345678901234567890 is not held/,
    );
  });

  it('name a number key as written in the path of a problem under it', async () => {
    const dir = project([
      'version: 1',
      'suites:',
      '  - id: s',
      '    testset: { cases: [ { output: x } ] }',
      '    grid:',
      '      t: [ { 0.1000000000000000055511151231257827: .nan } ]',
      '    target:',
      '      type: http',
      '      url: http://127.0.0.1:8080/x',
      '      headers:',
      '        0.1000000000000000055511151231257827: 5',
      '    evaluators: [ { use: is-equals, with: { expected: x } } ]',
    ]);
    for (const command of ['validate', 'run']) {
      const r = await runInProcess([command], dir);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      // yaml reads the key as the double 0.1: that name is not in the file.
      assert.doesNotMatch(r.stderr, /\["0\.1"\]/);
      assert.match(
        r.stderr,
        /evals\.yaml:6:52 {2}suites\[0\]\.grid\.t\[0\]\["0\.1000000000000000055511151231257827"\]: the number \.nan /,
      );
      assert.match(
        r.stderr,
        /evals\.yaml:11:47 {2}suites\[0\]\.target\.headers\["0\.1000000000000000055511151231257827"\]: expected string, found 5/,
      );
    }
  });

  it('are refused when a ${VAR} gives them, at the value naming it', async () => {
    const dir = project([
      'version: 1',
      'suites:',
      '  - id: s',
      '    testset: { cases: [ { output: "12345678901234567890" } ] }',
      '    evaluators:',
      '      - use: is-equals',
      '        with:',
      '          expected: ${BIG}',
    ]);
    const r = await runInProcess(['run'], dir, { BIG: '12345678901234567890' });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.equal(
      r.stderr,
      `error: evals.yaml:8:21  suites[0].evaluators[0].with.expected: the number 12345678901234567890 is not held exactly (a JSON number keeps whole numbers up to 9007199254740991): it would be read as 12345678901234567000; ${KEEP} (from \${BIG})\n`,
    );
    const ok = await runInProcess(['validate'], dir, { BIG: '9007199254740991' });
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
  });

  it('refuse YAML infinities and not-a-number, which the results would record as null', async () => {
    // An inline case `x: .nan` was written to the artifact as `"x": null`, and a grid value `.inf`
    // named its grid point `t=null`: the results showed another value than the config.
    const dir = project([
      'version: 1',
      'suites:',
      '  - id: s',
      '    testset: { cases: [ { x: .nan, output: a }, { x: -.Inf, output: b } ] }',
      '    evaluators:',
      '      - { id: e, use: is-equals, with: { expected: .INF } }',
      '      - { id: t, use: is-equals, with: { expected: a }, threshold: { gte: .nan } }',
      '    grid:',
      '      t: [.inf, 1]',
      '    timeout: .inf',
    ]);
    for (const command of ['validate', 'run']) {
      const r = await runInProcess([command], dir);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      const lines = r.stderr.split('\n');
      const special = (text: string) =>
        `the number ${text} is YAML's infinity or not-a-number, which JSON cannot hold: the results would record it as null; ${KEEP}`;
      assert.deepEqual(
        lines.filter((line) => line.includes("YAML's")),
        [
          `error: evals.yaml:4:30  suites[0].testset.cases[0].x: ${special('.nan')}`,
          `error: evals.yaml:4:54  suites[0].testset.cases[1].x: ${special('-.Inf')}`,
          `error: evals.yaml:6:52  suites[0].evaluators[0].with.expected: ${special('.INF')}`,
          `error: evals.yaml:9:11  suites[0].grid.t[0]: ${special('.inf')}`,
        ],
      );
      // The threshold's own check says what is wrong there; the number is not told twice.
      assert.match(
        r.stderr,
        /evals\.yaml:7:\d+ {2}suites\[0\]\.evaluators\[1\]\.threshold\.gte: expected number, found NaN\n/,
      );
      assert.equal(r.stderr.match(/threshold\.gte/g)?.length, 1, r.stderr);
      // No "add a unit" hint for a duration that is an infinity ("Infinitys").
      assert.match(
        r.stderr,
        /suites\[0\]\.timeout: expected a duration such as 500ms, 1\.5s, 30s, 2m or 1h, or none, found Infinity\n/,
      );
    }
  });

  it('refuse an infinity a ${VAR} gives to a plain value', async () => {
    const dir = project([
      'version: 1',
      'suites:',
      '  - id: s',
      '    testset: { cases: [ { output: a } ] }',
      '    evaluators:',
      '      - use: is-equals',
      '        with:',
      '          expected: ${LIMIT}',
    ]);
    const r = await runInProcess(['validate'], dir, { LIMIT: '.inf' });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /evals\.yaml:8:21 {2}suites\[0\]\.evaluators\[0\]\.with\.expected: the number \.inf is YAML's infinity or not-a-number.* \(from \$\{LIMIT\}\)\n/,
    );
  });

  it('pass when a double holds them: safe integers, decimals, zeros, quoted digits', async () => {
    const dir = project([
      'version: 1',
      'suites:',
      '  - id: s',
      '    testset:',
      '      cases:',
      '        - { output: "12345678901234567890", a: 9007199254740991, b: -9007199254740991, c: 0.1, d: 1e300, e: 0e-999, f: -0.0, g: 0x1F, h: 0.30000000000000004441 }',
      '    evaluators:',
      "      - { use: is-equals, with: { expected: '12345678901234567890' } }",
      '    concurrency: 2',
    ]);
    const r = await runInProcess(['validate'], dir);
    assert.equal(r.code, 0, r.stdout + r.stderr);
  });
});
