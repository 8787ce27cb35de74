/**
 * A results file that is not JSON where a secret is written unquoted: the "not JSON" message
 * quotes the token found there, cut to 20 characters. It was cut first and scrubbed after, so
 * padding of 15 characters left the secret's first 5 (`found "xxxxxxxxxxxxxxxQZ7XW…"`), a
 * piece no scrubbing recognises. The token is now scrubbed whole before it is cut, in every
 * command that reads results (show, compare, merge, report, run --baseline), for a file read
 * whole and for one broken case line of an artifact read a case at a time.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { functionProject, runCli } from './helpers/cli.ts';

const TOKEN = 'QZ7XW9KP3LM2NV8RJ4TY';
const ENV = { MY_SERVICE_TOKEN: TOKEN };
const UNQUOTED = `${'x'.repeat(15)}${TOKEN}`;

/** `text` holds no four characters in a row of the secret. */
function assertClean(text: string, what: string): void {
  for (let i = 0; i + 4 <= TOKEN.length; i++) {
    const piece = TOKEN.slice(i, i + 4);
    assert.equal(text.includes(piece), false, `${what} shows ${piece}:\n${text}`);
  }
}

describe('a results file that is not JSON at a secret', () => {
  let dir: string;
  before(async () => {
    dir = functionProject({ 'fn.ts': 'export const fn = () => "x";\n' }, [], 2);
    const r = await runCli(['run', '-o', 'good.json'], { cwd: dir, env: ENV });
    assert.equal(r.code, 0, r.stderr);
    // Read whole: not JSON from its first value on.
    writeFileSync(join(dir, 'whole.json'), `{"schemaVersion": 1 ${UNQUOTED}}`);
    // Read a case at a time: the layout is kept, one case line is broken inside.
    const lines = readFileSync(join(dir, 'good.json'), 'utf8').split('\n');
    const at = lines.findIndex((line) => line.startsWith('        {"'));
    assert.ok(at > 0, 'a case line');
    lines[at] = lines[at]!.replace(/^ {8}\{/, `        {"n": 1 ${UNQUOTED}, `);
    writeFileSync(join(dir, 'case.json'), lines.join('\n'));
  });

  for (const file of ['whole.json', 'case.json']) {
    it(`${file}: every reader quotes the secret redacted before the cut`, async () => {
      const commands = [
        ['show', file],
        ['report', file],
        ['compare', 'good.json', file],
        ['run', '-o', 'again.json', '--baseline', file],
        // A merge refuses artifacts that are not shards before it reads their cases.
        ...(file === 'whole.json' ? [['merge', 'good.json', file, '-o', 'merged.json']] : []),
      ];
      for (const argv of commands) {
        const r = await runCli(argv, { cwd: dir, env: ENV });
        const what = argv.join(' ');
        assert.equal(r.code, 2, `${what}: ${r.stdout}${r.stderr}`);
        assert.match(r.stderr, /is not JSON: .*found "x{15}\[reda…"/, `${what}: ${r.stderr}`);
        assertClean(r.stdout + r.stderr, what);
      }
    });
  }
});

describe("a results file that is not JSON at the config's secret, read before the config", () => {
  it('run --baseline and --resume quote it redacted: the config reads it from a plain name', async () => {
    const dir = functionProject({ 'fn.ts': 'export const fn = () => "x";\n' }, [], 1);
    // A key the config reads from a variable whose name says nothing: only the config knows it.
    const config = readFileSync(join(dir, 'evals.yaml'), 'utf8');
    writeFileSync(
      join(dir, 'evals.yaml'),
      config.replace(
        /^suites:/m,
        'defaults:\n  judge: { model: m, apiKey: "${RAW_VALUE}", baseUrl: "http://127.0.0.1:8080/v1" }\nsuites:',
      ),
    );
    const env = { RAW_VALUE: TOKEN };
    writeFileSync(join(dir, 'whole.json'), `{"schemaVersion": 1 ${UNQUOTED}}`);
    writeFileSync(join(dir, 'bare.json'), `{"schemaVersion": 1 ${TOKEN}}`);
    for (const file of ['whole.json', 'bare.json']) {
      for (const argv of [
        ['run', '-o', 'again.json', '--baseline', file],
        ['run', '--resume', file],
        ['run', '--dry-run', '--resume', file],
      ]) {
        const r = await runCli(argv, { cwd: dir, env });
        const what = argv.join(' ');
        assert.equal(r.code, 2, `${what}: ${r.stdout}${r.stderr}`);
        assert.match(
          r.stderr,
          /is not JSON: .*found "(x{15}\[reda…|\[redacted\])"/,
          `${what}: ${r.stderr}`,
        );
        assertClean(r.stdout + r.stderr, what);
      }
    }
  });
});
