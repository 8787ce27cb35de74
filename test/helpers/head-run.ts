/**
 * HEAD's run in a project whose BASE run wrote base.json, for the tests of what the gate and
 * compare make of a baseline's evaluator or grid point that HEAD's config no longer has.
 */
import { runCli, writeFiles, type CliResult } from './cli.ts';

/**
 * Writes `evalsYaml` as HEAD's config, then runs `evals run ...flags -o head.json` (by default
 * against base.json); its result.
 */
export function headRun(
  dir: string,
  evalsYaml: string,
  flags: readonly string[] = ['--baseline', 'base.json'],
): Promise<CliResult> {
  writeFiles(dir, { 'evals.yaml': evalsYaml });
  return runCli(['run', ...flags, '-o', 'head.json'], { cwd: dir });
}

/** The lines of `text` (a run's stderr) that mention `what`, in order: one setting's warnings. */
export function linesMentioning(text: string, what: string): string[] {
  return text.split('\n').filter((line) => line.includes(what));
}
