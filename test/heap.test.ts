import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';

// Run in a child process: the setting is process-wide, and the young generation of this test
// process has grown already. The child keeps 40,000 objects alive (every one survives its
// scavenges, as prepared cases do) and reports the young generation's size; in `grow` mode it
// then restores the default growth and keeps 40,000 more, in `rows` and `library` it first reads
// one row short of the count that restores it, then the last row, and keeps 40,000 more.
const probe = `
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
const heap = await import(${JSON.stringify(new URL('../src/heap.ts', import.meta.url).href)});
const mode = process.env.HEAP_MODE;
const young = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
const kept = [];
const keep = () => {
  for (let i = 0; i < 40000; i++) kept.push({ id: 'case-' + kept.length, data: { i, text: 'row ' + i } });
};
if (mode === 'library') setFlagsFromString('--semi-space-growth-factor=1');
else if (mode !== 'default') heap.keepYoungGenerationSmall();
const readRows = (n) => {
  for (let i = 0; i < n; i++) heap.rowRead();
};
if (mode === 'rows' || mode === 'library') readRows(heap.SMALL_YOUNG_ROWS - 1);
keep();
const first = young();
if (mode === 'grow') heap.letYoungGenerationGrow();
if (mode === 'rows' || mode === 'library') readRows(1);
if (mode !== 'default' && mode !== 'small') keep();
console.log(JSON.stringify({ kept: kept.length, first, last: young() }));
`;

function youngGeneration(mode: 'default' | 'small' | 'grow' | 'rows' | 'library'): {
  first: number;
  last: number;
} {
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
  assert.equal(report.kept, mode === 'default' || mode === 'small' ? 40000 : 80000);
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

  it('rowRead restores the default growth once enough testset rows were read', () => {
    const { first, last } = youngGeneration('rows');
    assert.ok(first <= SMALL, `young generation ${first} bytes one row short`);
    assert.ok(
      last >= 2 * first,
      `young generation ${first}, then ${last} bytes past the row count`,
    );
  });

  it('rowRead leaves a heap alone that the process did not keep small through heap.ts', () => {
    const { first, last } = youngGeneration('library');
    // Not doubled (V8 13 may round the size up a little without growing it).
    assert.ok(first <= SMALL && last < 2 * first, `young generation ${first}, then ${last} bytes`);
  });
});

// The full collection between reading and running: counted by a `gc` performance observer in a
// child process, owned (the CLI) or not (a library's host).
const collectProbe = `
import { constants, PerformanceObserver } from 'node:perf_hooks';
const heap = await import(${JSON.stringify(new URL('../src/heap.ts', import.meta.url).href)});
if (process.env.HEAP_MODE === 'owned') heap.keepYoungGenerationSmall();
let major = 0;
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) major++;
});
observer.observe({ entryTypes: ['gc'] });
heap.collectPreparedGarbage();
heap.collectPreparedGarbage();
await new Promise((resolve) => setTimeout(resolve, 50));
observer.disconnect();
console.log(JSON.stringify({ major, exposed: typeof globalThis.gc }));
`;

function collections(mode: 'owned' | 'library'): { major: number; exposed: string } {
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', collectProbe],
    { encoding: 'utf8', env: { ...process.env, HEAP_MODE: mode }, timeout: 60_000 },
  );
  assert.equal(child.status, 0, child.stderr);
  assert.equal(child.stderr, '', 'the V8 flags are known: nothing is printed');
  return JSON.parse(child.stdout) as { major: number; exposed: string };
}

describe('collectPreparedGarbage', () => {
  it('runs a full collection each time in a process evalgate owns, exposing no global gc', () => {
    const { major, exposed } = collections('owned');
    assert.ok(major >= 2, `${major} full collections for two calls`);
    assert.equal(exposed, 'undefined');
  });

  it('does nothing in a process it does not own', () => {
    assert.deepEqual(collections('library'), { major: 0, exposed: 'undefined' });
  });
});
