/**
 * `evals validate` on an `isolation: worker` suite checks that the function loads in a worker
 * thread, as a run would, but starts one thread for it, not the run's pool of `concurrency`
 * threads (each loading the module, and tsx for TypeScript): nothing is called.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { functionProject } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

/** A function module that notes each load: the thread that loaded it, one line each. */
const NOTING_LOADS = `import { appendFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
appendFileSync(new URL('./loads', import.meta.url), (threadId === 0 ? 'main' : 'worker') + '\\n');
export function fn(): string {
  return 'x';
}
`;

function loads(dir: string): string[] {
  return readFileSync(join(dir, 'loads'), 'utf8').trim().split('\n').sort();
}

describe('evals validate with isolation: worker', () => {
  it('loads the function in one worker thread, not in a pool of concurrency threads', async () => {
    const dir = functionProject({ 'fn.ts': NOTING_LOADS }, [
      'isolation: worker',
      'concurrency: 4',
      'timeout: 10s',
    ]);
    const r = await runInProcess(['validate'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /is valid: 1 suite, 1 run, 4 case executions/);
    assert.deepEqual(loads(dir), ['main', 'worker']);
  });

  it('still reports a module that loads in the process but not in a worker thread', async () => {
    const dir = functionProject(
      {
        'fn.ts': `import { isMainThread } from 'node:worker_threads';
if (!isMainThread) throw new Error('no threads here');
export function fn(): string {
  return 'x';
}
`,
      },
      ['isolation: worker', 'concurrency: 4', 'timeout: 10s'],
    );
    const r = await runInProcess(['validate'], dir);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /no threads here/);
    assert.match(r.stderr, /loads in the main thread but not in a worker thread/);
  });

  it('a run still starts its pool of concurrency threads before the first case', async () => {
    const dir = functionProject({ 'fn.ts': NOTING_LOADS }, [
      'isolation: worker',
      'concurrency: 4',
      'timeout: 10s',
    ]);
    const r = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(loads(dir), ['main', 'worker', 'worker', 'worker', 'worker']);
  });
});
