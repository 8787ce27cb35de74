/**
 * Peak resident memory of a whole process tree, for tools that may spawn helper processes
 * (promptfoo). `/usr/bin/time -f %M` and `getrusage(RUSAGE_CHILDREN)` report the largest single
 * process, not the sum, and this kernel has no `/proc/<pid>/task/<tid>/children`, so the tree is
 * found by reading every `/proc/<pid>/stat` for its parent id.
 *
 * Two figures are kept while the tree runs:
 * - `sumPeak`: the largest sum of `VmRSS` over the tree seen at any one sample (what the tree
 *   held at once, to within the sampling interval);
 * - `hwmPeak`: the largest `VmHWM` (kernel-tracked peak) of any single process, which catches a
 *   spike in one process that fell between two samples.
 * The caller reports the larger of the two (and of the root's own exit-time maxRSS).
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface TreeSampler {
  stop(): { sumPeakBytes: number; hwmPeakBytes: number; processes: number };
}

/** Parent pid from /proc/<pid>/stat; the command name may hold spaces or ')' so cut at the last ')'. */
function parentOf(pid: string): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(rest[1]);
  } catch {
    return undefined; // the process ended between readdir and read
  }
}

function memoryOf(pid: number): { rss: number; hwm: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) =>
      Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rss: kb('VmRSS') * 1024, hwm: kb('VmHWM') * 1024 };
  } catch {
    return undefined;
  }
}

function treeOf(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
    const ppid = parentOf(entry);
    if (ppid === undefined) continue;
    const list = children.get(ppid) ?? [];
    list.push(Number(entry));
    children.set(ppid, list);
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i] ?? -1) ?? []));
  return tree;
}

/**
 * Samples the tree under `root` every `intervalMs` until stopped. 25 ms keeps the sampler's own
 * cost (one /proc scan, ~90 entries here) to a few percent of one core.
 */
export function sampleTree(root: number, intervalMs = 25): TreeSampler {
  let sumPeak = 0;
  let hwmPeak = 0;
  const seen = new Set<number>();
  const tick = () => {
    let sum = 0;
    for (const pid of treeOf(root)) {
      const m = memoryOf(pid);
      if (m === undefined) continue;
      seen.add(pid);
      sum += m.rss;
      hwmPeak = Math.max(hwmPeak, m.hwm);
    }
    sumPeak = Math.max(sumPeak, sum);
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return { sumPeakBytes: sumPeak, hwmPeakBytes: hwmPeak, processes: seen.size };
    },
  };
}
