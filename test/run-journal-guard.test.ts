/**
 * The recovery journal's guards (see run-journal-kill.test.ts for the recovery itself): a live
 * run's journal refuses a second writer, a plain run keeps a killed run's cases aside, outputs
 * that are not files take none, and its lines are the artifact's scrubbed text.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { functionProject, runCli, writeFiles } from './helpers/cli.ts';
import { waitUntil } from './helpers/wait-until.ts';
import {
  artifactAt,
  caseLines,
  casesFolders,
  CASE_LINE,
  journalOf,
  journalText,
  killedRun,
  project,
  ROWS,
  start,
} from './helpers/journal-run.ts';

describe('evals run: a killed run keeps its recovery journal safe', () => {
  it('a run writing an output another live run journals is refused (exit 2)', async () => {
    // Slow enough to be still running when both other runs have loaded (it is killed after).
    const dir = project(3000);
    const first = start(dir, ['-o', 'r.json']);
    try {
      assert.ok(await waitUntil(() => existsSync(journalOf(dir)), 100), 'the journal exists');
      const r = await runCli(['run', '-o', 'r.json'], { cwd: dir });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /r\.json is being written by another evals run \(pid \d+/);
      assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
      const resume = await runCli(['run', '--resume', 'r.json'], { cwd: dir });
      assert.equal(resume.code, 2, resume.stderr);
      assert.match(resume.stderr, /being written by another evals run/);
    } finally {
      first.child.kill('SIGKILL');
      await first.gone;
    }
  });

  it('a plain run keeps a killed run’s journal as a partial artifact and names the command that finishes it', async () => {
    const dir = project();
    await killedRun(dir, 2);
    const recovered = caseLines(dir);
    const r = await runCli(['run', '-o', 'r.json'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    const kept = readdirSync(dir).find((name) => /^r\.killed-\d+\.json$/.test(name));
    assert.ok(kept !== undefined, `a kept partial in ${readdirSync(dir).join(', ')}`);
    assert.match(r.stderr, new RegExp(`warning: an earlier run writing r\\.json was killed at `));
    assert.ok(r.stderr.includes(`\`evals run --resume ${kept}\` finishes it in place`), r.stderr);
    const partial = artifactAt(join(dir, kept));
    assert.equal(partial.interrupted, true);
    assert.equal(partial.runs[0]!.cases.length, recovered);
    assert.equal(partial.runs[0]!.summary.cases, recovered);
    assert.ok(!existsSync(journalOf(dir)));
    const resumed = await runCli(['run', '--resume', kept, '-o', 'done.json'], { cwd: dir });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(artifactAt(join(dir, 'done.json')).runs[0]!.cases.length, ROWS);
  });

  it('a journal from another host (a container that is gone): refused while fresh, recovered once untouched for a minute', async () => {
    const dir = project();
    await killedRun(dir, 2);
    const recovered = caseLines(dir);
    const path = journalOf(dir);
    const [first, ...rest] = readFileSync(path, 'utf8').split('\n');
    const header = JSON.parse(first ?? '{}') as { host: string };
    writeFileSync(
      path,
      [JSON.stringify({ ...header, host: 'a-container-long-gone' }), ...rest].join('\n'),
    );
    // Just written: its writer may live on that host, so it is not taken.
    const fresh = await runCli(['run', '--resume', 'r.json'], { cwd: dir });
    assert.equal(fresh.code, 2, fresh.stderr);
    assert.match(fresh.stderr, /being written by another evals run .*on a-container-long-gone/);
    assert.match(fresh.stderr, /rename .* aside rather than delete it/);
    // Nor by a plain run, though its pid runs on no process here, while its heartbeat (every
    // 10 s) is under a minute old: nothing kept aside, nothing removed (its case folder
    // included), r.json not written.
    const recent = new Date(Date.now() - 50_000);
    utimesSync(path, recent, recent);
    const plain = await runCli(['run', '-o', 'r.json'], { cwd: dir });
    assert.equal(plain.code, 2, plain.stderr);
    assert.match(plain.stderr, /being written by another evals run .*on a-container-long-gone/);
    const left = readdirSync(dir).filter((name) => /^r\.|^\.r\.json\.journal/.test(name));
    const folder = casesFolders(dir)[0]!.split('/').pop()!;
    assert.deepEqual(left.sort(), ['.r.json.journal', folder].sort());
    assert.equal(caseLines(dir), recovered);
    // A live writer touches its journal every 10 s: one untouched for two minutes has none.
    const past = new Date(Date.now() - 120_000);
    utimesSync(path, past, past);
    const resumed = await runCli(['run', '--resume', 'r.json'], { cwd: dir });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stderr, new RegExp(`recovered ${recovered} of ${ROWS} cases`));
    assert.equal(artifactAt(join(dir, 'r.json')).runs[0]!.cases.length, ROWS);
  });

  it('no journal for /dev/null, and none left after a run that finished', async () => {
    const dir = project(0);
    const r = await runCli(['run', '-o', '/dev/null'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!existsSync('/dev/.null.journal'));
    const done = await runCli(['run', '-o', 'r.json'], { cwd: dir });
    assert.equal(done.code, 0, done.stderr);
    assert.deepEqual(
      readdirSync(dir).filter((name) => name.includes('journal')),
      [],
    );
  });

  it('journal lines are scrubbed as the artifact’s: the same text, the grid point’s too', async () => {
    const SECRET = 'sk-journal-0123456789abcdef';
    const dir = functionProject({}, [], 6);
    writeFiles(dir, {
      'evals.yaml': [
        'version: 1',
        'suites:',
        '  - id: s',
        '    testset: { path: rows.csv }',
        `    target: { type: command, run: [sh, -c, 'echo "key $OPENAI_API_KEY"; sleep 0.3'], env: { OPENAI_API_KEY: "\${RAWK}" } }`,
        '    concurrency: 1',
        // A grid value that is the secret: the frame's run names it, scrubbed as the artifact's.
        `    grid: { key: ["\${RAWK}"] }`,
        '    evaluators:',
        '      - { id: ok, use: contains, with: { values: ["key"] } }',
        '',
      ].join('\n'),
    });
    const { child, gone } = start(dir, ['-o', 'r.json'], { RAWK: SECRET });
    assert.ok(await waitUntil(() => caseLines(dir) >= 2, 100));
    child.kill('SIGKILL');
    await gone;
    const journal = journalText(dir);
    assert.ok(!journal.includes(SECRET), 'the journal holds no secret');
    assert.match(journal, /\[redacted\]/);
    const lines = journal.split('\n').filter((line) => CASE_LINE.test(line));
    const r = await runCli(['run', '--resume', 'r.json'], { cwd: dir, env: { RAWK: SECRET } });
    assert.equal(r.code, 0, r.stderr);
    const artifact = readFileSync(join(dir, 'r.json'), 'utf8');
    assert.ok(lines.length >= 2);
    // The very line of the artifact (whose last case of a run has no comma).
    for (const line of lines) assert.ok(artifact.includes(line.replace(/,$/, '')));
  });
});
