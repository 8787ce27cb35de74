/**
 * A run whose journal went stale while it lived (stopped with Ctrl-Z for over a minute) and was
 * taken over by a second run writing the same `-o`: when the first run finishes, it removes its
 * own journal only, never the second run's, which holds that run's finished cases.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { waitUntil } from './helpers/wait-until.ts';
import { caseLines, journalOf, project, start } from './helpers/journal-run.ts';
import { STALE_MS } from '../src/artifact/journal-read.ts';

const filesIn = (folder: string): string[] =>
  existsSync(folder) ? readdirSync(folder).map((name) => join(folder, name)) : [];

describe('evals run: a journal taken over by another run', () => {
  it('is not removed by the run that first wrote that path when it finishes', async () => {
    const dir = project(300);
    const first = start(dir, ['-o', 'r.json']);
    assert.ok(await waitUntil(() => caseLines(dir) >= 2, 100), 'the first run journaled');
    first.child.kill('SIGSTOP');
    // Untouched for longer than a live writer leaves it: the next run takes it as left behind.
    const past = new Date(Date.now() - STALE_MS - 5_000);
    utimesSync(journalOf(dir), past, past);
    const second = start(dir, ['-o', 'r.json']);
    const keptAside = () => readdirSync(dir).some((name) => /^r\.killed-\d+\.json$/.test(name));
    const secondsJournal = () =>
      existsSync(journalOf(dir)) &&
      readFileSync(journalOf(dir), 'utf8').includes(`"pid":${second.child.pid},`);
    assert.ok(
      await waitUntil(() => keptAside() && secondsJournal() && caseLines(dir) >= 1, 100),
      'the second run kept the first one’s cases aside and journaled its own',
    );
    second.child.kill('SIGSTOP');
    // The second run's journal and folder alone: the first run's folder is left beside them
    // (that process still exists), and removed by that run as it ends.
    const seconds = () =>
      [journalOf(dir), ...filesIn(`${journalOf(dir)}.${second.child.pid}.d`)]
        .map((file) => readFileSync(file, 'utf8'))
        .join('');
    const journaled = seconds();
    try {
      first.child.kill('SIGCONT');
      await first.gone;
      assert.equal(seconds(), journaled, 'the second run’s journal is still there, whole');
    } finally {
      second.child.kill('SIGKILL');
      await second.gone;
    }
  });
});
