/**
 * `evals compare` on two results artifacts built from case specs (compare-builder.ts), run in
 * process in a scratch directory, for tests of what a comparison prints.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratch } from './cli.ts';
import { artifact, run, type CaseSpec } from './compare-builder.ts';
import { runInProcess, type InProcessResult } from './in-process.ts';

/**
 * Writes suite `qa` scored as `base` (commit a…a) to base.json and as `head` (commit b…b) to
 * head.json, and runs `evals compare base.json head.json` on them, with `--format <format>`
 * when given.
 */
export async function compareSides(
  base: readonly CaseSpec[],
  head: readonly CaseSpec[],
  format?: string,
): Promise<InProcessResult> {
  const dir = scratch();
  writeFileSync(join(dir, 'base.json'), JSON.stringify(artifact([run('qa', {}, base)])));
  writeFileSync(
    join(dir, 'head.json'),
    JSON.stringify(artifact([run('qa', {}, head)], 'b'.repeat(40))),
  );
  const formatArgs = format === undefined ? [] : ['--format', format];
  return runInProcess(['compare', 'base.json', 'head.json', ...formatArgs], dir);
}
