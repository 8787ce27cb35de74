/**
 * `evals report RESULTS.json [-o FILE] [--junit FILE] [--baseline B.json]`: the
 * self-contained HTML report and/or the JUnit XML report of a results artifact, its cases read a
 * case at a time; with `--baseline`, the HTML report compares as `evals compare B.json
 * RESULTS.json` would.
 */
import { resolve } from 'node:path';
import { openResultsFile } from '../pipeline/artifact-files.ts';
import { compareResultsFile } from '../pipeline/baseline.ts';
import type { CommandContext } from '../pipeline/context.ts';
import { checkNotBaseline, checkOutputPaths, type OutputPath } from '../pipeline/output-paths.ts';
import { realPath } from '../shared/real-path.ts';
import { buildReportModel } from '../report/html-model.ts';
import type { BaselineCases } from '../report/html-model-base.ts';
import {
  changedCases,
  readBaselineCases,
  recordedBaselineFile,
} from '../pipeline/baseline-cases.ts';
import {
  describeBaseline,
  isBaseline,
  recordedBaseline,
  type RecordedBaseline,
} from '../artifact/merge-baseline.ts';
import { renderReportHtml } from '../report/html-page.ts';
import { junitChunks, rereadableCases } from '../report/junit.ts';
import { UsageError, usageError } from '../shared/errors.ts';
import { writeFileAtomic } from '../shared/write-file-atomic.ts';
import { EXIT_UNWRITTEN, unwrittenFile } from '../pipeline/write-failure.ts';
import type { Comparison } from '../types/comparison.ts';
import { positional, type ParsedArgs } from './args.ts';
import type { REPORT } from './commands.ts';
import { printable } from '../shared/text-table.ts';
import { reportPathFor } from '../shared/report-path.ts';

/** One file the command writes: its flag and path, what it is called, and how it is made. */
interface ReportFile extends OutputPath {
  what: string;
  render: () => string | Iterable<string>;
}

/**
 * Writes the reports asked for (`-o`, `--junit`; the HTML report alone when neither is given);
 * 0, a UsageError (exit 2) for a bad input or output path, or 3 when the disk would not take a
 * file.
 */
export async function reportCommand(
  args: ParsedArgs<typeof REPORT>,
  ctx: CommandContext,
): Promise<number> {
  const path = positional(args.positionals, 0);
  const { junit, baseline: baselinePath } = args.values;
  // `--junit` alone asks for the JUnit report only: an HTML file nobody named is not written.
  // Without -o the report goes beside the results, named after them, as the Action names it.
  const html = args.values.output ?? (junit === undefined ? reportPathFor(path) : undefined);
  if (html === undefined && baselinePath !== undefined) {
    throw usageError(
      'cli.output',
      `--baseline ${baselinePath}: only the HTML report shows a comparison, and without -o only the JUnit report is written; add -o FILE`,
    );
  }
  const outputs = [
    ...(html !== undefined ? [{ flag: '-o', path: html }] : []),
    ...(junit !== undefined ? [{ flag: '--junit', path: junit }] : []),
  ];
  const consequence =
    outputs.length > 1
      ? 'so no report was written'
      : html !== undefined
        ? 'so the report was not written'
        : 'so the JUnit report was not written';
  checkOutputPaths(outputs, ctx.cwd, consequence);
  const results = realPath(resolve(ctx.cwd, path));
  for (const output of outputs) {
    if (realPath(resolve(ctx.cwd, output.path)) === results) {
      throw usageError(
        'cli.output',
        `${output.flag} ${output.path}: the results file itself; name another file`,
      );
    }
  }
  checkNotBaseline(outputs, baselinePath, ctx.cwd);
  const file = openResultsFile(path, ctx, 'evals report:');
  const files: ReportFile[] = [];
  if (html !== undefined) {
    let comparison: Comparison | undefined = file.artifact.comparison;
    if (baselinePath !== undefined) comparison = await compareResultsFile(baselinePath, path, ctx);
    // The baseline's own results of the changed cases, for their details: from --baseline, or
    // from the file the run compared with when it is still there (a CI runner's may not be).
    const recorded = baselinePath === undefined ? recordedBaseline(file.artifact) : undefined;
    const basePath = baselinePath ?? recorded?.path;
    let base: BaselineCases | undefined;
    if (comparison !== undefined && basePath !== undefined) {
      try {
        // The recorded path is as the run typed it, from where it ran: looked for from the
        // results' folder, then the working folder. It must still hold the run compared with: a
        // baseline.json that a later run replaced would set another run's answers beside this
        // one's, so a file there that does not is passed over for the other.
        const found =
          recorded === undefined
            ? basePath
            : recordedBaselineFile(basePath, path, ctx, (candidate) =>
                checkStillBaseline(candidate, recorded, ctx),
              );
        base = readBaselineCases(found, ctx, changedCases(comparison));
      } catch (error) {
        if (baselinePath !== undefined || !(error instanceof UsageError)) throw error;
        // The run's recorded baseline, gone or changed since: the page says so where it matters,
        // and stderr where the report is written, as a run's HTML reporter does.
        base = { cases: new Map(), named: 0, unread: error.message };
        ctx.stderr.write(
          `warning: the HTML report shows no baseline outputs: ${printable(error.message)}\n`,
        );
      }
    }
    const model = buildReportModel(
      file.artifact,
      (run) => file.cases(run),
      comparison,
      undefined,
      base,
    );
    files.push({
      flag: '-o',
      path: html,
      what: 'HTML report',
      render: () => renderReportHtml(model),
    });
  }
  if (junit !== undefined) {
    const source = rereadableCases((run) => file.cases(run));
    files.push({
      flag: '--junit',
      path: junit,
      what: 'JUnit report',
      render: () => junitChunks(file.artifact, source),
    });
  }
  let code = 0;
  for (const report of files) {
    try {
      await writeFileAtomic(resolve(ctx.cwd, report.path), report.render());
    } catch (error) {
      // The path was checked above: what fails now is the disk (full, read-only, gone). The
      // other report is still written: each file is whole or left as it was.
      const unchanged = files.length > 1 ? 'it is left as it was' : 'nothing was written';
      const line = unwrittenFile(report.path, error, unchanged);
      if (line === undefined) throw error;
      ctx.stderr.write(`error: ${line}\n`);
      code = EXIT_UNWRITTEN;
      continue;
    }
    ctx.stderr.write(`${report.what} written to ${printable(report.path)}\n`);
  }
  // Once the reports have read every case: what a newer evalgate added was left out of them.
  file.noteUnknown();
  return code;
}

/**
 * Refuses (a usage error, which the page shows as why the baseline's results are missing) the
 * recorded baseline file `path` when it holds another run than `recorded` now.
 */
function checkStillBaseline(path: string, recorded: RecordedBaseline, ctx: CommandContext): void {
  const now = openResultsFile(path, ctx, '').artifact;
  if (isBaseline(now, recorded.identity)) return;
  throw usageError(
    'baseline.changed',
    `${path} is no longer the baseline this run was compared with: it holds ${describeBaseline({ identity: now })}, not ${describeBaseline({ identity: recorded.identity })}`,
    path,
  );
}
