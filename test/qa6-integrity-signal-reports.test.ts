/**
 * A second Ctrl-C while `--junit` and `--report` are being written, after the artifact: the
 * run quits, and says which files it did not write and how to make both reports from the results
 * it kept (exit 130: the run ended short of what it was asked to write). The JUnit target is a
 * FIFO nobody reads, so its write waits for as long as the test wants: no timing involved.
 */
import assert from 'node:assert/strict';
import { execFileSync, type ChildProcess } from 'node:child_process';
import { closeSync, constants, existsSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ResultsArtifact } from '../src/types/index.ts';
import { evalsFromSources as evals } from './helpers/evals-from-sources.ts';
import { signalTwiceAfterResults } from './helpers/signals.ts';
import { suiteProject } from './helpers/suite-project.ts';

/** Two passing cases; with `interruptAt`, the run's own case of that id sends it a Ctrl-C. */
function project(interruptAt?: string): string {
  const dir = suiteProject(
    [
      'testset: { cases: [{ q: a0 }, { q: a1 }, { q: a2 }] }',
      'concurrency: 1',
      'function: ./fn.mjs#fn',
      'evaluators:',
      '  - { use: contains, with: { values: [a] } }',
    ],
    {
      'fn.mjs': `export async function fn({ testCase }) {\n  if (testCase.q === ${JSON.stringify(interruptAt ?? '')}) {\n    // Returns once the CLI heard it: no case starts after this one.\n    const heard = new Promise((resolve) => process.once('SIGINT', resolve));\n    process.kill(process.pid, 'SIGINT');\n    await heard;\n  }\n  return testCase.q;\n}\n`,
    },
  );
  execFileSync('mkfifo', [join(dir, 'junit.xml')]);
  return dir;
}

/** After the partial artifact of a run its case a0 interrupted: the second Ctrl-C. */
function secondSignalDuringReports(dir: string) {
  return (child: ChildProcess): void => {
    let stderr = '';
    let sent = false;
    let reader: number | undefined;
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (!sent && stderr.includes('results written to out.json')) {
        sent = true;
        child.kill('SIGINT');
      }
      if (reader === undefined && stderr.includes('quit at the second signal')) {
        reader = openSync(join(dir, 'junit.xml'), constants.O_RDONLY | constants.O_NONBLOCK);
      }
    });
    child.on('exit', () => {
      if (reader !== undefined) closeSync(reader);
    });
  };
}

/**
 * Once the artifact is written (the JUnit write then waits on its FIFO), one Ctrl-C; once the
 * CLI said it is stopping, another. Once it quit, a reader opens the FIFO, so no write of the
 * dying process is left waiting on it.
 */
function twoSignalsDuringReports(dir: string) {
  return (child: ChildProcess): void => {
    let reader: number | undefined;
    signalTwiceAfterResults(child, (stderr) => {
      if (reader === undefined && stderr.includes('quit at the second signal')) {
        reader = openSync(join(dir, 'junit.xml'), constants.O_RDONLY | constants.O_NONBLOCK);
      }
    });
    child.on('exit', () => {
      if (reader !== undefined) closeSync(reader);
    });
  };
}

describe('a second Ctrl-C while the reports are written after the artifact', () => {
  it('names the files left unwritten and the command that makes both reports; exit 130', async () => {
    const dir = project();
    const r = await evals(
      ['run', '-o', 'out.json', '--junit', 'junit.xml', '--report', 'report.html'],
      dir,
      twoSignalsDuringReports(dir),
    );
    assert.equal(r.code, 130, r.stderr);
    assert.match(
      r.stderr,
      /quit at the second signal; the results are written to out\.json; not written: junit\.xml \(--junit\), report\.html \(--report\); make the HTML and JUnit reports from them with: evals report out\.json -o report\.html --junit junit\.xml\n/,
    );
    const artifact = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as ResultsArtifact;
    assert.equal(artifact.interrupted, false);
    assert.equal(artifact.runs[0]?.cases.length, 3);
    assert.equal(existsSync(join(dir, 'report.html')), false);

    // The command it printed makes both reports from the kept results (the FIFO the JUnit
    // report waited on is gone: the command writes a file in its place).
    const command = /make the HTML and JUnit reports from them with: (.+)\n/.exec(r.stderr)?.[1];
    assert.ok(command !== undefined, r.stderr);
    rmSync(join(dir, 'junit.xml'));
    const made = await evals(command.split(' ').slice(1), dir);
    assert.equal(made.code, 0, made.stderr);
    assert.match(readFileSync(join(dir, 'report.html'), 'utf8'), /<html/i);
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    assert.match(junit, /<testsuite name="s" tests="3" failures="0" errors="0"/);
    assert.equal(junit.match(/<testcase /g)?.length, 3);
  });

  it('after an interrupt mid-run, it also prints the command that finishes the run', async () => {
    const dir = project('a0');
    const r = await evals(
      ['run', '-o', 'out.json', '--junit', 'junit.xml', '--report', 'report.html'],
      dir,
      secondSignalDuringReports(dir),
    );
    assert.equal(r.code, 130, r.stderr);
    assert.match(r.stderr, /stopping: no new cases start/);
    assert.match(
      r.stderr,
      /quit at the second signal; the results are written to out\.json; not written: junit\.xml \(--junit\), report\.html \(--report\); .*; or finish the run, which writes them, with: evals run --junit junit\.xml --report report\.html --resume out\.json\n/,
    );
    const artifact = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as ResultsArtifact;
    assert.equal(artifact.interrupted, true);
  });
});
