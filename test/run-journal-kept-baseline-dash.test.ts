/**
 * The command a plain run prints to finish a killed run it kept aside names that run's baseline
 * (`--baseline FILE`) so that, run as printed through a shell, it works when FILE's name starts
 * with `-` (`--baseline -b.json` is refused as an option with no value). A real run killed with
 * SIGKILL; the printed command run by `sh`, and the one `evals show` prints for the kept partial.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { evalsBin, runCli } from './helpers/cli.ts';
import { artifactAt, caseLines, project, start } from './helpers/journal-run.ts';
import { waitUntil } from './helpers/wait-until.ts';

/** `command` (`evals run …`, as printed) run by a POSIX shell in `dir`. */
function shell(dir: string, command: string): Promise<{ code: number; stderr: string }> {
  const script = `evals() { "$EVALS_NODE" "$EVALS_BIN" "$@"; }\n${command}\n`;
  const env = { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: '' };
  const options = { cwd: dir, env: { ...env, EVALS_NODE: process.execPath, EVALS_BIN: evalsBin } };
  return new Promise((resolve) => {
    execFile('sh', ['-c', script], options, (error, _stdout, stderr) =>
      resolve({ code: error === null ? 0 : Number(error.code), stderr }),
    );
  });
}

/** A run comparing with -b.json killed, then a plain run on its -o: what that run printed. */
async function keptAside(): Promise<{ dir: string; stderr: string }> {
  const dir = project();
  const base = await runCli(['run', '-o', 'base.json'], { cwd: dir });
  assert.equal(base.code, 0, base.stderr);
  renameSync(join(dir, 'base.json'), join(dir, '-b.json'));
  const { child, gone } = start(dir, ['-o', 'r.json', '--baseline=-b.json']);
  assert.ok(await waitUntil(() => caseLines(dir) >= 2, 100), 'cases reached the journal');
  child.kill('SIGKILL');
  await gone;
  const again = await runCli(['run', '-o', 'r.json'], { cwd: dir });
  assert.equal(again.code, 0, again.stderr);
  return { dir, stderr: again.stderr };
}

/** Checks that `command` (as printed) finished the killed run into `into`, compared with -b.json. */
async function finishes(dir: string, command: string, into: string): Promise<void> {
  const finished = await shell(dir, command);
  assert.equal(finished.code, 0, `${command}\n${finished.stderr}`);
  const done = artifactAt(join(dir, into));
  assert.equal(done.interrupted, false);
  assert.match(String((done.comparison?.base as { path?: string }).path), /^(\.\/)?-b\.json$/);
}

it('the printed command finishes a killed run whose baseline is named -b.json', async () => {
  const { dir, stderr } = await keptAside();
  const command = /`(evals run [^`]+)` finishes it/.exec(stderr)?.[1];
  const kept = /kept in (r\.killed-\d+\.json)/.exec(stderr)?.[1];
  assert.ok(command !== undefined && kept !== undefined, stderr);
  // In place: r.json holds the plain run's results.
  await finishes(dir, command, kept);
});

it('evals show of the kept partial names its recorded -b.json so that its command runs', async () => {
  const { dir, stderr } = await keptAside();
  const kept = /kept in (r\.killed-\d+\.json)/.exec(stderr)?.[1];
  assert.ok(kept !== undefined, stderr);
  const shown = await runCli(['show', kept], { cwd: dir });
  assert.equal(shown.code, 0, shown.stderr);
  const command = /to run them: (evals run .+)$/m.exec(shown.stdout)?.[1];
  assert.ok(command !== undefined, shown.stdout);
  await finishes(dir, command, kept);
});
