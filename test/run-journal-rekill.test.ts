/**
 * A recovery journal against what is already beside it: an older complete artifact at `-o` is
 * replaced by the journal's partial, and a resumed run killed in turn leaves a journal holding
 * the cases it took over as well as its own, so a second `--resume` loses none of them.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.ts';
import { waitUntil } from './helpers/wait-until.ts';
import {
  artifactAt,
  caseLines,
  calls,
  journalOf,
  killedComparedRun,
  killedRun,
  project,
  ROWS,
  start,
} from './helpers/journal-run.ts';

describe('evals run: a journal newer than the artifact beside it', () => {
  it('replaces an older complete artifact, and a resumed run killed again keeps its kept cases', async () => {
    const dir = project();
    const earlier = await runCli(['run', '-o', 'r.json'], { cwd: dir });
    assert.equal(earlier.code, 0, earlier.stderr);
    await killedRun(dir, 2);
    const first = caseLines(dir);
    // The resumed run, killed once it journaled a case of its own beyond those it took over.
    const resumed = start(dir, ['--resume', 'r.json']);
    assert.ok(await waitUntil(() => caseLines(dir) > first, 100), 'the resumed run journaled');
    resumed.child.kill('SIGKILL');
    await resumed.gone;
    const second = caseLines(dir);
    assert.ok(second > first, `${second} journaled, ${first} of them taken over`);
    const before = calls(dir);
    const r = await runCli(['run', '--resume', 'r.json'], { cwd: dir });
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stderr, new RegExp(`recovered ${second} of ${ROWS} cases`));
    assert.equal(calls(dir) - before, ROWS - second, 'only the missing cases ran');
    const done = artifactAt(join(dir, 'r.json'));
    assert.equal(done.interrupted, false);
    assert.equal(new Set(done.runs[0]!.cases.map((c) => c.id)).size, ROWS);
    assert.ok(!existsSync(journalOf(dir)));
  });

  it('a run resuming A into B, killed, is resumed by the same command from B’s journal', async () => {
    const dir = project();
    await killedRun(dir, 2);
    // `--resume r.json -o s.json` recovers r.json, then journals beside s.json; killed there.
    const resumed = start(dir, ['--resume', 'r.json', '-o', 's.json']);
    const first = await waitUntil(() => existsSync(join(dir, 'r.json')), 100);
    assert.ok(first, 'r.json recovered');
    const kept = artifactAt(join(dir, 'r.json')).runs[0]!.cases.length;
    assert.ok(
      await waitUntil(() => caseLines(dir, 's.json') > kept, 100),
      'the resumed run journaled a case of its own',
    );
    resumed.child.kill('SIGKILL');
    await resumed.gone;
    const second = caseLines(dir, 's.json');
    const before = calls(dir);
    const r = await runCli(['run', '--resume', 'r.json', '-o', 's.json'], { cwd: dir });
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(
      r.stderr,
      new RegExp(`recovered ${second} of ${ROWS} cases .*; s\\.json now holds`),
    );
    assert.equal(calls(dir) - before, ROWS - second, 'only the cases neither run finished ran');
    const done = artifactAt(join(dir, 's.json'));
    assert.equal(done.interrupted, false);
    assert.equal(new Set(done.runs[0]!.cases.map((c) => c.id)).size, ROWS);
    assert.ok(!existsSync(journalOf(dir, 's.json')));
    // r.json is left as it was: the partial the first kill left.
    assert.equal(artifactAt(join(dir, 'r.json')).runs[0]!.cases.length, kept);
  });

  it('a killed run that compared with a baseline is resumed compared with it, with no --baseline', async () => {
    const dir = await killedComparedRun();
    const r = await runCli(['run', '--resume', 'r.json'], { cwd: dir });
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stderr, /note: comparing with base\.json, the baseline r\.json records/);
    const done = artifactAt(join(dir, 'r.json'));
    assert.equal(done.interrupted, false);
    assert.equal((done.comparison?.base as { path?: string } | undefined)?.path, 'base.json');
    assert.equal(done.notCompared, undefined);
  });

  it('a plain run that keeps a killed run’s cases aside names that run’s baseline in the command that finishes them', async () => {
    const dir = await killedComparedRun();
    const plain = await runCli(['run', '-o', 'r.json'], { cwd: dir });
    assert.equal(plain.code, 0, plain.stderr);
    const kept = /kept in (r\.killed-\d+\.json)/.exec(plain.stderr)?.[1];
    assert.ok(kept !== undefined, plain.stderr);
    const command = `evals run --baseline base.json --resume ${kept}`;
    assert.ok(plain.stderr.includes(`\`${command}\` finishes it in place`), plain.stderr);
    const r = await runCli(command.split(' ').slice(1), { cwd: dir });
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    const done = artifactAt(join(dir, kept));
    assert.equal(done.interrupted, false);
    assert.equal((done.comparison?.base as { path?: string } | undefined)?.path, 'base.json');
  });
});
