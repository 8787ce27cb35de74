/**
 * Which user module's import scheduled the code running now. A module may set a timer at its
 * top level (`setTimeout(() => process.exit(0), 50)`) that fires once its import is over, in
 * the middle of a run; the exit watches (pipeline/exit-guard.ts) then name that module rather
 * than blame the cases that happened to be in flight.
 *
 * Each import runs in an async resource marked with the module's file, and while an import is
 * under way an async hook passes the mark on to every resource (timer, interval, immediate,
 * promise, socket) created from a marked one. The hook is on only then: an enabled hook makes
 * every promise of the process slower, a cost a run should not pay for every case. So a timer,
 * an interval or an immediate the module's top level set is named whenever it fires, as is a
 * promise continuation that runs while the import is under way; a continuation that runs after
 * the imports have ended (after an `await` at the top of a function the module started) runs
 * with no mark, and is not.
 */
import { AsyncResource, createHook, executionAsyncResource } from 'node:async_hooks';

/** The module file each marked resource was created for. */
const marks = new WeakMap<object, string>();

const hook = createHook({
  init(_asyncId, _type, _triggerAsyncId, resource) {
    const file = marks.get(executionAsyncResource());
    if (file !== undefined) marks.set(resource, file);
  },
});

/** Imports under way in a marked scope; the hook is on while there is one. */
let open = 0;

/**
 * `load()` (the import of `file`), with what it schedules marked as `file`'s. Starting the
 * TypeScript loader is left outside it: its timers and ports are evalgate's.
 */
export async function importingAs<T>(file: string, load: () => Promise<T>): Promise<T> {
  const scope = new AsyncResource('evalgate.import');
  marks.set(scope, file);
  if (open++ === 0) hook.enable();
  try {
    return await scope.runInAsyncScope(load);
  } finally {
    if (--open === 0) hook.disable();
  }
}

/** The file whose import scheduled the code running now (see the module comment), if any. */
export function scheduledByImport(): string | undefined {
  return marks.get(executionAsyncResource());
}
