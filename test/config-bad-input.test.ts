/**
 * Hostile and mistaken input (issue 22): each case ends as exit 2 with `file:line:col` and no
 * stack trace, in bounded time and output. The CLI runs in this process (`runInProcess`) against
 * a config-only project in a temporary folder; a recorded target means nothing else is needed.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { printable } from '../src/shared/text-table.ts';
import { runInProcess } from './helpers/in-process.ts';
import { tempFolder } from './helpers/cli.ts';

const CSV = 'question,expected_intent,output\nhi,greet,greet\nbye,leave,leave\n';
const EVALUATOR = `    evaluators:
      - use: is-equals
        with: { expected: "{{case.expected_intent}}" }
`;
const HEAD = `version: 1
suites:
  - id: s
    testset: { path: t.csv }
`;
const VALID = HEAD + EVALUATOR;

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A project folder holding `evals.yaml` and the files given. */
function project(config: string, files: Record<string, string> = { 't.csv': CSV }): string {
  const dir = tempFolder('evalgate-bad-');
  dirs.push(dir);
  writeFileSync(join(dir, 'evals.yaml'), config);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** Runs `evals <command> evals.yaml` and checks the outcome is a usage error, returned for more checks. */
async function refused(dir: string, command: 'validate' | 'run' = 'validate'): Promise<string> {
  const argv =
    command === 'run' ? ['run', 'evals.yaml', '-o', 'out.json'] : [command, 'evals.yaml'];
  const result = await runInProcess(argv, dir);
  assert.equal(result.code, 2, `exit code; stderr: ${result.stderr.slice(0, 500)}`);
  assert.doesNotMatch(result.stderr, /\n\s+at .+:\d+:\d+\)?\n/, 'no stack trace');
  return result.stderr;
}

const HANG_GUARD = { timeout: 60_000 };

describe('YAML that would never end or crash the parser', () => {
  it('a self-referencing alias in with: is refused by validate and run', async () => {
    const dir = project(
      `${HEAD}    evaluators:\n      - use: is-equals\n        with: &w { expected: a, x: [*w] }\n`,
    );
    for (const command of ['validate', 'run'] as const) {
      const stderr = await refused(dir, command);
      assert.match(
        stderr,
        /evals\.yaml:7:\d+ {2}the alias \*w is inside the value its anchor &w marks/,
      );
      assert.ok(stderr.length < 1000, `short output (${stderr.length} characters)`);
    }
  });

  it('a self-referencing alias in grid: is refused by validate and run', async () => {
    const dir = project(`${HEAD}    grid: &g { a: [*g] }\n${EVALUATOR}`);
    for (const command of ['validate', 'run'] as const) {
      assert.match(await refused(dir, command), /evals\.yaml:5:\d+ {2}the alias \*g/);
    }
  });

  it('3,000 levels of block mappings, block lists and flow lists are refused at their line', async () => {
    const block = Array.from({ length: 3000 }, (_, i) => `${' '.repeat(i + 1)}a:\n`).join('');
    const list = Array.from({ length: 3000 }, (_, i) => `${' '.repeat(i + 1)}- \n`).join('');
    const flow = `x: ${'['.repeat(3000)}${']'.repeat(3000)}\n`;
    for (const tail of [`x:\n${block}`, `x:\n${list}`, flow]) {
      const stderr = await refused(project(VALID + tail));
      assert.match(stderr, /evals\.yaml:\d+:\d+ {2}the YAML nests more than 100 levels deep here/);
    }
  });

  it(
    'a long line with an unclosed bracket gives a bounded list of errors (10 KB, 30 KB)',
    HANG_GUARD,
    async () => {
      for (const repeat of [800, 2500]) {
        const line = `x: [${'a, {b: ${X}, '.repeat(repeat)}\n`;
        const stderr = await refused(project(VALID + line));
        assert.match(stderr, /evals\.yaml:8:\d+ {2}malformed YAML/);
        assert.match(stderr, /more YAML errors not shown/);
        assert.ok(stderr.split('\n').length < 20, 'at most 10 errors and a count');
      }
    },
  );
});

describe('keys that are not names', () => {
  it('a mapping, list or binary value as a key is refused at the key', async () => {
    for (const key of ['? [a, b]\n: 1', '{x: 1}: 2', '!!binary aGVsbG8=: 1']) {
      const stderr = await refused(project(`${VALID}${key}\n`));
      assert.match(stderr, /evals\.yaml:8:\d+ {2}expected a key that is a plain name/);
    }
  });
});

