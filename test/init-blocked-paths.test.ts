/**
 * `evals init` where something stands in the starter's way other than one of its files: a file
 * named `testsets` where it writes `testsets/questions.csv`, a folder named `.gitignore`, a
 * symbolic link that leads nowhere at `evals.yaml`, or a folder name too long to create. Each
 * ended in a Node stack trace (exit 1), the first two after writing part of the starter, so a
 * second `evals init` was then refused for the files the first one left. docs/cli.md: a folder
 * that has one of its files is refused (exit 2) and nothing is written; a file that cannot be
 * written exits 3 with one line saying why. A FIFO named `.gitignore` made it wait for good.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';

describe('evals init: what stands in the way', () => {
  it('refuses a file where it makes a folder (exit 2), writing nothing', async () => {
    const dir = scratch();
    writeFiles(dir, { testsets: 'not a folder\n' });
    const r = await runCli(['init', '.'], { cwd: dir });
    assert.equal(r.code, 2, r.stderr);
    assert.equal(
      r.stderr,
      `error: evals init writes into a folder without these files, but ${dir} already has: testsets (not a folder, where evals init writes testsets/)\n`,
    );
    assert.deepEqual(readdirSync(dir), ['testsets']);
    // With the file moved away, init then writes the starter.
    const again = await runCli(['init', '.', '--template', 'command'], { cwd: scratch() });
    assert.equal(again.code, 0, again.stderr);
  });

  it('refuses a folder named .gitignore (exit 2), writing nothing', async () => {
    const dir = scratch();
    mkdirSync(join(dir, '.gitignore'));
    const r = await runCli(['init', '.'], { cwd: dir });
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /already has: \.gitignore \(a folder, where evals init adds to the file/,
    );
    assert.doesNotMatch(r.stderr, /\n\s+at /);
    assert.deepEqual(readdirSync(dir), ['.gitignore']);
  });

  it('refuses a FIFO named .gitignore (exit 2) instead of waiting for a reader', async () => {
    const dir = scratch();
    execFileSync('mkfifo', [join(dir, '.gitignore')]);
    const r = await runCli(['init', '.'], { cwd: dir, timeoutMs: 20_000 });
    assert.equal(r.signal, null, 'ended on its own, not killed by the time limit');
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /already has: \.gitignore \(a FIFO \(named pipe\), where evals init adds/,
    );
    assert.deepEqual(readdirSync(dir), ['.gitignore']);
  });

  it('counts a symbolic link that leads nowhere as a file there (exit 2)', async () => {
    const dir = scratch();
    symlinkSync('nowhere.yaml', join(dir, 'evals.yaml'));
    const r = await runCli(['init', '.'], { cwd: dir });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /already has: evals\.yaml\n$/);
    assert.deepEqual(readdirSync(dir), ['evals.yaml']);
  });

  it('says in one line, exit 3, that a file could not be written, and leaves nothing', async () => {
    const dir = scratch();
    const long = 'a'.repeat(300);
    const r = await runCli(['init', long], { cwd: dir });
    assert.equal(r.code, 3, r.stderr);
    assert.match(
      r.stderr,
      /^error: a{300}\/evals\.yaml could not be written \(ENAMETOOLONG[^\n]*\); the files evals init had written are removed again, so nothing was written\n$/,
    );
    assert.deepEqual(readdirSync(dir), []);
  });
});

describe('evals init --help', () => {
  it('lists its exit codes, as every other command does', async () => {
    const r = await runCli(['init', '--help'], { cwd: scratch() });
    assert.equal(r.code, 0, r.stderr);
    const codes = /Exit codes: ([^]*)$/.exec(r.stdout)?.[1]?.replace(/\s+/g, ' ') ?? '';
    assert.match(codes, /^0 written · 2 bad usage, or the folder has a file of the starter/);
    assert.match(codes, /· 3 a file could not be written/);
  });
});
