/**
 * `gate: { regressions: warn }` (the default) prints one warning per run that regressed. In a
 * suite with a grid each run is a grid point, so the warning names it (`s · style=a`), as every
 * other line of the comparison does: naming the suite alone printed the same line twice, and
 * nobody could tell which grid point regressed. `evals merge`, which compares the merged shards
 * with their baseline, prints the same warnings.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

/** 16 rows; in HEAD every other answer is wrong. */
const rows = (head: boolean): string =>
  Array.from({ length: 16 }, (_, n) =>
    JSON.stringify({ n, expected: `a${n}`, output: head && n % 2 === 0 ? 'wrong' : `a${n}` }),
  ).join('\n') + '\n';

describe('a regression warning names its grid point', () => {
  it('evals run --baseline and evals merge say which grid point regressed', async () => {
    const dir = jsonlProject(
      [],
      [
        'hash: [n]',
        'grid:',
        '  style: [a, b]',
        'evaluators:',
        "  - { id: exact, use: is-equals, with: { expected: '{{case.expected}}' } }",
        'gate: { minPassRate: 0.4 }',
      ],
      { 'rows.jsonl': rows(false) },
    );
    const base = await runInProcess(['run', '-o', 'base.json'], dir);
    assert.equal(base.code, 0, base.stderr);
    writeFileSync(join(dir, 'rows.jsonl'), rows(true));

    const head = await runInProcess(['run', '-o', 'head.json', '--baseline', 'base.json'], dir);
    assert.equal(head.code, 0, head.stderr);
    for (const point of ['style=a', 'style=b']) {
      assert.match(head.stderr, new RegExp(`warning: s · ${point}: significant regression: `));
    }

    for (const shard of ['1/2', '2/2']) {
      const part = await runInProcess(
        ['run', '--shard', shard, '-o', `shard-${shard[0]}.json`, '--baseline', 'base.json'],
        dir,
      );
      assert.notEqual(part.code, 2, part.stderr);
    }
    const merged = await runInProcess(
      ['merge', 'shard-1.json', 'shard-2.json', '-o', 'm.json'],
      dir,
    );
    assert.equal(merged.code, 0, merged.stderr);
    for (const point of ['style=a', 'style=b']) {
      assert.match(merged.stderr, new RegExp(`warning: s · ${point}: significant regression: `));
    }
  });
});
