/**
 * The program each worker thread of `isolation: worker` runs: it loads the suite's function the
 * way the main thread does (the same module loader, so the same spec resolution and tsx setup),
 * then serves calls (`targets/worker-thread.ts`). It lives in bind/ because loading user modules
 * does; the pool that starts it is `targets/worker.ts`, told where this file is by `bindSuites`.
 *
 * The build emits it next to each bundle (`lib/function-worker.js`, `dist/function-worker.js`)
 * and tsc to `lib/bind/function-worker.js`; `function-worker-entry.ts` finds it from each. Nothing
 * imports this file: it is only ever a thread's entry.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { parseModuleSpec } from '../config/module-spec.ts';
import { holdRunSecrets } from '../judge/run-secrets.ts';
import { createScrubber } from '../shared/secrets.ts';
import type { WorkerStart } from '../targets/worker-protocol.ts';
import { serveFunction } from '../targets/worker-thread.ts';
import { createModuleLoader } from './modules/loader.ts';
import { asTestFn } from './modules/shapes.ts';

async function start(port: NonNullable<typeof parentPort>, data: WorkerStart): Promise<void> {
  // The run's secrets, for a judge client made here (see `WorkerStart.secrets`): held for the
  // thread's life, which is the run's. Before the module loads: it may call a judge at its top.
  holdRunSecrets(createScrubber(data.secrets));
  const loader = createModuleLoader({ tsxSearchFrom: data.tsxSearchFrom });
  const ref = parseModuleSpec(data.spec, data.dir);
  const loaded = await loader.loadExport(ref);
  const fn = loaded.ok ? asTestFn(loaded.value, ref) : loaded;
  if (!fn.ok) {
    const { message, file, line, col } = fn.error;
    port.postMessage({ type: 'load-failed', failure: { message, file, line, col } });
    port.close();
    return;
  }
  serveFunction(fn.value, port);
}

if (!isMainThread && parentPort !== null) {
  const port = parentPort;
  start(port, workerData as WorkerStart).catch((error: unknown) => {
    port.postMessage({
      type: 'load-failed',
      failure: { message: error instanceof Error ? error.message : String(error) },
    });
    port.close();
  });
}
