/**
 * How the process ends once a command has its exit code. User code may have left timers or
 * sockets open (an abandoned call after an interrupt, an HTTP keep-alive agent); the command is
 * over and its files written, so the process waits for them a second at most, then exits with
 * the command's code. It exits explicitly even when nothing is left (the event loop empties):
 * letting Node end it by tearing the heap down would leave tens of milliseconds, after a large
 * run, in which Node no longer handles signals, and a Ctrl-C there would end the process by
 * the signal (130), contradicting the results just written. A signal meanwhile exits with the
 * command's code too.
 *
 * The leftover code may end the process first: a timer of a case's function calling
 * `process.exit(0)` would pass a failed or interrupted run, `process.exit(3)` claim an
 * unwritten artifact, an uncaught error leave Node's 1 with no word from evals. So the
 * command's code stands, raised to 1 when it was 0 (the code under test did not end cleanly,
 * as for an exit during the run: docs/cli.md, exit code 1), and one line says what happened.
 */
import { setTimeout } from 'node:timers';
import { guarding } from './exit-guard.ts';
import { STOP_SIGNALS } from './signals.ts';

/** The exit code when the command succeeded but user code ended the process afterwards. */
const CUT_SHORT = 1;

/** How long the process waits on what user code left open before it exits. */
const LINGER_MS = 1000;

/**
 * Watches, until the returned function is called, for user code that ends the process while a
 * command that runs it in-process (the Action) is still at work outside a run, e.g. posting
 * its reports: its exit code, even 0, would end the step as if it had finished. One line says
 * so and the exit code is 1. A run's own guard (exit-guard.ts) answers for exits during it.
 */
export function watchUnfinished(
  stderr: { write(text: string): unknown },
  what: string,
): () => void {
  const onExit = (code: number): void => {
    if (guarding()) return;
    stderr.write(
      `error: the process was ended (exit code ${code}) before ${what} finished, by a timer or callback that user code left running; the exit code is ${CUT_SHORT}\n`,
    );
    process.exitCode = CUT_SHORT;
  };
  process.on('exit', onExit);
  return () => process.off('exit', onExit);
}

/**
 * Ends the process with `done`, the finished command's exit code, once idle or after
 * {@link LINGER_MS}, and keeps that code against an exit of user code meanwhile (see above).
 * The timer is taken from `node:timers`, not the global a case's function may have replaced.
 */
export function endAfterCommand(
  finished: number | (() => number),
  stderr: { write(text: string): unknown },
): void {
  // A function: the code is read as the process ends (a failure to print can still come in).
  const code = (): number => (typeof finished === 'number' ? finished : finished());
  let own = false;
  const exit = (): void => {
    own = true;
    process.exit(code());
  };
  let fatal: string | undefined;
  const onUncaught = (_error: unknown, origin: string): void => {
    // A handler of the user's keeps the process alive: nothing ends here.
    if (process.listenerCount('uncaughtException') > 0) return;
    // The error itself is Node's to print, with its stack, as it exits.
    fatal ??= origin === 'unhandledRejection' ? 'an unhandled rejection' : 'an uncaught exception';
  };
  const onExit = (exitCode: number): void => {
    if (own) return;
    const done = code();
    const by = fatal === undefined ? '' : ` (${fatal})`;
    const outcome =
      done === 0
        ? `the exit code is ${CUT_SHORT}: the command succeeded, but the code it ran did not end cleanly`
        : `the exit code stays the command's own, ${done}`;
    stderr.write(
      `error: the process was ended (exit code ${exitCode}) after evals finished${by}, by a timer or callback that user code left running; ${outcome}\n`,
    );
    process.exitCode = done === 0 ? CUT_SHORT : done;
  };
  process.on('uncaughtExceptionMonitor', onUncaught);
  process.on('exit', onExit);
  for (const name of STOP_SIGNALS) process.on(name, exit);
  process.once('beforeExit', exit);
  setTimeout(exit, LINGER_MS).unref();
}
