/** Signals sent to a CLI child process at the moments its stderr names. */
import type { ChildProcess } from 'node:child_process';

/**
 * Ctrl-C once the run says its results are written (`-o out.json`), and again once it says it
 * is stopping: a second signal while the reports after the artifact are written. `onStderr`
 * sees the text so far on every chunk.
 */
export function signalTwiceAfterResults(
  child: ChildProcess,
  onStderr?: (stderr: string) => void,
): void {
  let stderr = '';
  let sent = 0;
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
    if (sent === 0 && stderr.includes('results written to out.json')) {
      sent = 1;
      child.kill('SIGINT');
    }
    if (sent === 1 && stderr.includes('stopping:')) {
      sent = 2;
      child.kill('SIGINT');
    }
    onStderr?.(stderr);
  });
}
