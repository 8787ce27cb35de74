/**
 * Running one fuzzed project through the CLI and judging the outcome, for the fuzz test and
 * `npm run fuzz`: in this process (`cli`, fast) or as the real `bin/evals.js` (a child process,
 * which also catches a synchronous hang). An outcome is acceptable when it is exit 0, 1 or 2,
 * nothing was thrown, no stack frame was printed, and it took at most {@link FUZZ_TIME_LIMIT_MS}.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../src/cli/main.ts';
import { STACK_FRAME, type FuzzProject } from './fuzz-inputs.ts';

/**
 * The longest one project may take before it counts as a hang: far above the ~0.3 s a project
 * takes, so a machine loaded by other work (CI136: a child process took 5.06 s at load 26) is
 * not taken for a hang, which never answers at all.
 */
export const FUZZ_TIME_LIMIT_MS = 30_000;
const LIMIT_TEXT = `${FUZZ_TIME_LIMIT_MS / 1000} s`;

/** What runs on a project: `evals validate`, `evals run`, or any command line (without `evals`). */
export type FuzzCommand = 'validate' | 'run' | readonly string[];

/** What happened to one project. */
export interface FuzzOutcome {
  /** The command line, as `argvOf` gave it. */
  command: string;
  code: number | null;
  ms: number;
  /** Why the outcome is not acceptable; null when it is. */
  problem: string | null;
  stderr: string;
}

const ENV = { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: '', X: undefined };

/** Writes `project` into a new folder, runs `evals <command>` in this process, and judges it. */
export async function fuzzInProcess(
  project: FuzzProject,
  fuzzed: FuzzCommand,
): Promise<FuzzOutcome> {
  const dir = writeProject(project);
  const argv = argvOf(fuzzed);
  const command = argv.join(' ');
  let stdout = '';
  let stderr = '';
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const hang = new Promise<'hang'>((resolve) => {
      timer = setTimeout(() => resolve('hang'), FUZZ_TIME_LIMIT_MS);
    });
    const code = await Promise.race([
      cli(argv, {
        cwd: dir,
        env: ENV,
        stdout: { write: (text: string) => ((stdout += text), true) },
        stderr: { write: (text: string) => ((stderr += text), true) },
      }),
      hang,
    ]);
    const ms = performance.now() - started;
    if (code === 'hang')
      return { command, code: null, ms, problem: `no answer in ${LIMIT_TEXT}`, stderr };
    return { command, code, ms, problem: judge(code, stdout, stderr), stderr };
  } catch (error) {
    const ms = performance.now() - started;
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    return { command, code: null, ms, problem: `threw: ${text.slice(0, 2000)}`, stderr };
  } finally {
    clearTimeout(timer);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** As {@link fuzzInProcess}, through the built CLI (`bin/evals.js`, which needs `npm run build`). */
export function fuzzChild(project: FuzzProject, fuzzed: FuzzCommand, bin: string): FuzzOutcome {
  const dir = writeProject(project);
  const argv = argvOf(fuzzed);
  const command = argv.join(' ');
  const started = performance.now();
  try {
    const child = spawnSync(process.execPath, [bin, ...argv], {
      cwd: dir,
      env: ENV,
      encoding: 'utf8',
      timeout: FUZZ_TIME_LIMIT_MS,
      killSignal: 'SIGKILL',
    });
    const ms = performance.now() - started;
    const stderr = child.stderr ?? '';
    if (child.error || child.status === null) {
      return {
        command,
        code: null,
        ms,
        problem: `no answer in ${LIMIT_TEXT} (${child.signal ?? ''})`,
        stderr,
      };
    }
    return {
      command,
      code: child.status,
      ms,
      problem: judge(child.status, child.stdout, stderr),
      stderr,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function argvOf(command: FuzzCommand): string[] {
  if (typeof command !== 'string') return [...command];
  return command === 'run' ? ['run', 'evals.yaml', '-o', 'out.json'] : ['validate', 'evals.yaml'];
}

function writeProject(project: FuzzProject): string {
  const dir = mkdtempSync(join(tmpdir(), 'evalgate-fuzz-'));
  for (const [name, text] of Object.entries(project)) writeFileSync(join(dir, name), text);
  return dir;
}

function judge(code: number, stdout: string, stderr: string): string | null {
  if (code !== 0 && code !== 1 && code !== 2) return `exit code ${code}`;
  if (STACK_FRAME.test(stderr) || STACK_FRAME.test(stdout)) return 'printed a stack trace';
  if (code === 2 && !/^error: /m.test(stderr)) return 'exit 2 without an error line';
  return null;
}
