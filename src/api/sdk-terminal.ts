/**
 * The terminal `runTestSuite` prints to, shared by every call in the process: suites run
 * concurrently (`await Promise.all([runTestSuite(a), runTestSuite(b)])`) write to the same
 * stderr and stdout, so on a terminal their progress shares one live line that names each suite,
 * and whatever else they print clears that line first; in a GitHub Actions log their progress
 * lines share one `::group::` (groups do not nest), and whatever else they print closes it first.
 * This is the SDK's edge: it reads `process.stdout`, `process.stderr` and `COLUMNS`, so nothing
 * below it does.
 */
import {
  createProgressBoard,
  createProgressGroup,
  type ProgressBoard,
  type ProgressGroup,
} from '../report/progress.ts';
import { redrawsLine } from '../pipeline/context.ts';

let board: ProgressBoard | undefined;
let group: ProgressGroup | undefined;

/** The live line of every `runTestSuite` progress on this process's stderr (a terminal). */
export function sharedProgressBoard(): ProgressBoard {
  board ??= createProgressBoard(
    (text) => process.stderr.write(text),
    () => process.stderr.columns,
  );
  return board;
}

/**
 * The log group of every `runTestSuite` progress on this process's stderr under GitHub Actions
 * (not a terminal).
 */
export function sharedProgressGroup(): ProgressGroup {
  group ??= createProgressGroup((text) => process.stderr.write(text));
  return group;
}

/**
 * Writes `text` to `stream`; on a terminal with progress drawn, the live line is cleared first
 * and redrawn after, so that a suite's summary does not start in the middle of another's
 * progress. In a GitHub Actions log, the progress group is closed first, so that a suite's
 * summary is not folded away with the progress lines of the suites still running.
 */
export function printAroundProgress(stream: NodeJS.WriteStream, text: string): boolean {
  const around = redrawsLine(process) ? board : group;
  if (around === undefined) return stream.write(text);
  let written = true;
  around.print(() => {
    written = stream.write(text);
  });
  return written;
}

/**
 * The width the summary's lines are cut to. On a terminal, its columns. Elsewhere (a CI log, a
 * file) `COLUMNS` when it is set to a whole number (as `evals run` reads it through a pipe), else
 * no width at all: a log keeps each error line whole, to be read or searched in full, and the
 * viewer wraps it.
 */
export function summaryWidth(
  stdout: { isTTY?: boolean; columns?: number },
  env: NodeJS.ProcessEnv,
): number {
  if (stdout.isTTY === true && stdout.columns !== undefined && stdout.columns > 0) {
    return stdout.columns;
  }
  const columns = Number(env.COLUMNS);
  return Number.isInteger(columns) && columns > 0 ? columns : Infinity;
}
