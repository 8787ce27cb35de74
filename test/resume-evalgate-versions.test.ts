/**
 * `evals run --resume` of a partial another evalgate version wrote (docs/artifact.md, "Artifacts
 * across evalgate versions"): the kept cases stay as they were scored, and the finished artifact
 * records this evalgate's version. A newer evalgate's partial is refused (resuming needs one at
 * least as new), also without a field this one does not know; an older one's is finished, with
 * a warning that its kept cases keep the older evalgate's scores.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { ARTIFACT_PROJECT } from '../scripts/fuzz-artifacts.ts';
import { serializeArtifact } from '../src/artifact/artifact.ts';
import { validateArtifact } from '../src/artifact/schema.ts';
import { toolVersion } from '../src/shared/version.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { runCli, tempFolder, writeFiles } from './helpers/cli.ts';

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('evals run --resume of a partial another evalgate version wrote', () => {
  const dir = tempFolder('evalgate-resume-versions-');
  let base: ResultsArtifact;
  /** A partial of `base` (its last case never run) as evalgate `version` would have written it. */
  const partial = (file: string, version: string): void => {
    const artifact = structuredClone(base);
    artifact.tool = { ...artifact.tool, version };
    artifact.interrupted = true;
    artifact.verdict = 'fail';
    artifact.runs[0]!.cases.pop();
    writeFileSync(join(dir, file), serializeArtifact(artifact));
  };
  before(async () => {
    writeFiles(dir, ARTIFACT_PROJECT);
    const run = await runCli(['run', 'evals.yaml', '-o', 'base.json'], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    base = JSON.parse(readFileSync(join(dir, 'base.json'), 'utf8')) as ResultsArtifact;
  });

  it('refuses a newer evalgate’s partial, naming both versions and both ways on', async () => {
    partial('newer.json', '999.0.0');
    const resumed = await runCli(['run', 'evals.yaml', '--resume', 'newer.json', '-o', 'r.json'], {
      cwd: dir,
    });
    assert.equal(resumed.code, 2, resumed.stderr);
    assert.match(
      resumed.stderr,
      new RegExp(
        `--resume newer\\.json was written by evalgate 999\\.0\\.0, newer than this one \\(${escaped(toolVersion)}\\): .*; resume it with evalgate 999\\.0\\.0 or newer, or run evals run without --resume to run every case again\\n$`,
      ),
    );
    assert.equal(existsSync(join(dir, 'r.json')), false);
  });

  it('finishes an older evalgate’s partial, says its kept cases keep their scores, records its own version', async () => {
    partial('older.json', '0.0.1');
    const kept = base.runs.reduce((sum, run) => sum + run.cases.length, 0) - 1;
    const resumed = await runCli(['run', 'evals.yaml', '--resume', 'older.json', '-o', 'r.json'], {
      cwd: dir,
    });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(
      resumed.stderr,
      new RegExp(
        `^warning: older\\.json was written by evalgate 0\\.0\\.1, older than this one \\(${escaped(toolVersion)}\\): its ${kept} kept cases keep the scores evalgate 0\\.0\\.1 gave them; .*\`evals run --resume older\\.json\`\\)\\n`,
        'm',
      ),
    );
    const written = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as ResultsArtifact;
    assert.equal(written.tool.version, toolVersion);
    assert.equal(written.interrupted, false);
    assert.deepEqual(validateArtifact(written), []);

    partial('same.json', toolVersion);
    const same = await runCli(['run', 'evals.yaml', '--resume', 'same.json', '-o', 's.json'], {
      cwd: dir,
    });
    assert.equal(same.code, 0, same.stderr);
    assert.doesNotMatch(same.stderr, /written by evalgate/);
  });
});
