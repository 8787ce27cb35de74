/**
 * The CLI from src/ in a child process, for tests that need a real process (signals, exit
 * codes, FIFOs): launched as bin/evals.js launches the bundle, through tsx.
 */
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot, runNode, type CliResult } from './cli.ts';

/**
 * `evals ...args` in `dir` from the sources (it writes `dir/evals-src.mjs` to start them);
 * `onSpawn` gets the child as soon as it is started.
 */
export function evalsFromSources(
  args: string[],
  dir: string,
  onSpawn?: (child: ChildProcess) => void,
): Promise<CliResult> {
  const main = pathToFileURL(join(repoRoot, 'src', 'cli', 'main.ts')).href;
  writeFileSync(
    join(dir, 'evals-src.mjs'),
    `const { main } = await import(${JSON.stringify(main)});\nconst code = await main(process.argv.slice(2));\nprocess.exitCode = code;\nprocess.once('beforeExit', () => process.exit(code));\nsetTimeout(() => process.exit(code), 1000).unref();\n`,
  );
  return runNode(['--import', import.meta.resolve('tsx'), 'evals-src.mjs', ...args], {
    cwd: dir,
    timeoutMs: 60_000,
    ...(onSpawn ? { onSpawn } : {}),
  });
}
