/**
 * QA pass 8: config problems are placed at their culprit. YAML errors yaml reports without a
 * useful place (an unresolved alias, an alias bomb, an unclosed quote, a lone `---`), inline
 * cases of a flow list that share a line, `!!binary` values, and the count of problems when
 * some are not shown.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDocument, type YAMLMap } from 'yaml';
import { nodeKind } from '../src/config/yaml-nodes.ts';
import { MAX_ALIAS_COUNT } from '../src/config/yaml-source.ts';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess, type InProcessResult } from './helpers/in-process.ts';

const EVALUATORS = `    evaluators:
      - use: is-equals
        with: { expected: "{{case.expected}}" }
`;

/** The QA base project: suite `s` over data.csv with ./fn.mjs#fn, `line5` as its fifth line. */
function baseConfig(line5 = '    function: ./fn.mjs#fn'): string {
  return `version: 1\nsuites:\n  - id: s\n    testset: { path: data.csv }\n${line5}\n${EVALUATORS}`;
}

async function evals(config: string, argv: string[] = ['validate']): Promise<InProcessResult> {
  const dir = scratch();
  writeFiles(dir, {
    'evals.yaml': config,
    'data.csv': 'a,expected\nx,x\n',
    'fn.mjs': 'export function fn({ a }) { return a; }\n',
  });
  return runInProcess(argv, dir);
}

/** The stderr of a config refused with exit 2 and no stack trace. */
async function refused(config: string, argv?: string[]): Promise<string> {
  const result = await evals(config, argv);
  assert.equal(result.code, 2, result.stderr);
  assert.doesNotMatch(result.stderr, /\n\s+at .+:\d+:\d+\)?\n/, 'no stack trace');
  return result.stderr;
}

/** The text of `config` at 1-based `line`:`col`. */
function textAt(config: string, line: number, col: number): string {
  return (config.split('\n')[line - 1] ?? '').slice(col - 1);
}

/** A "billion laughs": ten levels, each a list of ten aliases of the one before. */
function aliasBomb(): string {
  const names = 'abcdefghij';
  const lines = ['version: 1', `a: &a [${Array(10).fill('x').join(', ')}]`];
  for (let i = 1; i < names.length; i++) {
    const uses = Array(10)
      .fill(`*${names[i - 1]}`)
      .join(', ');
    lines.push(`${names[i]}: &${names[i]} [${uses}]`);
  }
  return `${lines.join('\n')}\n`;
}

