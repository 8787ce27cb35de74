/**
 * The process groups that command targets started and that may still be alive. Each command
 * runs as the leader of its own group, so what it forks can be stopped with it; a group still
 * alive when evalgate exits (an interrupt, an exit the run did not choose) is killed then, so
 * no process outlives the run.
 */

const live = new Set<number>();
let hooked = false;

/** Records a group (by its leader's pid) until {@link forgetGroup}. */
export function trackGroup(pid: number): void {
  live.add(pid);
  if (hooked) return;
  hooked = true;
  // `exit` handlers must be synchronous; process.kill is.
  process.on('exit', () => {
    for (const group of live) signalGroup(group, 'SIGKILL');
  });
}

export function forgetGroup(pid: number): void {
  live.delete(pid);
}

/** The groups still tracked (for tests and for a clean end of the run). */
export function liveGroups(): readonly number[] {
  return [...live];
}

/** Sends `signal` to every process of the group; false when none is left. */
export function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    // ESRCH: the group is gone. EPERM cannot happen for our own children.
    return false;
  }
}
