/**
 * The worker thread's side of `isolation: worker`: once the function under test is loaded, each
 * call request runs it and posts back what it returned or threw. The host sends one call at a
 * time, so nothing here queues.
 *
 * The argument is the same object the in-process target gets (`FnCallArgs`), so `signal` is
 * there too, but it never aborts: at the time limit the whole thread is terminated instead.
 */
import { FnCallArgs, isThenable } from '../run/call.ts';
import { describeError } from '../shared/describe-error.ts';
import type { TestFn } from '../types/index.ts';
import type { CallRequest, ThrownInWorker, WorkerMessage } from './worker-protocol.ts';

/** The thread's end of the channel (`parentPort`). */
export interface WorkerPort {
  on(event: 'message', listener: (message: CallRequest) => void): unknown;
  postMessage(message: WorkerMessage): void;
}

/** Answers every call request on `port` with `fn`'s output. */
export function serveFunction(fn: TestFn, port: WorkerPort): void {
  port.on('message', (request) => {
    void answer(fn, request, port);
  });
  port.postMessage({ type: 'ready' });
}

async function answer(fn: TestFn, request: CallRequest, port: WorkerPort): Promise<void> {
  const { id } = request;
  let output: unknown;
  try {
    const value = fn(new FnCallArgs(request.testCase, request.params));
    output = isThenable(value) ? await value : value;
  } catch (thrown) {
    port.postMessage({ type: 'threw', id, error: thrownInWorker(thrown) });
    return;
  }
  try {
    port.postMessage({ type: 'returned', id, output });
  } catch (error) {
    // A DataCloneError: the value holds a function, a symbol, a class with private state, …
    port.postMessage({
      type: 'unclonable',
      id,
      message: `the function's return value cannot be passed back from its worker thread (isolation: worker): ${describeError(error).replace(/\.$/, '')}; return plain data (objects, arrays, strings, numbers, booleans, null)`,
    });
  }
}

/** What the case error needs of a thrown value, described here where the value still is. */
function thrownInWorker(thrown: unknown): ThrownInWorker {
  const error: ThrownInWorker = { message: describeError(thrown) };
  if (thrown instanceof Error) {
    // Read defensively: a throwing getter must not turn a case error into a crash.
    try {
      if (typeof thrown.name === 'string') error.name = thrown.name;
      if (typeof thrown.stack === 'string') error.stack = thrown.stack;
    } catch {
      // The message alone is enough.
    }
  }
  return error;
}
