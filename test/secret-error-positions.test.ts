/**
 * A user's file that holds a secret (the value of an environment variable whose name says it is
 * one, here the key the config's judge reads) and goes wrong after it: the error quotes the
 * secret as `[redacted]`, in every command, also those that load no config (`evals testset
 * show`, `evals show`, `evals compare`), and its column is counted in the file as the user has
 * it, not in the scrubbed text (which is shorter by the secret's length less `[redacted]`'s).
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';

const SECRET = 'sk-live-0123456789abcdef-SECRET';
const env = { MY_API_KEY: SECRET };

/** `file:line:col` of the `n`th (0-based) occurrence of `needle` in `text`. */
function at(file: string, text: string, needle: string, n = 0): string {
  let offset = -1;
  for (let k = 0; k <= n; k++) offset = text.indexOf(needle, offset + 1);
  const lines = text.slice(0, offset).split('\n');
  return `${file}:${lines.length}:${(lines.at(-1) ?? '').length + 1}`;
}

function project(testset: string, rows: string): string {
  const dir = scratch();
  writeFiles(dir, {
    'evals.yaml': [
      'version: 1',
      'defaults:',
      '  judge: { apiKey: "${MY_API_KEY}" }',
      'suites:',
      '  - id: s',
      `    testset: { path: ${testset} }`,
      '    function: ./fn.mjs#fn',
      '    evaluators:',
      '      - { id: ok, use: is-equals, with: { expected: "x" } }',
      '',
    ].join('\n'),
    [testset]: rows,
    'fn.mjs': 'export const fn = () => "x";\n',
  });
  return dir;
}

describe('an error after a secret in a user file', () => {
  for (const [file, rows] of [
    ['rows.jsonl', `{"q": "${SECRET}"}\n{"q": "${SECRET}", "a": ${SECRET}}\n`],
    ['rows.json', `[\n  {"q": "${SECRET}", "a": ${SECRET}}\n]\n`],
  ] as const) {
    it(`${file}: run and testset show quote it redacted, at its column in the file`, async () => {
      const dir = project(file, rows);
      const where = at(file, rows, SECRET, file === 'rows.jsonl' ? 2 : 1);
      // Both scrub the token whole before cutting it (nothing left to cut: no ellipsis).
      const commands: [string[], string][] = [
        [['run'], '[redacted]'],
        [['testset', 'show', file], '[redacted]'],
      ];
      for (const [args, quoted] of commands) {
        const r = await runCli(args, { cwd: dir, env });
        assert.equal(r.code, 2, r.stderr);
        assert.equal(
          r.stderr,
          `error: ${where}  invalid JSON: expected a value, found "${quoted}"\n`,
          args.join(' '),
        );
      }
    });
  }

  // What an error quotes of a bad token is cut at 20 characters: a secret starting late in it,
  // cut before it was scrubbed, would keep its first 1 to 5 characters (too few to be known).
  for (const [file, prefix] of [
    ['rows.jsonl', 'abcdefghijklmno'],
    ['rows.jsonl', 'abcdefghijklmnopqrs'],
    ['rows.json', 'abcdefghijklmnop'],
  ] as const) {
    it(`${file}: run scrubs a secret late in a bad token before cutting it (${prefix.length} characters before it)`, async () => {
      const token = `${prefix}${SECRET}`;
      const rows =
        file === 'rows.jsonl' ? `{"q": "a"}\n{"q": ${token}}\n` : `[\n  {"q": ${token}}\n]\n`;
      const dir = project(file, rows);
      const r = await runCli(['run'], { cwd: dir, env });
      assert.equal(r.code, 2, r.stderr);
      const quoted = `${prefix}[redacted]`.slice(0, 20);
      assert.equal(
        r.stderr,
        `error: ${at(file, rows, token)}  invalid JSON: expected a value, found "${quoted}\u2026"\n`,
      );
      assert.ok(!r.stderr.includes(`${prefix}${SECRET.slice(0, 1)}`), r.stderr);
    });
  }

  it('a results file: show and compare quote it redacted, at its line and column', async () => {
    const dir = project('rows.jsonl', '{"q": "a"}\n');
    const first = await runCli(['run', '-o', 'ok.json'], { cwd: dir, env });
    assert.equal(first.code, 0, first.stderr);
    const good = readFileSync(join(dir, 'ok.json'), 'utf8');

    const invalid = good.replace('"passed":true', `"passed":"${SECRET}"`);
    writeFileSync(join(dir, 'invalid.json'), invalid);
    const [, line, col] = at('', invalid, `"${SECRET}"`).split(':');
    const show = await runCli(['show', 'invalid.json'], { cwd: dir, env });
    assert.equal(show.code, 2);
    assert.equal(
      show.stderr,
      `error: evals show: invalid.json is not a results artifact of this evalgate: /runs/0/cases/0/passed (line ${line}, column ${col}): must be boolean, found "[redacted]"\n`,
    );

    const broken = good.replace('"output":"x"', `"output":${SECRET}`);
    writeFileSync(join(dir, 'broken.json'), broken);
    const [, bline, bcol] = at('', broken, SECRET).split(':');
    for (const args of [
      ['show', 'broken.json'],
      ['compare', 'ok.json', 'broken.json'],
    ]) {
      const r = await runCli(args, { cwd: dir, env });
      assert.equal(r.code, 2);
      assert.equal(
        r.stderr,
        `error: broken.json is not JSON: at line ${bline}, column ${bcol}: expected a value, found "[redacted]"\n`,
        args.join(' '),
      );
    }
  });
  it('a hex key printed unquoted, read as a number up to its first letter: no piece of it', async () => {
    // `"a": 9f8e…` is the number 9 and then an error at `f`; the rest of the key was quoted,
    // its next 20 characters, a piece the finished message's scrubbing does not know.
    const hex = '9f8e7d6c5b4a3928170655aa';
    const rows = `{"q": "x", "a": ${hex}}\n`;
    const dir = project('rows.jsonl', rows);
    // Both scrub what they quote themselves, and know the piece is of the key.
    const commands: [string[], string][] = [
      [['run'], '"[redacted]"'],
      [['testset', 'show', 'rows.jsonl'], '"[redacted]"'],
    ];
    for (const [args, quoted] of commands) {
      const r = await runCli(args, { cwd: dir, env: { MY_API_KEY: hex } });
      assert.equal(r.code, 2, r.stderr);
      assert.equal(
        r.stderr,
        `error: ${at('rows.jsonl', rows, 'f8e7')}  invalid JSON: expected ',' or '}' after a property value, found ${quoted}\n`,
        args.join(' '),
      );
    }
  });
});
