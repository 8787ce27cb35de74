/**
 * A partial recovered from a killed run's journal records the baseline that run compared with
 * (`baseline` in the artifact), so a later `evals run --resume` typed without `--baseline`
 * compares and gates with it, and says so; `--baseline` given wins; a recorded baseline whose
 * file is gone is refused (exit 2), naming it and the flag that overrides it. Real runs killed
 * with SIGKILL.
 */
import assert from 'node:assert/strict';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { validateArtifact } from '../src/artifact/schema.ts';
import { runCli } from './helpers/cli.ts';
import { artifactAt, killedComparedRun } from './helpers/journal-run.ts';

const basePath = (path: string): unknown =>
  (artifactAt(path).comparison?.base as { path?: string } | undefined)?.path;

/**
 * A killed compared run's journal recovered into r.json by a resumption refused for a changed
 * config (undone after): r.json is the recovered partial, and nothing else names its baseline.
 */
async function recoveredPartial(): Promise<string> {
  const dir = await killedComparedRun();
  const config = join(dir, 'evals.yaml');
  const original = readFileSync(config, 'utf8');
  writeFileSync(config, original.replace('concurrency: 2', 'concurrency: 3'));
  const refused = await runCli(['run', '--resume', 'r.json'], { cwd: dir });
  assert.equal(refused.code, 2, refused.stderr);
  assert.match(refused.stderr, /recovered \d+ of 8 cases/);
  writeFileSync(config, original);
  return dir;
}

describe('evals run --resume: a recovered partial records its baseline', () => {
  it('records it in the artifact (schema-valid) and --resume alone compares with it, saying so', async () => {
    const dir = await recoveredPartial();
    const partial = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as unknown;
    assert.deepEqual(validateArtifact(partial), []);
    const base = artifactAt(join(dir, 'base.json'));
    assert.deepEqual((partial as { baseline?: unknown }).baseline, {
      path: 'base.json',
      config: base.config,
      git: base.git === null ? null : { sha: base.git.sha, ref: base.git.ref },
      startedAt: base.startedAt,
    });
    const r = await runCli(['run', '--resume', 'r.json'], { cwd: dir });
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stderr, /comparing with base\.json, the baseline r\.json records/);
    const done = artifactAt(join(dir, 'r.json'));
    assert.equal(done.interrupted, false);
    assert.equal(basePath(join(dir, 'r.json')), 'base.json');
    assert.equal(done.notCompared, undefined);
  });

  it('--baseline given wins over the recorded one', async () => {
    const dir = await recoveredPartial();
    const other = await runCli(['run', '-o', 'other.json'], { cwd: dir });
    assert.equal(other.code, 0, other.stderr);
    const r = await runCli(['run', '--resume', 'r.json', '--baseline', 'other.json'], {
      cwd: dir,
    });
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stderr, /comparing with other\.json, not with r\.json's baseline base\.json/);
    assert.equal(basePath(join(dir, 'r.json')), 'other.json');
  });

  it('refuses (exit 2) when the recorded baseline is gone, naming it and --baseline', async () => {
    const dir = await recoveredPartial();
    renameSync(join(dir, 'base.json'), join(dir, 'moved.json'));
    const before = readFileSync(join(dir, 'r.json'), 'utf8');
    const r = await runCli(['run', '--resume', 'r.json'], { cwd: dir });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /r\.json's baseline base\.json cannot be read now .*--baseline FILE/);
    assert.equal(readFileSync(join(dir, 'r.json'), 'utf8'), before, 'r.json is left as it was');
    const moved = await runCli(['run', '--resume', 'r.json', '--baseline', 'moved.json'], {
      cwd: dir,
    });
    assert.equal(moved.code, 0, moved.stderr);
    assert.equal(basePath(join(dir, 'r.json')), 'moved.json');
  });

  it('a killed run kept aside by a plain run records it too', async () => {
    const dir = await killedComparedRun();
    const plain = await runCli(['run', '-o', 'r.json'], { cwd: dir });
    assert.equal(plain.code, 0, plain.stderr);
    const kept = /kept in (r\.killed-\d+\.json)/.exec(plain.stderr)?.[1];
    assert.ok(kept !== undefined, plain.stderr);
    assert.equal(artifactAt(join(dir, kept)).baseline?.path, 'base.json');
    const r = await runCli(['run', '--resume', kept, '-o', 'done.json'], { cwd: dir });
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    assert.equal(basePath(join(dir, 'done.json')), 'base.json');
  });
});
