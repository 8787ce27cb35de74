import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';

// Run in a child process: the setting is process-wide, and the young generation of this test
// process has grown already. The child keeps 40,000 objects alive (every one survives its
// scavenges, as prepared cases do) and reports the young generation's size; in `grow` mode it
// then restores the default growth and keeps 40,000 more.
const probe = `
import { getHeapSpaceStatistics } from 'node:v8';
const heap = await import(${JSON.stringify(new URL('../src/heap.ts', import.meta.url).href)});
const mode = process.env.HEAP_MODE;
const young = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
const kept = [];
const keep = () => {
  for (let i = 0; i < 40000; i++) kept.push({ id: 'case-' + kept.length, data: { i, text: 'row ' + i } });
};
if (mode !== 'default') heap.keepYoungGenerationSmall();
keep();
const first = young();
if (mode === 'grow') {
  heap.letYoungGenerationGrow();
  keep();
}
console.log(JSON.stringify({ kept: kept.length, first, last: young() }));
`;

function youngGeneration(mode: 'default' | 'small' | 'grow'): { first: number; last: number } {
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', probe],
    {
      encoding: 'utf8',
      env: { ...process.env, HEAP_MODE: mode },
      timeout: 60_000,
    },
  );
  assert.equal(child.status, 0, child.stderr);
  assert.equal(child.stderr, '', 'the V8 flag is known: nothing is printed');
  const report = JSON.parse(child.stdout) as { kept: number; first: number; last: number };
  assert.equal(report.kept, mode === 'grow' ? 80000 : 40000);
  return report;
}

/** 1 MB a semi-space (2 MB for the pair; 4 MB if it grew once before the call). */
const SMALL = 4 * 1024 * 1024;

describe('young generation size', () => {
  it('keepYoungGenerationSmall stops it growing while many objects survive', () => {
    const grown = youngGeneration('default').first;
    const small = youngGeneration('small').first;
    assert.ok(small <= SMALL, `young generation ${small} bytes when kept small`);
    assert.ok(grown > small, `young generation ${grown} bytes by default, ${small} kept small`);
  });

  it('letYoungGenerationGrow restores the default growth', () => {
    const { first, last } = youngGeneration('grow');
    assert.ok(first <= SMALL, `young generation ${first} bytes while kept small`);
    assert.ok(last > first, `young generation ${last} bytes after growth was restored`);
  });
});
