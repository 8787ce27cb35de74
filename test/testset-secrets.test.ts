/**
 * The `evals testset` commands scrub what they print as `evals run` scrubs its results
 * (docs/config.md#secrets): with the environment's secrets and the config's own (a key it reads
 * from a variable whose name says nothing), removed from the rows before a cell or a diff line
 * is cut to the terminal's width, so not even a piece of a secret is shown. They used to print
 * the rows as read, and `testset pin` quoted a testset's broken line with the environment's
 * secrets only. The file `convert` writes keeps the rows as they are: it is the testset.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';
import { commitAll, newRepo } from './helpers/git.ts';

/** Upper case and digits: no id, revision or word the commands print has four of them in a row. */
const TOKEN = 'QZ7XW9KP3LM2NV8RJ4TY';
const RAW_KEY = 'KEYQ4WX8ZP2LN7MR5VBT';
const ENV = { MY_SERVICE_TOKEN: TOKEN, RAW_VALUE: RAW_KEY, COLUMNS: '80' };

/** `text` holds neither secret, nor any four characters in a row of either. */
function assertClean(text: string, what: string): void {
  for (const secret of [TOKEN, RAW_KEY]) {
    for (let i = 0; i + 4 <= secret.length; i++) {
      const piece = secret.slice(i, i + 4);
      assert.equal(text.includes(piece), false, `${what} shows ${piece} of ${secret}:\n${text}`);
    }
  }
}

/**
 * A project whose config reads RAW_VALUE (a name that says nothing) as a judge's key, and a testset whose rows hold both
 * secrets behind 0 to 70 characters of padding, so a cut falls at every offset of each.
 */
function project(): string {
  const dir = scratch();
  const rows = Array.from({ length: 71 }, (_, n) => ({
    q: `${'p'.repeat(n)}${n % 2 === 0 ? TOKEN : RAW_KEY} end`,
    a: `row ${n}`,
  }));
  writeFiles(dir, {
    'evals.yaml': [
      'version: 1',
      'defaults:',
      '  judge: { model: m, apiKey: "${RAW_VALUE}", baseUrl: "http://127.0.0.1:8080/v1" }',
      'suites:',
      '  - id: s',
      '    testset: { path: rows.jsonl }',
      '    evaluators: [ { use: is-equals, with: { expected: "{{case.a}}" } } ]',
      '',
    ].join('\n'),
    'rows.jsonl': rows.map((row) => JSON.stringify(row)).join('\n') + '\n',
    'old.jsonl': `${JSON.stringify({ q: 'before', a: 'row 0' })}\n`,
  });
  return dir;
}

describe('secrets in the testset commands', () => {
  it('show (table and JSON), revision, diff and convert print no piece of a secret', async () => {
    const dir = project();
    const runs: [string, string[]][] = [
      ['show', ['testset', 'show', 'rows.jsonl']],
      ['show --json', ['testset', 'show', '--json', 'rows.jsonl']],
      ['revision', ['testset', 'revision', 'rows.jsonl']],
      ['diff', ['testset', 'diff', 'old.jsonl', 'rows.jsonl']],
      ['diff --json', ['testset', 'diff', '--json', 'old.jsonl', 'rows.jsonl']],
      ['convert', ['testset', 'convert', 'rows.jsonl', 'rows.csv']],
    ];
    for (const [what, argv] of runs) {
      const r = await runCli(argv, { cwd: dir, env: ENV });
      assert.ok(r.code === 0 || (what.startsWith('diff') && r.code === 1), `${what}: ${r.stderr}`);
      assertClean(r.stdout + r.stderr, `testset ${what}`);
      if (what !== 'revision' && what !== 'convert') assert.match(r.stdout, /\[redacted\]/, what);
    }
    // Both secrets are the data of the testset written: the converted file keeps them.
    const converted = readFileSync(join(dir, 'rows.csv'), 'utf8');
    assert.ok(converted.includes(TOKEN) && converted.includes(RAW_KEY));
  });

  it("pin and show quote a broken line with the config's secret redacted", async () => {
    const dir = project();
    writeFiles(dir, { 'rows.jsonl': `{"q": 1 ${RAW_KEY}}\n` });
    for (const argv of [
      ['testset', 'pin'],
      ['testset', 'pin', '--check'],
      ['testset', 'show', 'rows.jsonl'],
    ]) {
      const r = await runCli(argv, { cwd: dir, env: ENV });
      assert.equal(r.code, 2, `${argv.join(' ')}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, /rows\.jsonl:1:9 .*found "\[redacted\]"/, argv.join(' '));
      assertClean(r.stdout + r.stderr, argv.join(' '));
    }
  });

  it('show quotes a broken line cut inside a secret without the piece before the cut', async () => {
    const dir = project();
    // The token quoted is cut at 20 characters: 15 of padding leave 5 of the secret.
    writeFiles(dir, { 'rows.jsonl': `{"q": 1 ${'x'.repeat(15)}${TOKEN}}\n` });
    const r = await runCli(['testset', 'show', 'rows.jsonl'], { cwd: dir, env: ENV });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /found "x{15}\[reda…"/);
    assertClean(r.stdout + r.stderr, 'testset show');
  });

  it('log says why a commit and the working tree are unreadable without a piece of a secret', async () => {
    const dir = newRepo();
    // The token quoted is cut at 20 characters: 12 of padding leave 8 of the secret.
    const broken = `{"q": 1 ${'x'.repeat(12)}${TOKEN}}\n`;
    writeFiles(dir, { 'rows.jsonl': '{"q": "a"}\n' });
    commitAll(dir, 'one');
    writeFiles(dir, { 'rows.jsonl': broken });
    commitAll(dir, 'two');
    writeFiles(dir, { 'rows.jsonl': `{"q": "b"}\n${broken}` });
    for (const argv of [
      ['testset', 'log', 'rows.jsonl'],
      ['testset', 'log', '--json', 'rows.jsonl'],
    ]) {
      const r = await runCli(argv, { cwd: dir, env: ENV });
      assert.equal(r.code, 0, `${argv.join(' ')}: ${r.stderr}`);
      assert.match(r.stdout, /found \\?"x{12}\[redacte…/, argv.join(' '));
      assertClean(r.stdout + r.stderr, argv.join(' '));
    }
  });
});
