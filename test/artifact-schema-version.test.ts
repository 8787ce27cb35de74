/**
 * An artifact of another `schemaVersion` gets one wording from every command that reads one:
 * what this evalgate reads, what was found and, for a higher version, that a newer evalgate wrote
 * it and to update. (Each reader used to say it its own way, and only the Action said "newer".)
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { ARTIFACT_PROJECT } from '../scripts/fuzz-artifacts.ts';
import { tempFolder, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

const NEWER =
  'this evalgate reads schemaVersion 1, found 2: a newer evalgate wrote it; update evalgate here to read it';

describe('an artifact of another schemaVersion', () => {
  const dir = tempFolder('evalgate-schema-version-');
  before(async () => {
    writeFiles(dir, ARTIFACT_PROJECT);
    const run = await runInProcess(['run', 'evals.yaml', '-o', 'base.json'], dir);
    assert.equal(run.code, 0, run.stderr);
    const text = readFileSync(join(dir, 'base.json'), 'utf8');
    writeFileSync(join(dir, 'v2.json'), text.replace('"schemaVersion": 1', '"schemaVersion": 2'));
    writeFileSync(
      join(dir, 'v-text.json'),
      text.replace('"schemaVersion": 1', '"schemaVersion": "1"'),
    );
  });

  const readers: string[][] = [
    ['show', 'v2.json'],
    ['report', 'v2.json', '-o', 'r.html'],
    ['compare', 'base.json', 'v2.json'],
    ['compare', 'v2.json', 'base.json'],
    ['merge', 'v2.json', '-o', 'm.json'],
    ['override', 'v2.json', '--case', 'b9', '--evaluator', 'exact', '--score', '1'],
    ['run', 'evals.yaml', '--baseline', 'v2.json', '-o', 'o.json'],
    ['run', 'evals.yaml', '--resume', 'v2.json', '-o', 'o.json'],
    ['report', 'base.json', '--baseline', 'v2.json', '-o', 'r.html'],
  ];
  for (const argv of readers) {
    it(`evals ${argv.join(' ')}: exit 2, naming the file, saying a newer evalgate wrote it`, async () => {
      const result = await runInProcess(argv, dir);
      assert.equal(result.code, 2, result.stderr);
      const line = result.stderr.split('\n').find((l) => l.startsWith('error: ')) ?? '';
      assert.ok(line.includes('v2.json'), line);
      assert.ok(line.includes(NEWER), line);
    });
  }

  it('a version that is not a higher whole number is not called newer', async () => {
    const result = await runInProcess(['compare', 'base.json', 'v-text.json'], dir);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /this evalgate reads schemaVersion 1, found "1"/);
    assert.doesNotMatch(result.stderr, /newer/);
  });
});
