/**
 * The reporter `npm test` runs under CI (scripts/test-reporter.mjs), run by Node's test runner in
 * a child process on scratch test files: a dot per passing test, each failure in full, the
 * slowest files, then the runner's closing counts as the last lines; and a run in which no test
 * ran fails.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { text } from 'node:stream/consumers';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot, scratch, writeFiles, type CliResult } from './helpers/cli.ts';

const REPORTER = join(repoRoot, 'scripts', 'test-reporter.mjs');

/** Node's runner over `files` (name → source) in a scratch folder, with the compact reporter. */
async function runReporter(files: Record<string, string>): Promise<CliResult> {
  const dir = scratch();
  writeFiles(dir, files);
  // This file runs under the runner, which tells its children so through NODE_TEST_CONTEXT: a
  // child that has it reports to this run instead of running its own.
  const { NODE_TEST_CONTEXT: _ours, ...env } = process.env;
  const child = spawn(
    process.execPath,
    ['--test', `--test-reporter=${REPORTER}`, ...Object.keys(files)],
    { cwd: dir, env: { ...env, CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const [stdout, stderr, [code, signal]] = await Promise.all([
    text(child.stdout),
    text(child.stderr),
    once(child, 'close') as Promise<[number | null, NodeJS.Signals | null]>,
  ]);
  clearTimeout(timer);
  return { code, signal, stdout, stderr };
}

describe('the CI test reporter', () => {
  it('prints dots, the failure in full, the slowest files, and the counts last', async () => {
    const r = await runReporter({
      'a.test.mjs': [
        "import { it } from 'node:test';",
        "it('one', () => {});",
        "it('two', async () => { await new Promise((r) => setTimeout(r, 300)); });",
        '',
      ].join('\n'),
      'b.test.mjs': [
        "import { describe, it } from 'node:test';",
        "import assert from 'node:assert/strict';",
        "describe('group', () => {",
        "  it('breaks', () => { assert.equal(1, 2, 'the reason it broke'); });",
        '});',
        '',
      ].join('\n'),
    });
    assert.equal(r.code, 1, r.stderr);
    const out = r.stdout;
    assert.match(out, /^\.\.x\n|^\.x\.\n|^x\.\.\n/, out);
    assert.match(
      out,
      /failing tests:\n\n✖ breaks \(.*b\.test\.mjs:4\)\n[\s\S]*the reason it broke/,
    );
    // a.test.mjs waits 300 ms in one test, so it comes first; both files are listed.
    const slow =
      /slowest test files \(of 2\):\n {2}\s*(\d+\.\d) s {2}a\.test\.mjs\n {2}\s*\d+\.\d s {2}b\.test\.mjs\n/.exec(
        out,
      );
    assert.ok(slow, out);
    assert.ok(Number(slow[1]) >= 0.3, out);
    // The runner's closing counts are the last lines, as Node's spec reporter prints them.
    const lines = out.trimEnd().split('\n');
    assert.match(lines.at(-8) ?? '', /^ℹ tests 3$/, out);
    assert.match(lines.at(-1) ?? '', /^ℹ duration_ms \d/, out);
    assert.ok(out.indexOf('slowest test files') < out.indexOf('ℹ tests 3'), out);
  });

  it('fails a run in which no test ran', async () => {
    const r = await runReporter({ 'empty.test.mjs': "import 'node:test';\n" });
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stdout, /no test ran: a test run that executes nothing is a failure\n$/);
    assert.doesNotMatch(r.stdout, /slowest test files/);
  });
});
