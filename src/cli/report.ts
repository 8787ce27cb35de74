/**
 * `evals report RESULTS.json -o report.html [--baseline B.json]`: the self-contained HTML report
 * of a results artifact, its cases read a case at a time; with `--baseline`, compared as
 * `evals compare B.json RESULTS.json` would.
 */
import { resolve } from 'node:path';
import { compareArtifacts } from '../compare/compare.ts';
import { requireCommonCases } from '../compare/validate-comparable.ts';
import { openResultsFile, readComparable } from '../pipeline/artifact-files.ts';
import { readBaseline } from '../pipeline/baseline.ts';
import type { CommandContext } from '../pipeline/context.ts';
import { checkOutputPaths } from '../pipeline/output-paths.ts';
import { realPath } from '../shared/real-path.ts';
import { buildReportModel } from '../report/html-model.ts';
import { renderReportHtml } from '../report/html-page.ts';
import { usageError } from '../shared/errors.ts';
import { writeFileAtomic } from '../shared/write-file-atomic.ts';
import { EXIT_UNWRITTEN, unwrittenFile } from '../pipeline/write-failure.ts';
import type { Comparison } from '../types/comparison.ts';
import { positional, type ParsedArgs } from './args.ts';
import type { REPORT } from './commands.ts';

/**
 * Writes the report; 0, a UsageError (exit 2) for a bad input or output path, or 3 when the
 * disk would not take the file.
 */
export async function reportCommand(
  args: ParsedArgs<typeof REPORT>,
  ctx: CommandContext,
): Promise<number> {
  const path = positional(args.positionals, 0);
  const output = args.values.output;
  checkOutputPaths([{ flag: '-o', path: output }], ctx.cwd, 'so the report was not written');
  if (realPath(resolve(ctx.cwd, output)) === realPath(resolve(ctx.cwd, path))) {
    throw usageError('cli.output', `-o ${output}: the results file itself; name another file`);
  }
  const file = openResultsFile(path, ctx, 'evals report:');
  let comparison: Comparison | undefined = file.artifact.comparison;
  const baselinePath = args.values.baseline;
  if (baselinePath !== undefined) {
    const base = await readBaseline(baselinePath, ctx);
    const head = await readComparable(path, ctx);
    if (!head.ok) throw usageError('report.invalid', `${path} is not a results artifact`, path);
    requireCommonCases(base, head.artifact, { base: baselinePath, head: path });
    comparison = compareArtifacts(base, head.artifact);
  }
  const model = buildReportModel(file.artifact, (run) => file.cases(run), comparison);
  try {
    await writeFileAtomic(resolve(ctx.cwd, output), renderReportHtml(model));
  } catch (error) {
    // The path was checked above: what fails now is the disk (full, read-only, gone).
    const line = unwrittenFile(output, error, 'nothing was written');
    if (line === undefined) throw error;
    ctx.stderr.write(`error: ${line}\n`);
    return EXIT_UNWRITTEN;
  }
  ctx.stderr.write(`HTML report written to ${output}\n`);
  return 0;
}
