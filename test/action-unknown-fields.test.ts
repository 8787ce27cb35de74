/**
 * The Action reads results a newer evalgate of the same schemaVersion wrote, with fields this one
 * does not know (docs/artifact.md, "Artifacts across evalgate versions"): `mode: report` reports
 * them and a `baseline` file is compared with, each saying in the log what it ignored, where an
 * older Action refused the file outright. Runs from src against the fake GitHub on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { serializeArtifact } from '../src/artifact/artifact.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { runCli } from './helpers/cli.ts';
import {
  ALL_PASS,
  runAction,
  sourceCheckout,
  suiteFiles,
  workspace,
} from './helpers/action-run.ts';
import { startGitHubServer } from './helpers/github-server.ts';

/** The artifact at `path` rewritten as evalgate 999.0.0 might write it: two fields more. */
function asNewer(path: string): void {
  const artifact = JSON.parse(readFileSync(path, 'utf8')) as ResultsArtifact;
  artifact.tool.version = '999.0.0';
  Object.assign(artifact, { producedBy: 'ci' });
  for (const run of artifact.runs) for (const c of run.cases) Object.assign(c, { reviewer: 'ann' });
  writeFileSync(path, serializeArtifact(artifact));
}

const NOTE =
  /note: (\S+) was written by evalgate 999\.0\.0, newer than this one \([^)]+\): 2 fields it does not know were ignored \(\/producedBy, \/runs\/\*\/cases\/\*\/reviewer\)/;

describe('the Action with results of a newer evalgate of the same schemaVersion', () => {
  it('mode: report reports them, with a note in the log', async () => {
    const ws = workspace(suiteFiles(ALL_PASS));
    const made = await runCli(['run'], { cwd: ws.dir });
    assert.equal(made.code, 0, made.stdout + made.stderr);
    asNewer(join(ws.dir, 'evals-results.json'));
    const server = await startGitHubServer();
    try {
      const r = await runAction(sourceCheckout(), ws, server, { mode: 'report' });
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.equal(r.outputs.verdict, 'pass');
      assert.equal(NOTE.exec(r.stdout)?.[1], 'evals-results.json', r.stdout);
    } finally {
      await server.close();
    }
  });

  it('a baseline file is compared with, with a note in the log', async () => {
    const ws = workspace(suiteFiles(ALL_PASS));
    const made = await runCli(['run', '-o', 'base.json'], { cwd: ws.dir });
    assert.equal(made.code, 0, made.stdout + made.stderr);
    asNewer(join(ws.dir, 'base.json'));
    const server = await startGitHubServer();
    try {
      const r = await runAction(sourceCheckout(), ws, server, { baseline: 'base.json' });
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.equal(r.outputs.verdict, 'pass');
      // The Action names the baseline by its absolute path.
      const named = NOTE.exec(r.stdout + r.stderr)?.[1];
      assert.equal(named, join(ws.dir, 'base.json'), r.stdout + r.stderr);
      assert.doesNotMatch(r.stdout, /::warning::.*baseline/);
      assert.doesNotMatch(r.summary, /Not compared with a baseline/);
      const results = JSON.parse(
        readFileSync(join(ws.dir, 'evals-results.json'), 'utf8'),
      ) as ResultsArtifact;
      assert.ok(results.comparison !== undefined, 'the results record the comparison');
    } finally {
      await server.close();
    }
  });
});
