/**
 * Where the worker threads' program (`function-worker.ts`) is, from wherever this code runs: next
 * to a bundle (`lib/cli.bundle.js` → `lib/function-worker.js`, `dist/index.js` →
 * `dist/function-worker.js`), in tsc's output (`lib/bind/`), or in the sources under tsx (`.ts`).
 */
export const FUNCTION_WORKER_ENTRY: URL = new URL(
  import.meta.url.endsWith('.ts') ? './function-worker.ts' : './function-worker.js',
  import.meta.url,
);
