/** Running a benchmarked process and taking its wall time and peak memory. */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sampleTree } from './tree-rss.ts';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const probe = join(root, 'bench', 'rss-probe.cjs');

export interface Sample {
  wallMs: number;
  rssBytes: number;
}

export interface Row {
  id: string;
  scenario: string;
  evalgate: string;
  baseline: string;
  ratio: string;
  target: string;
  /** null: informational, no target. */
  met: boolean | null;
  runs: string;
  /** Raw figures for --json: milliseconds and bytes. */
  data: Record<string, number | string>;
}

export interface MeasureOptions {
  cwd: string;
  env?: Record<string, string>;
  expectExit?: number[];
  /**
   * Sample the whole process tree through /proc as well (for tools that may spawn helpers).
   * Off by default: evalgate and the floor are one process each, whose exact kernel maxRSS the
   * probe reports, and the sampler costs the machine a little CPU.
   */
  tree?: boolean;
}

export interface Measured extends Sample {
  stdout: string;
  stderr: string;
  /** Set with `tree`: how the RSS figure was made up, for the table note and --json. */
  tree?: { sumPeakBytes: number; hwmPeakBytes: number; rootMaxRssBytes: number; processes: number };
}

/**
 * Runs `node --require rss-probe.cjs ...args` to completion. The wall time is taken around the
 * whole child (start-up included); the peak RSS is the child's kernel maxRSS, written by the
 * preloaded probe at exit, or with `tree` the largest of that and the sampled tree figures.
 */
export function measure(args: string[], cwdOrOptions: string | MeasureOptions): Promise<Measured> {
  const o = typeof cwdOrOptions === 'string' ? { cwd: cwdOrOptions } : cwdOrOptions;
  const rssFile = join(o.cwd, `.rss-${process.pid}-${process.hrtime.bigint()}`);
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['--require', probe, ...args], {
      cwd: o.cwd,
      env: { ...process.env, ...o.env, BENCH_RSS_FILE: rssFile, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const sampler = o.tree && child.pid !== undefined ? sampleTree(child.pid) : undefined;
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - t0;
      const treeFigures = sampler?.stop();
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      if (!(o.expectExit ?? [0]).includes(code ?? -1)) {
        reject(
          new Error(
            `node ${args.join(' ')} exited ${code}\n${stderr.slice(-4000)}\n${stdout.slice(-4000)}`,
          ),
        );
        return;
      }
      let rootMaxRss: number;
      try {
        rootMaxRss = Number(readFileSync(rssFile, 'utf8'));
        rmSync(rssFile);
      } catch {
        reject(new Error(`node ${args.join(' ')}: the RSS probe wrote nothing`));
        return;
      }
      if (treeFigures === undefined) {
        resolve({ wallMs, rssBytes: rootMaxRss, stdout, stderr });
        return;
      }
      const rssBytes = Math.max(rootMaxRss, treeFigures.sumPeakBytes, treeFigures.hwmPeakBytes);
      resolve({
        wallMs,
        rssBytes,
        stdout,
        stderr,
        tree: { ...treeFigures, rootMaxRssBytes: rootMaxRss },
      });
    });
  });
}

/** Per-field medians (wall and RSS separately). */
export function median(samples: Sample[]): Sample {
  const mid = <K extends keyof Sample>(k: K) =>
    samples.map((s) => s[k]).sort((a, b) => a - b)[samples.length >> 1] ?? 0;
  return { wallMs: mid('wallMs'), rssBytes: mid('rssBytes') };
}

/**
 * Median of `n` runs after one discarded warm-up run (which fills the file-system cache and
 * tsx's compile cache, as any second local run would find them).
 */
export async function repeat(n: number, f: () => Promise<Sample>, warmUp = true): Promise<Sample> {
  if (warmUp) await f();
  const samples: Sample[] = [];
  for (let i = 0; i < n; i++) samples.push(await f());
  return median(samples);
}

/**
 * Like `repeat` for commands whose figures are compared, run in turn (A B C A B C ...) so a slow
 * spell on the shared machine lands on every side rather than on one. Medians in input order.
 */
export async function interleaved<T extends (() => Promise<Sample>)[]>(
  n: number,
  fs: [...T],
  warmUp = true,
): Promise<{ [K in keyof T]: Sample }> {
  const samples = await interleavedSamples(n, fs, warmUp);
  return samples.map(median) as { [K in keyof T]: Sample };
}

/** `interleaved`'s samples themselves: one list per command, round by round. */
export async function interleavedSamples(
  n: number,
  fs: (() => Promise<Sample>)[],
  warmUp = true,
): Promise<Sample[][]> {
  if (warmUp) for (const f of fs) await f();
  const samples: Sample[][] = fs.map(() => []);
  for (let i = 0; i < n; i++) {
    for (const [j, f] of fs.entries()) samples[j]?.push(await f());
  }
  return samples;
}

/**
 * `lowest–highest×` of a ratio taken round by round (each round's runs are minutes apart at
 * most), to show how far the machine's drift moves a ratio whose medians the table gives.
 */
export function ratioRange(ratios: number[]): string {
  const sorted = [...ratios].sort((a, b) => a - b);
  return `${(sorted[0] ?? 0).toFixed(2)}–${(sorted[sorted.length - 1] ?? 0).toFixed(2)}×`;
}