describe('YAML errors at their culprit', () => {
  it('an unresolved alias is refused at the alias, saying it names no anchor', async () => {
    const config = baseConfig('    function: *nope');
    const stderr = await refused(config);
    assert.match(
      stderr,
      /^error: evals\.yaml:5:15 {2}the alias \*nope names no anchor before it: no value is marked &nope/m,
    );
    assert.ok(textAt(config, 5, 15).startsWith('*nope'));
    assert.doesNotMatch(stderr, /evals\.yaml:1:1/);
  });

  it('an alias written before its anchor is refused at the alias, saying the anchor comes later', async () => {
    const config = baseConfig('    function: *fn').replace(
      'is-equals',
      'is-equals\n        id: &fn ./fn.mjs#fn',
    );
    const stderr = await refused(config);
    assert.match(
      stderr,
      /evals\.yaml:5:15 {2}the alias \*fn names no anchor before it: its anchor &fn is set only after it/,
    );
  });

  it('an alias bomb is refused at the alias that takes the count past the limit', async () => {
    const config = aliasBomb();
    const stderr = await refused(config);
    const found =
      /^error: evals\.yaml:(\d+):(\d+) {2}cannot expand the YAML aliases: at this alias they expand past 1000 copies/m.exec(
        stderr,
      );
    assert.ok(found, stderr);
    const [line, col] = [Number(found[1]), Number(found[2])];
    assert.deepEqual([line, col], [5, 36]);
    assert.ok(textAt(config, line, col).startsWith('*c'));
    // It is the alias yaml stops at: the text up to it expands, the text with it does not.
    const offset =
      config
        .split('\n')
        .slice(0, line - 1)
        .join('\n').length + col;
    const cut = (end: number): string => `${config.slice(0, end)}]\n`;
    const expand = (text: string): unknown =>
      parseDocument(text, { merge: true }).toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    assert.doesNotThrow(() => expand(cut(offset - 2)));
    assert.throws(() => expand(cut(offset + 2)), /Excessive alias count/);
  });

  it('a merge key whose value is no mapping is refused at that value', async () => {
    const config = `${baseConfig()}defaults:\n  x: &one 1\n  judge:\n    <<: *one\n`;
    const stderr = await refused(config);
    assert.match(
      stderr,
      /^error: evals\.yaml:12:9 {2}expected a mapping, an alias of one, or a list of those after <<:, found an alias \(\*one\)$/m,
    );
    assert.ok(textAt(config, 12, 9).startsWith('*one'));
  });

  it('an unclosed double or single quote is placed where the quote opens, not at the end', async () => {
    for (const quote of ['"', "'"]) {
      const config = `version: 1\nsuites:\n  - id: ${quote}s\n    testset: { path: data.csv }\n    function: ./fn.mjs#fn\n`;
      const stderr = await refused(config);
      assert.match(
        stderr,
        new RegExp(
          `^error: evals\\.yaml:3:9 {2}malformed YAML: Missing closing ${quote}quote`,
          'm',
        ),
      );
      assert.ok(textAt(config, 3, 9).startsWith(`${quote}s`));
    }
  });

  it('a file of only `---` (or `---` and a comment) is an empty config, as an empty file is', async () => {
    for (const config of ['---\n', '---', '--- # nothing yet\n', '']) {
      const stderr = await refused(config);
      assert.equal(
        stderr,
        'error: evals.yaml:1:1  the config is empty: expected version: 1 and suites:\n',
        JSON.stringify(config),
      );
    }
  });
});

describe('inline cases of a flow list on one line', () => {
  const flow = (cases: string): string =>
    `version: 1\nsuites:\n  - id: s\n    testset: { cases: ${cases} }\n    function: ./fn.mjs#fn\n${EVALUATORS}`;
  const block = (cases: string[]): string =>
    `version: 1\nsuites:\n  - id: s\n    testset:\n      cases:\n${cases.map((c) => `        - ${c}\n`).join('')}    function: ./fn.mjs#fn\n${EVALUATORS}`;

  it('a repeated row is told by line and column', async () => {
    const config = flow('[{a: x, expected: x}, {a: x, expected: x}]');
    const result = await evals(config, ['run', '--dry-run']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stderr,
      /^warning: evals\.yaml:4:45 {2}the row at line 4, column 45 repeats line 4, column 24 exactly: collapsed into one case$/m,
    );
    assert.ok(textAt(config, 4, 24).startsWith('{a: x'));
    assert.ok(textAt(config, 4, 45).startsWith('{a: x'));
  });

  it('a duplicate dedup id is told by line and column', async () => {
    const config = flow('[{a: x, __dedup_id__: d}, {a: y, __dedup_id__: d}]');
    const stderr = await refused(config, ['run', '--dry-run']);
    assert.match(
      stderr,
      /^error: evals\.yaml:4:49 {2}duplicate case identity: rows evals\.yaml:4:24 and evals\.yaml:4:49 have the same __dedup_id__ "d" \(make __dedup_id__ unique\)$/m,
    );
  });

  it('a flow list over several lines, and block style, keep lines alone', async () => {
    const multiline = await evals(flow('[{a: x, expected: x},\n        {a: x, expected: x}]'), [
      'run',
      '--dry-run',
    ]);
    assert.match(
      multiline.stderr,
      /^warning: evals\.yaml:5:1 {2}the row at line 5 repeats line 4 exactly: collapsed into one case$/m,
    );
    const repeated = await evals(block(['{a: x, expected: x}', '{a: x, expected: x}']), [
      'run',
      '--dry-run',
    ]);
    assert.match(
      repeated.stderr,
      /^warning: evals\.yaml:7:1 {2}the row at line 7 repeats line 6 exactly: collapsed into one case$/m,
    );
    const stderr = await refused(block(['{a: x, __dedup_id__: d}', '{a: y, __dedup_id__: d}']), [
      'run',
      '--dry-run',
    ]);
    assert.match(
      stderr,
      /^error: evals\.yaml:7:1 {2}duplicate case identity: rows evals\.yaml:6 and evals\.yaml:7 have the same __dedup_id__ "d" \(make __dedup_id__ unique\)$/m,
    );
  });
});

