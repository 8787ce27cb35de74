/**
 * A run killed (SIGKILL) once `-o` holds its whole results, while it still writes `--junit` (a
 * FIFO nobody reads): nothing of its journal is left beside `-o` for a user to clean or a later
 * command to take for data. The reports read the case files through descriptors the run holds,
 * so their folder is gone as soon as `-o` is written; the JUnit report is still whole.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { waitUntil } from './helpers/wait-until.ts';
import { artifactAt, journalOf, project, ROWS, start } from './helpers/journal-run.ts';

/** What is left of the journal of `r.json` in `dir`: its file and its case folders. */
const leftovers = (dir: string): string[] =>
  readdirSync(dir).filter((name) => name.startsWith('.r.json.journal'));

describe('evals run: killed while it writes --junit after -o', () => {
  it('leaves no journal file or case folder beside -o', async () => {
    const dir = project(20);
    execFileSync('mkfifo', [join(dir, 'j.xml')]);
    const run = start(dir, ['-o', 'r.json', '--junit', 'j.xml']);
    try {
      const released = () => existsSync(join(dir, 'r.json')) && !existsSync(journalOf(dir));
      assert.ok(await waitUntil(released, 100), 'the run wrote -o and let its journal go');
      assert.deepEqual(leftovers(dir), [], 'nothing is left while the reports are written');
    } finally {
      run.child.kill('SIGKILL');
      await run.gone;
    }
    assert.equal(artifactAt(join(dir, 'r.json')).runs[0]!.cases.length, ROWS);
    assert.deepEqual(leftovers(dir), [], 'nor once the run is killed');
  });

  it('writes the JUnit report whole from the files it holds', async () => {
    const dir = project(20);
    execFileSync('mkfifo', [join(dir, 'j.xml')]);
    const run = start(dir, ['-o', 'r.json', '--junit', 'j.xml']);
    try {
      const released = () => existsSync(join(dir, 'r.json')) && !existsSync(journalOf(dir));
      assert.ok(await waitUntil(released, 100), 'the run wrote -o and let its journal go');
      assert.deepEqual(leftovers(dir), []);
      // Now read the FIFO: the report comes from case files no longer in any folder.
      let xml = '';
      for await (const chunk of createReadStream(join(dir, 'j.xml'), 'utf8')) xml += chunk;
      const { code, stderr } = await run.ended;
      assert.equal(code, 0, stderr);
      assert.match(xml, new RegExp(`tests="${ROWS}"`));
      assert.equal((xml.match(/<testcase /g) ?? []).length, ROWS);
    } finally {
      run.child.kill('SIGKILL');
      await run.gone;
    }
  });
});
