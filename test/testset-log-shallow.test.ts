/**
 * `evals testset log` in a shallow clone (CI's default checkout) does not say that the commit
 * where the clone's history stops added every row: its changes are unknown, shown as `?` (null
 * in --json), and a line says why and how to fetch the rest. A full clone counts as before.
 */
import assert from 'node:assert/strict';
import { realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { testsetLog } from '../src/testsets/history.ts';
import { commitAll, git, newRepo } from './helpers/git.ts';
import { runInProcess } from './helpers/in-process.ts';
import { tempFolder } from './helpers/temp.ts';

interface LogJson {
  shallow: boolean;
  commits: { subject: string; version: { rows: number; added: number | null } }[];
}

/** A repository whose qa.csv got 2 rows, then a third, then a fourth, one commit each. */
function history(): string {
  const repo = newRepo();
  const rows = ['q,a', '1,x', '2,y'];
  writeFileSync(join(repo, 'qa.csv'), `${rows.join('\n')}\n`);
  commitAll(repo, 'two rows');
  for (const row of ['3,z', '4,w']) {
    rows.push(row);
    writeFileSync(join(repo, 'qa.csv'), `${rows.join('\n')}\n`);
    commitAll(repo, `add ${row}`);
  }
  return repo;
}

describe('evals testset log in a shallow clone', () => {
  it('shows the boundary commit as unknown, not as adding every row', async () => {
    const repo = history();
    const clone = join(realpathSync(tempFolder('evalgate-shallow-')), 'clone');
    git(repo, 'clone', '-q', '--depth', '2', `file://${repo}`, clone);

    const json = await runInProcess(['testset', 'log', 'qa.csv', '--json'], clone);
    assert.equal(json.code, 0, json.stderr);
    const log = JSON.parse(json.stdout) as LogJson;
    assert.equal(log.shallow, true);
    assert.deepEqual(
      log.commits.map((c) => [c.subject, c.version.rows, c.version.added]),
      [
        ['add 4,w', 4, 1],
        ['add 3,z', 3, null],
      ],
    );

    const text = await runInProcess(['testset', 'log', 'qa.csv'], clone);
    assert.match(text.stdout, /^\S+ +\S+ +\S+ +3 +\? +\? +\? +add 3,z$/m);
    assert.match(
      text.stdout,
      /this clone is shallow: its history stops at [0-9a-f]{10}, whose changes are unknown/,
    );
    assert.match(text.stdout, /git fetch --unshallow/);
  });

  it('counts the first commit of a full clone as adding its rows', async () => {
    const repo = history();
    const json = await runInProcess(['testset', 'log', 'qa.csv', '--json'], repo);
    const log = JSON.parse(json.stdout) as LogJson;
    assert.equal(log.shallow, false);
    assert.deepEqual(
      log.commits.map((c) => c.version.added),
      [1, 1, 2],
    );
  });

  it('a log cut to its newest commits leaves the oldest shown unknown too', async () => {
    const repo = history();
    const location = { absPath: join(repo, 'qa.csv'), displayPath: 'qa.csv' };
    const log = await testsetLog(location, { testsetId: 'qa' }, 2);
    assert.ok(log.ok);
    assert.equal(log.truncated, true);
    assert.deepEqual(
      log.entries.map((e) => e.version.ok && e.version.added),
      [1, null],
    );
  });
});
