/**
 * A run in a terminal that goes away (the window closed, the ssh session dropped): the process
 * gets SIGHUP, and every later write to the terminal fails with EIO. The run stops as at Ctrl-C
 * and its partial artifact holds the cases that finished, none of them errored by the dead
 * terminal: an EIO thrown from the "stopping" message used to end the process as an uncaught
 * exception, which the exit guard wrote into the cases in flight as their error, so the resumed
 * run reported errors that never happened. The terminal is a real pseudo-terminal, opened by
 * util-linux `script` (Debian's essential package bsdutils, so on every machine the README
 * names).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { ResultsArtifact } from '../src/types/index.ts';
import { repoRoot } from './helpers/cli.ts';
import { suiteProject } from './helpers/suite-project.ts';
import { waitUntil } from './helpers/wait-until.ts';

/** Rows n = 0..9 run by a command that notes each call and takes 150 ms, two at a time. */
function project(): string {
  const rows = Array.from({ length: 10 }, (_, n) => `{ n: "${n}" }`).join(', ');
  return suiteProject(
    [
      `testset: { cases: [${rows}] }`,
      'concurrency: 2',
      'target: { type: command, run: [node, agent.mjs] }',
      'evaluators:',
      '  - { id: eq, use: is-equals, with: { expected: ok, actual: "{{ output }}" } }',
    ],
    {
      'agent.mjs': `import { appendFileSync } from 'node:fs';
process.stdin.resume();
process.stdin.on('end', () => setTimeout(() => {
  appendFileSync('calls', 'x');
  process.stdout.write('ok');
}, 150));
`,
    },
  );
}

/** The run's artifact once it is written and marked interrupted, or undefined. */
function partial(path: string): ResultsArtifact | undefined {
  try {
    const artifact = JSON.parse(readFileSync(path, 'utf8')) as ResultsArtifact;
    return artifact.interrupted ? artifact : undefined;
  } catch {
    return undefined;
  }
}

describe('the terminal hangs up mid-run', () => {
  it('keeps the finished cases, and no case carries the dead terminal as its error', async () => {
    const dir = project();
    const main = pathToFileURL(join(repoRoot, 'src', 'cli', 'main.ts')).href;
    writeFileSync(
      join(dir, 'evals-src.mjs'),
      `const { main } = await import(${JSON.stringify(main)});\nprocess.exitCode = await main(process.argv.slice(2));\n`,
    );
    const tsx = import.meta.resolve('tsx');
    // `exec`: the CLI leads the terminal's session, as a shell's foreground job gets the hangup.
    const line = `exec '${process.execPath}' --import '${tsx}' evals-src.mjs run -o out.json`;
    const terminal = spawn('script', ['-qfec', line, '/dev/null'], {
      cwd: dir,
      stdio: ['pipe', 'ignore', 'ignore'],
      env: { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: '', CI: '' },
    });
    const calls = join(dir, 'calls');
    const started = await waitUntil(
      () => existsSync(calls) && readFileSync(calls, 'utf8').length >= 2,
      200,
    );
    // The terminal goes away: `script` holds its master side, and dies with it.
    terminal.kill('SIGKILL');
    assert.ok(started, 'the run never got going');
    const out = join(dir, 'out.json');
    assert.ok(await waitUntil(() => partial(out) !== undefined, 200), 'no partial artifact');
    const cases = partial(out)?.runs[0]?.cases ?? [];
    assert.ok(cases.length > 0 && cases.length < 10, `${cases.length} cases`);
    assert.deepEqual(
      cases.filter((c) => c.error !== null).map((c) => c.error),
      [],
    );
  });
});
