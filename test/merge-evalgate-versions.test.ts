/**
 * `evals merge` of shards written by different evalgate versions (docs/artifact.md, "Artifacts
 * across evalgate versions"): merging needs the newest evalgate that wrote a shard, since the
 * merging one computes the merged summaries and gates and records its own version. A shard of a
 * newer evalgate is refused, with or without fields this one does not know, naming every such
 * shard and the version to merge with; shards of older ones are merged, with a warning naming
 * which version wrote which, and the merged `tool.version` is the merging evalgate's.
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

describe('evals merge of shards written by different evalgate versions', () => {
  const dir = tempFolder('evalgate-merge-versions-');
  let plain: Awaited<ReturnType<typeof runCli>>;
  const read = (file: string): ResultsArtifact =>
    JSON.parse(readFileSync(join(dir, file), 'utf8')) as ResultsArtifact;
  /** Shard `from` as evalgate `version` would have written it (with `extra` fields at the top). */
  const rewrite = (from: string, to: string, version: string, extra = {}): void => {
    const artifact = read(from);
    artifact.tool = { ...artifact.tool, version };
    writeFileSync(join(dir, to), serializeArtifact(Object.assign(artifact, extra)));
  };

  before(async () => {
    writeFiles(dir, ARTIFACT_PROJECT);
    for (const [file, shard] of [
      ['s1.json', '1/2'],
      ['s2.json', '2/2'],
    ] as const) {
      const run = await runCli(['run', 'evals.yaml', '--shard', shard, '-o', file], { cwd: dir });
      assert.ok(run.code === 0 || run.code === 1, run.stderr);
    }
    plain = await runCli(['merge', 's1.json', 's2.json', '-o', 'plain.json'], { cwd: dir });
    assert.ok(plain.code === 0 || plain.code === 1, 'the shards merge as they are');
    assert.doesNotMatch(read('plain.json').tool.version, /^999/);
  });

  it('refuses a shard of a newer evalgate even when it holds no field this one does not know', async () => {
    rewrite('s2.json', 'newer-s2.json', '999.0.0');
    const merged = await runCli(['merge', 's1.json', 'newer-s2.json', '-o', 'm.json'], {
      cwd: dir,
    });
    assert.equal(merged.code, 2, merged.stderr);
    assert.equal(
      merged.stderr,
      `error: evals merge: a shard was written by a newer evalgate than this one (${toolVersion}): newer-s2.json by evalgate 999.0.0; merging needs the newest evalgate that wrote a shard, which computes the merged summaries and gates by rules as new as the cases' and records its version: merge them with evalgate 999.0.0 or newer\n`,
    );
    assert.equal(existsSync(join(dir, 'm.json')), false, 'nothing is written');
  });

  it('names every newer shard, the fields each would lose, and the newest version', async () => {
    rewrite('s1.json', 'newer-s1.json', '999.0.0');
    rewrite('s2.json', 'newest-s2.json', '999.1.0', { producedBy: { ci: 'github' } });
    const merged = await runCli(['merge', 'newer-s1.json', 'newest-s2.json', '-o', 'm.json'], {
      cwd: dir,
    });
    assert.equal(merged.code, 2, merged.stderr);
    assert.match(
      merged.stderr,
      new RegExp(
        `^error: evals merge: shards were written by a newer evalgate than this one \\(${escaped(toolVersion)}\\): newer-s1\\.json by evalgate 999\\.0\\.0, newest-s2\\.json by evalgate 999\\.1\\.0; .* \\(newest-s2\\.json has fields this one does not know: /producedBy \\(line \\d+, column 3\\)\\): merge them with evalgate 999\\.1\\.0 or newer\\n$`,
      ),
    );
    assert.equal(existsSync(join(dir, 'm.json')), false);
  });

  it('merges shards of an older evalgate, says which wrote which, and records its own version', async () => {
    rewrite('s1.json', 'older-s1.json', '0.0.1');
    const merged = await runCli(['merge', 'older-s1.json', 's2.json', '-o', 'm.json'], {
      cwd: dir,
    });
    assert.equal(merged.code, plain.code, merged.stderr);
    assert.equal(merged.stdout, plain.stdout.replaceAll('plain.json', 'm.json'));
    assert.match(
      merged.stderr,
      new RegExp(
        `^warning: the shards were written by different evalgate versions \\(older-s1\\.json by 0\\.0\\.1; s2\\.json by ${escaped(toolVersion)}\\): each scored its own cases; the merged summaries, gates and tool\\.version \\(${escaped(toolVersion)}\\) are this evalgate's, which merged them\\n`,
        'm',
      ),
    );
    const artifact = read('m.json');
    assert.equal(artifact.tool.version, toolVersion);
    assert.deepEqual(validateArtifact(artifact), []);
    const { startedAt: _a, durationMs: _b, ...same } = read('plain.json');
    const { startedAt: _c, durationMs: _d, ...got } = artifact;
    assert.deepEqual(got, same, 'the merge is the one of the same shards of one version');
    const again = await runCli(['merge', 's1.json', 's2.json', '-o', 'one.json'], { cwd: dir });
    assert.doesNotMatch(again.stderr, /different evalgate versions/);
  });
});