describe('!!binary values', () => {
  it('are described as binary data, not as an object of numbered bytes', async () => {
    const stderr = await refused(baseConfig('    function: !!binary aGVsbG8='));
    assert.match(
      stderr,
      /^error: evals\.yaml:5:24 {2}suites\[0\]\.function: expected string, found binary data \(!!binary\)$/m,
    );
    assert.doesNotMatch(stderr, /"0":104/);
    const listed = await refused(
      baseConfig('    function: ./fn.mjs#fn\n    hash: [!!binary aGVsbG8=]'),
    );
    assert.match(listed, /suites\[0\]\.hash\[0\]: expected string, found binary data \(!!binary\)/);
  });

  it('where a mapping is expected, are one problem, not one per byte and method', async () => {
    const config = baseConfig().replace(
      'testset: { path: data.csv }',
      'testset: !!binary aGVsbG8=',
    );
    const stderr = await refused(config);
    assert.equal(
      stderr,
      'error: evals.yaml:4:23  suites[0].testset: expected a mapping, found binary data (!!binary)\n',
    );
  });

  it('a binary node is named as binary data', () => {
    const doc = parseDocument('x: !!binary aGVsbG8=\n');
    const value = (doc.contents as YAMLMap<unknown, unknown>).items[0]!.value;
    assert.equal(nodeKind(value), 'binary data (!!binary)');
  });
});

describe('more problems than are printed', () => {
  it('150 problems: 100 printed, a count with no position, and a total of 150', async () => {
    const lines = ['version: 1', 'suites:'];
    for (let i = 0; i < 150; i++) {
      lines.push(
        `  - id: s${i}`,
        '    testset: { path: data.csv }',
        '    function: ./fn.mjs#fn',
        '    bogus: 1',
      );
    }
    const stderr = await refused(`${lines.join('\n')}\n`);
    const printed = stderr.trimEnd().split('\n');
    assert.equal(printed.filter((l) => l.startsWith('error: ')).length, 100);
    assert.deepEqual(printed.slice(-2), [
      'evals.yaml  50 more problems not shown (150 in all)',
      '150 problems found (100 shown)',
    ]);
    assert.doesNotMatch(stderr, /:\d+:\d+ {2}50 more problems/);
    assert.doesNotMatch(stderr, /101 problems found/);
  });

  it('a count of problems a testset did not show is no problem, and is in the total', async () => {
    const rows = Array.from({ length: 60 }, () => 'x,x,extra\n').join('');
    const dir = scratch();
    writeFiles(dir, {
      'evals.yaml': baseConfig(),
      'data.csv': `a,expected\n${rows}`,
      'fn.mjs': 'export function fn({ a }) { return a; }\n',
    });
    const result = await runInProcess(['run', '--dry-run'], dir);
    assert.equal(result.code, 2, result.stderr);
    const printed = result.stderr.trimEnd().split('\n');
    assert.equal(printed.filter((l) => l.startsWith('error: ')).length, 50);
    // Named by its file alone: not placed at the config's `testset.path` as if it were a problem.
    assert.equal(printed.at(-2), 'data.csv  10 more problems in this file not shown');
    assert.equal(printed.at(-1), '60 problems found (50 shown)');
  });

  it('a few problems are counted as before', async () => {
    const stderr = await refused(baseConfig('    function: 1\n    trials: x'));
    assert.match(stderr, /^2 problems found$/m);
    assert.doesNotMatch(stderr, /shown/);
  });
});