describe('config checks stay bounded', () => {
  it('20,000 unknown keys print 100 problems and a count', HANG_GUARD, async () => {
    const keys = Array.from({ length: 20_000 }, (_, i) => `    k${i}: 1\n`).join('');
    const stderr = await refused(project(VALID + keys));
    assert.match(stderr, /evals\.yaml:11:5 {2}suites\[0\]: unknown key "k3"/);
    assert.match(stderr, /19900 more problems not shown \(20000 in all\)/);
    assert.ok(stderr.split('\n').length < 110);
  });

  it('a 1 MB use: value gets a short message and no suggestion search', HANG_GUARD, async () => {
    const config = `${HEAD}    evaluators:\n      - use: is-equal${'s'.repeat(1_000_000)}\n`;
    const stderr = await refused(project(config));
    assert.match(
      stderr,
      /evals\.yaml:6:14 {2}suites\[0\]\.evaluators\[0\]\.use: unknown evaluator "is-equals/,
    );
    assert.ok(stderr.length < 1200, `bounded message (${stderr.length} characters)`);
  });

  it('a grid of 6 keys × 30 values is refused over the 1,000-point maximum', async () => {
    const values = `[${Array.from({ length: 30 }, (_, i) => i).join(', ')}]`;
    const grid = Array.from({ length: 6 }, (_, k) => `      p${k}: ${values}\n`).join('');
    const dir = project(`${HEAD}    grid:\n${grid}${EVALUATOR}`);
    for (const command of ['validate', 'run'] as const) {
      assert.match(
        await refused(dir, command),
        /evals\.yaml:6:7 {2}suites\[0\]\.grid: expected at most 1000 grid points \(runs\), found 729,000,000/,
      );
    }
  });
});

describe('files that are not regular files', () => {
  it(
    'a FIFO or /dev/zero as the testset is refused at the config line naming it',
    HANG_GUARD,
    async () => {
      const dir = project(VALID.replace('t.csv', 'fifo.csv'), {});
      execFileSync('mkfifo', [join(dir, 'fifo.csv')]);
      for (const command of ['validate', 'run'] as const) {
        assert.match(
          await refused(dir, command),
          /evals\.yaml:4:\d+ {2}suites\[0\]\.testset\.path: cannot read testset fifo\.csv: it is a FIFO \(named pipe\), not a regular file/,
        );
      }
      const zero = project(VALID.replace('t.csv', 'zero.jsonl'), {});
      execFileSync('ln', ['-s', '/dev/zero', join(zero, 'zero.jsonl')]);
      assert.match(
        await refused(zero),
        /zero\.jsonl: it is a character device, not a regular file/,
      );
    },
  );

  it('a FIFO or /dev/zero as the config is refused', HANG_GUARD, async () => {
    const dir = project('', {});
    execFileSync('mkfifo', [join(dir, 'fifo.yaml')]);
    for (const config of ['fifo.yaml', '/dev/zero']) {
      const result = await runInProcess(['validate', config], dir);
      assert.equal(result.code, 2);
      assert.match(
        result.stderr,
        /cannot read the config: it is a (FIFO \(named pipe\)|character device), not a regular file/,
      );
    }
  });
});

