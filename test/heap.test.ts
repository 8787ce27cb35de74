import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';

// Run in a child process: the setting is process-wide, and the young generation of this test
// process has grown already. The child keeps 40,000 objects alive (every one survives its
// scavenges, as prepared cases do), then reports the young generation's size.
const probe = `
import { getHeapSpaceStatistics } from 'node:v8';
if (process.env.KEEP_SMALL === '1') {
  const { keepYoungGenerationSmall } = await import(${JSON.stringify(new URL('../src/heap.ts', import.meta.url).href)});
  keepYoungGenerationSmall();
}
const kept = [];
for (let i = 0; i < 40000; i++) kept.push({ id: 'case-' + i, data: { i, text: 'row ' + i } });
const space = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
console.log(JSON.stringify({ kept: kept.length, newSpace: space.space_size }));
`;

function youngGeneration(keepSmall: boolean): number {
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', probe],
    {
      encoding: 'utf8',
      env: { ...process.env, KEEP_SMALL: keepSmall ? '1' : '0' },
      timeout: 60_000,
    },
  );
  assert.equal(child.status, 0, child.stderr);
  assert.equal(child.stderr, '', 'the V8 flag is known: nothing is printed');
  const report = JSON.parse(child.stdout) as { kept: number; newSpace: number };
  assert.equal(report.kept, 40000);
  return report.newSpace;
}

describe('keepYoungGenerationSmall', () => {
  it('stops the young generation from growing while many objects survive', () => {
    const grown = youngGeneration(false);
    const kept = youngGeneration(true);
    // 1 MB a semi-space when kept small (2 MB for the pair; 4 MB if it grew once before the
    // call); V8's default doubles it up to 16 MB a semi-space under this load.
    assert.ok(kept <= 4 * 1024 * 1024, `young generation ${kept} bytes when kept small`);
    assert.ok(grown > kept, `young generation ${grown} bytes by default, ${kept} kept small`);
  });
});
