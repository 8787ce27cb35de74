/**
 * `evals run` at the command line (issue 22): a signal while the CLI loads, the `--resume`
 * command printed at Ctrl-C and a resumption written back where it belongs, `FORCE_COLOR`
 * through a pipe, a folder or a `.yml` named as the config, `--ignore-pin`, and `testset diff`
 * labelling each side with its own revision. On the built CLI, as a child process.
 */
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { readSettings } from '../src/action/settings.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { evalsBin, repoRoot, runCli, runNode, scratch, writeFiles } from './helpers/cli.ts';

/** A project of `rows` cases; `fn` answers "x" after `delayMs`, writing `started` first. */
function project(options: { rows?: number; delayMs?: number; suite?: string[] } = {}): string {
  const dir = scratch();
  const { rows = 3, delayMs = 0, suite = [] } = options;
  writeFiles(dir, {
    'evals.yaml': [
      'version: 1',
      'suites:',
      '  - id: s',
      '    testset: { path: rows.csv }',
      '    function: ./fn.ts#fn',
      '    concurrency: 4',
      ...suite.map((line) => `    ${line}`),
      '    evaluators:',
      '      - { id: ok, use: is-equals, with: { expected: "x" } }',
      '',
    ].join('\n'),
    'rows.csv': ['n', ...Array.from({ length: rows }, (_, i) => String(i + 1)), ''].join('\n'),
    'fn.ts': `import { writeFileSync } from 'node:fs';
export async function fn(): Promise<string> {
  writeFileSync('started', '');
  await new Promise((resolve) => setTimeout(resolve, ${delayMs}));
  return 'x';
}
`,
  });
  return dir;
}

const artifactAt = (path: string): ResultsArtifact =>
  JSON.parse(readFileSync(path, 'utf8')) as ResultsArtifact;

/** Waits (bounded) for `path` to exist. */
async function waitFor(path: string): Promise<void> {
  for (let i = 0; i < 600 && !existsSync(path); i++) await sleep(25);
  assert.ok(existsSync(path), `${path} appeared`);
}

describe('evals run: signals', () => {
  it('a SIGTERM while the CLI is still loading is handled: exit 130, the artifact written', async () => {
    // The real launcher, in front of a bundle that takes its time to load: it says when it
    // starts loading, then waits for the test's signal to have been sent.
    const dir = project();
    mkdirSync(join(dir, 'bin'));
    mkdirSync(join(dir, 'lib'));
    copyFileSync(evalsBin, join(dir, 'bin', 'evals.js'));
    writeFileSync(
      join(dir, 'lib', 'cli.bundle.js'),
      `import { existsSync, writeFileSync } from 'node:fs';
writeFileSync('loading', '');
const until = Date.now() + 20000;
while (!existsSync('signalled') && Date.now() < until) {}
export * from ${JSON.stringify(join(repoRoot, 'lib', 'cli.bundle.js'))};
`,
    );
    const r = await runNode([join(dir, 'bin', 'evals.js'), 'run', '-o', 'r.json'], {
      cwd: dir,
      onSpawn: (child) => {
        void waitFor(join(dir, 'loading')).then(() => {
          child.kill('SIGTERM');
          writeFileSync(join(dir, 'signalled'), '');
        });
      },
    });
    assert.equal(r.signal, null, 'not ended by the signal itself');
    assert.equal(r.code, 130, r.stderr);
    assert.match(r.stderr, /stopping: no new cases start/);
    assert.equal(artifactAt(join(dir, 'r.json')).interrupted, true);
  });

  it('Ctrl-C prints the exact --resume command; it finishes the run where the partial is', async () => {
    const dir = project({ rows: 40, delayMs: 50 });
    const first = await runCli(['run', '-o', 'part.json', '--concurrency', '2'], {
      cwd: dir,
      onSpawn: (child) => void waitFor(join(dir, 'started')).then(() => child.kill('SIGINT')),
    });
    assert.equal(first.code, 130, first.stderr);
    const command = /to finish it: (.+)$/m.exec(first.stderr)?.[1];
    assert.equal(command, 'evals run --concurrency 2 --resume part.json');
    assert.equal(artifactAt(join(dir, 'part.json')).interrupted, true);

    const second = await runCli(command.split(' ').slice(1), { cwd: dir });
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stderr, /the combined results will replace part\.json/);
    const finished = artifactAt(join(dir, 'part.json'));
    assert.equal(finished.interrupted, false);
    assert.equal(finished.runs[0]!.cases.length, 40);
    assert.equal(existsSync(join(dir, 'evals-results.json')), false, 'not the default path');
  });
});

describe('evals run: colour, config paths and pins', () => {
  it('FORCE_COLOR colours the summary through a pipe; FORCE_COLOR=0 does not', async () => {
    const dir = project();
    const forced = await runCli(['run', '-o', 'r.json'], { cwd: dir, env: { FORCE_COLOR: '1' } });
    assert.equal(forced.code, 0, forced.stderr);
    assert.ok(forced.stdout.includes('\u001b['), 'ANSI colour codes');
    const off = await runCli(['run', '-o', 'r.json'], { cwd: dir, env: { FORCE_COLOR: '0' } });
    assert.ok(!off.stdout.includes('\u001b['), 'no colour codes');
  });

  it('a folder named as the config runs its evals.yaml; a missing .yml names the .yaml', async () => {
    const dir = scratch();
    const sub = project();
    const r = await runCli(['run', sub, '-o', 'r.json'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    const yml = await runCli(['run', 'evals.yml'], { cwd: sub });
    assert.equal(yml.code, 2);
    assert.match(yml.stderr, /evals\.yml: no such file; did you mean evals\.yaml\?/);
  });

  it('--ignore-pin runs a stale pin with a warning and pinIgnored: true; the Action refuses it', async () => {
    const dir = project({ suite: [] });
    const config = join(dir, 'evals.yaml');
    writeFileSync(
      config,
      readFileSync(config, 'utf8').replace(
        '{ path: rows.csv }',
        '{ path: rows.csv, revision: "0123456789ab" }',
      ),
    );
    const refused = await runCli(['run', '-o', 'r.json'], { cwd: dir });
    assert.equal(refused.code, 2, 'a stale pin stops the run');
    const r = await runCli(['run', '-o', 'r.json', '--ignore-pin'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /warning: --ignore-pin: .*does not match its pinned revision/);
    assert.match(r.stdout, /warning: --ignore-pin: a testset did not match its pinned revision/);
    assert.equal(artifactAt(join(dir, 'r.json')).pinIgnored, true);

    const inputs = (name: string): string => (name === 'args' ? '--ignore-pin' : '');
    const settings = readSettings(inputs, dir);
    assert.equal(settings.ok, false);
    assert.match(settings.ok ? '' : settings.errors.join('\n'), /--ignore-pin is refused here/);
  });
});

describe('evals testset diff', () => {
  it('labels B with the revision B has on its own', async () => {
    const dir = scratch();
    writeFiles(dir, { 'a.csv': 'q\nx\ny\n', 'b.csv': 'q\nx\nz\n' });
    const show = await runCli(['testset', 'show', 'b.csv'], { cwd: dir });
    const own = /revision ([0-9a-f]{12})/.exec(show.stdout)?.[1];
    assert.ok(own !== undefined, show.stdout);
    const diff = await runCli(['testset', 'diff', 'a.csv', 'b.csv'], { cwd: dir });
    assert.equal(diff.code, 1);
    assert.match(diff.stdout, new RegExp(`\\+\\+\\+ b\\.csv \\(rev ${own}`));
  });
});