describe('testset rows', () => {
  const jsonConfig = (file: string): string => VALID.replace('t.csv', file);

  it('a duplicate key in a JSON row is refused at its line and column', async () => {
    const json =
      '[\n  {"expected_intent": "a", "output": "a"},\n  {"expected_intent": "a", "output": "a", "\\u006futput": "b"}\n]\n';
    const stderr = await refused(project(jsonConfig('t.json'), { 't.json': json }));
    assert.match(
      stderr,
      /t\.json:3:43 {2}duplicate key "output": each key may appear once in an object/,
    );
  });

  it('a duplicate key in a JSONL row, nested or not, is refused at its line', async () => {
    const jsonl =
      '{"expected_intent": "a", "output": "a"}\n{"expected_intent": "a", "m": {"k": 1, "k": 2}, "output": "a"}\n';
    const stderr = await refused(project(jsonConfig('t.jsonl'), { 't.jsonl': jsonl }));
    assert.match(stderr, /t\.jsonl:2:\d+ {2}duplicate key "k"/);
  });

  it('a problem in a file two suites read is told once', async () => {
    const twoSuites = `${VALID}  - id: again\n    testset: { path: t.csv }\n${EVALUATOR}`;
    const clash =
      '__dedup_id__,question,expected_intent,output\nx,hi,greet,greet\nx,bye,leave,leave\n';
    const stderr = await refused(project(twoSuites, { 't.csv': clash }));
    assert.equal(stderr.match(/duplicate/g)?.length, 1, stderr);
    assert.doesNotMatch(stderr, /problems found/);
  });

  it('a malformed quoted CSV cell is refused at the quote that closes it too early; a quote in an unquoted cell is text', async () => {
    const bad = `${CSV}a,"How do I "reset" my password?",b\n`;
    assert.match(
      await refused(project(VALID, { 't.csv': bad })),
      /t\.csv:4:13 {2}a quoted cell holds a " that is not doubled/,
    );
    const fine = `${CSV}15" wide,"say ""hi""",say "hi"\n`.replace('say "hi"\n', 'say ""hi""\n');
    const result = await runInProcess(
      ['validate', 'evals.yaml'],
      project(VALID, { 't.csv': fine }),
    );
    assert.equal(result.code, 0, result.stderr);
  });

  it('a row nested 1,500 levels is refused at its line instead of crashing identity hashing', async () => {
    const deep = `{"expected_intent": "a", "output": "a", "x": ${'['.repeat(1500)}${']'.repeat(1500)}}\n`;
    const stderr = await refused(project(jsonConfig('t.jsonl'), { 't.jsonl': deep }));
    assert.match(
      stderr,
      /t\.jsonl:1:1 {2}the row nests arrays and objects more than 500 levels deep/,
    );
  });
});

describe('templates against the testset columns', () => {
  it('validate names a template field no row has, with the nearest column', async () => {
    const config = VALID.replace('{{case.expected_intent}}', '{{case.expected_intnt}}');
    assert.match(
      await refused(project(config)),
      /evals\.yaml:7:\d+ {2}suites\[0\]\.evaluators\[0\]\.with\.expected: template \{\{ case\.expected_intnt \}\}: no row of the testset has the field "expected_intnt" \(did you mean \{\{ case\.expected_intent \}\}\?\)/,
    );
  });

  it('run and run --dry-run refuse it too, before any case runs', async () => {
    const config = VALID.replace('{{case.expected_intent}}', '{{case.expected_intnt}}');
    const dir = project(config);
    assert.match(await refused(dir, 'run'), /did you mean \{\{ case\.expected_intent \}\}/);
    assert.equal(existsSync(join(dir, 'out.json')), false, 'nothing ran, no artifact');
    const dry = await runInProcess(['run', 'evals.yaml', '--dry-run'], dir);
    assert.equal(dry.code, 2, dry.stderr);
    assert.match(dry.stderr, /no row of the testset has the field "expected_intnt"/);
  });

  it('an inherited member is not a column: {{case.constructor}}', async () => {
    const config = VALID.replace('{{case.expected_intent}}', '{{case.constructor}}');
    assert.match(
      await refused(project(config)),
      /no row of the testset has the field "constructor" \(its fields: "question", "expected_intent", "output"\)/,
    );
  });

  it('bracket paths name columns with spaces, and validate accepts them', async () => {
    const csv = 'question,Expected Router Output,output\nhi,greet,greet\n';
    const config = VALID.replace(
      '"{{case.expected_intent}}"',
      `'{{case["Expected Router Output"]}}'`,
    );
    const result = await runInProcess(
      ['run', 'evals.yaml', '-o', 'out.json'],
      project(config, { 't.csv': csv }),
    );
    assert.equal(result.code, 0, result.stderr);
  });
});

describe('text that acts on the terminal', () => {
  it('right-to-left overrides, isolates and marks are escaped like control characters', () => {
    for (const char of [
      '\u202e',
      '\u202a',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u200e',
      '\u200f',
      '\u061c',
      '\x1b',
    ]) {
      const shown = printable(`a${char}b`);
      assert.equal(shown, `a\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}b`);
    }
    assert.equal(printable('שלום — plain RTL text stays'), 'שלום — plain RTL text stays');
  });
});
