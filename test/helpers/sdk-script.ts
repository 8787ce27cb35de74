/**
 * `runTestSuite` as a user's script calls it, in a real child process: what these tests check
 * (exit codes, signals, what a terminal or a log receives) happens to the whole process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { pathToFileURL } from 'node:url';
import { repoRoot, scratch, writeFiles, type CliResult } from './cli.ts';

/** Where the script is written, in the project's folder (its cwd when run). */
const SCRIPT = 'script.mjs';

/** A signal to send the child once its condition holds: every condition given must hold. */
export interface ScriptSignal {
  signal: NodeJS.Signals;
  /** Once this file exists in the project's folder (the script writes it, say, as a case starts). */
  file?: string;
  /** Once the script's stdout holds this text. */
  stdout?: string;
}

export interface ScriptRunOptions {
  /** Added to the child's environment, which has `NO_COLOR=1` and `GITHUB_ACTIONS` empty. */
  env?: Record<string, string>;
  /**
   * The program to run the script's shell command line under, as its argv made from that line:
   * e.g. `(line) => ['sh', '-c', `${line} 2>&1`]` for stdout and stderr in one pipe. Without it,
   * node runs the script directly.
   */
  through?: (line: string) => [string, ...string[]];
  /** Sent in this order, each when its conditions hold (checked every 50 ms while it runs). */
  signals?: ScriptSignal[];
}

export interface SdkScript {
  /** The project's folder. */
  dir: string;
  /** Runs the script (node, through tsx); the child is killed if it runs over 60 s. */
  run: (options?: ScriptRunOptions) => Promise<CliResult>;
}

/**
 * A scratch ES-module project whose `script.mjs` imports `runTestSuite` from src/ and goes on
 * with `body` (which adds any other imports it needs), with `files` (relative path → text)
 * written beside it.
 */
export function sdkScript(body: string, files: Record<string, string> = {}): SdkScript {
  const dir = scratch();
  const sdk = JSON.stringify(pathToFileURL(join(repoRoot, 'src', 'index.ts')).href);
  writeFiles(dir, {
    'package.json': '{ "private": true, "type": "module" }\n',
    [SCRIPT]: `import { runTestSuite } from ${sdk};\n${body}`,
    ...files,
  });
  const run = async (options: ScriptRunOptions = {}): Promise<CliResult> => {
    const node: [string, ...string[]] = [
      process.execPath,
      '--import',
      import.meta.resolve('tsx'),
      SCRIPT,
    ];
    const line = node.map((word) => JSON.stringify(word)).join(' ');
    const [file, ...args] = options.through?.(line) ?? node;
    const child = spawn(file, args, {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: '', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const closed = once(child, 'close') as Promise<[number | null, NodeJS.Signals | null]>;
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    if (options.signals) sendWhenDue(child, dir, options.signals);
    try {
      const [stdout, stderr, [code, signal]] = await Promise.all([
        text(child.stdout),
        text(child.stderr),
        closed,
      ]);
      return { code, signal, stdout, stderr };
    } finally {
      clearTimeout(timer);
    }
  };
  return { dir, run };
}

/** Sends `signals` to `child` in order, each once due; polling ends with the child. */
function sendWhenDue(child: ChildProcess, dir: string, signals: ScriptSignal[]): void {
  let stdout = '';
  let next = 0;
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  const due = (step: ScriptSignal): boolean =>
    (step.file === undefined || existsSync(join(dir, step.file))) &&
    stdout.includes(step.stdout ?? '');
  const poll = setInterval(() => {
    // Each signal left at most once: bounded by their number.
    let step = signals[next];
    while (step !== undefined && due(step)) {
      child.kill(step.signal);
      next += 1;
      step = signals[next];
    }
    if (next === signals.length) clearInterval(poll);
  }, 50);
  child.on('close', () => clearInterval(poll));
}
