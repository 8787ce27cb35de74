/**
 * QA #8: `evals show` on an interrupted artifact ends with the `--resume` command that finishes
 * it. It must be the working command the interrupted run printed: with the config the artifact
 * records when that is not the `evals.yaml` found by default, and with `--ignore-pin` when the
 * artifact records `pinIgnored`. Before, show printed `evals run --resume FILE` alone, which
 * then failed (no config found; the stale pin refused). Real interrupts: a case of the run
 * aborts the signal the CLI was handed, in this process.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ResultsArtifact } from '../src/types/index.ts';
import { scratch, writeFiles } from './helpers/cli.ts';
import { interruptedRun, runInProcess } from './helpers/in-process.ts';

/** What the function module calls to interrupt the run (set by `interruptedRun`). */
const INTERRUPT = '__qa9LcInterrupt';

/**
 * A project in `dir/sub` (the folder's evals.yaml, three cases over rows.csv, one at a time);
 * its case a1 interrupts the run, once `INTERRUPT` is set. `testset` is the suite's testset.
 */
function project(sub: string, testset = '{ path: rows.csv }'): string {
  const dir = scratch();
  writeFiles(dir, {
    [join(sub, 'evals.yaml')]: [
      'version: 1',
      'suites:',
      '  - id: s',
      `    testset: ${testset}`,
      '    function: ./fn.mjs#fn',
      '    concurrency: 1',
      '    evaluators:',
      '      - { use: contains, with: { values: [a] } }',
      '',
    ].join('\n'),
    [join(sub, 'rows.csv')]: 'q\na0\na1\na2\n',
    [join(sub, 'fn.mjs')]: `export async function fn({ testCase }) {
  if (testCase.q === 'a1') globalThis.${INTERRUPT}?.();
  return testCase.q;
}
`,
  });
  return dir;
}

/** `evals ...argv` in `dir`, interrupted as a Ctrl-C would (exit 130); its stderr. */
function interrupted(argv: string[], dir: string): Promise<string> {
  return interruptedRun(INTERRUPT, argv, dir);
}

/** The command `evals show FILE --failed` says finishes the run. */
async function showResume(file: string, dir: string): Promise<string> {
  const shown = await runInProcess(['show', file, '--failed'], dir);
  assert.equal(shown.code, 0, shown.stderr);
  const command = /; (evals run .*) runs what is left\n/.exec(shown.stdout)?.[1];
  assert.ok(command !== undefined, shown.stdout);
  return command;
}

/** Runs `command` (as printed, no quoting in it) in `dir`; the artifact it writes to `file`. */
async function finish(command: string, dir: string, file: string): Promise<ResultsArtifact> {
  const r = await runInProcess(command.split(' ').slice(1), dir);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as ResultsArtifact;
}

describe('evals show: the --resume command of an interrupted artifact', () => {
  it('names the config the run was given, as the run did; the command finishes the run', async () => {
    const dir = project('r1');
    const run = await interrupted(['run', 'r1/evals.yaml', '-o', 'sub.json'], dir);
    assert.match(run, /evals run r1\/evals\.yaml --resume sub\.json\n/);
    const command = await showResume('sub.json', dir);
    assert.equal(command, 'evals run r1/evals.yaml --resume sub.json');
    const finished = await finish(command, dir, 'sub.json');
    assert.equal(finished.interrupted, false);
    assert.equal(finished.runs[0]?.cases.length, 3);
  });

  it('adds --ignore-pin when the artifact records pinIgnored', async () => {
    const dir = project('.', '{ path: rows.csv, revision: "0123456789ab" }');
    const run = await interrupted(['run', '--ignore-pin', '-o', 'p.json'], dir);
    assert.match(run, /evals run --ignore-pin --resume p\.json\n/);
    const command = await showResume('p.json', dir);
    assert.equal(command, 'evals run --ignore-pin --resume p.json');
    const finished = await finish(command, dir, 'p.json');
    assert.equal(finished.interrupted, false);
    assert.equal(finished.pinIgnored, true);
    assert.equal(finished.runs[0]?.cases.length, 3);
  });
});
