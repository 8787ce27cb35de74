/**
 * GitHub takes an annotation's `title` up to 255 characters and its `message` and `raw_details` up
 * to 64 KB each (docs.github.com/rest/checks/runs), and refuses the whole request past them. A
 * failing case whose expected value and output run to hundreds of KB, in two-byte characters,
 * still gets its annotation on the check run, not the fallback without annotations. The Action
 * from src/ against the fake GitHub, which enforces those limits.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useSourceAction } from './helpers/action-fixture.ts';
import { suiteFiles, workspace } from './helpers/action-run.ts';

describe('the check run of a case with a very long output', () => {
  const fixture = useSourceAction();

  it('carries its annotation within GitHub limits', async () => {
    const long = (letter: string): string => `${letter}\u00e9`.repeat(60_000);
    const rows = [
      { expected: 'Paris', answer: 'Paris' },
      { expected: long('a'), answer: long('b') },
    ];
    const r = await fixture.run(workspace(suiteFiles(rows)));
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.doesNotMatch(r.stdout, /::warning::/, r.stdout);
    const [run] = [...fixture.server.state.checkRuns.values()];
    assert.equal(run?.annotations.length, 1, r.stdout);
    const annotation = run?.annotations[0] ?? {};
    assert.ok([...String(annotation['title'])].length <= 255);
    for (const field of ['message', 'raw_details']) {
      const value = annotation[field];
      if (typeof value === 'string') assert.ok(Buffer.byteLength(value, 'utf8') <= 64 * 1024);
    }
    assert.doesNotMatch(run?.output.text ?? '', /refused this check run's annotations/);
  });
});
