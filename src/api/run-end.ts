/**
 * The last checks of `runTestSuite`, as `evals run` ends (pipeline/written-check.ts): `fn` and
 * the evaluators run in the caller's process, so code under test that replaced a built-in evals
 * relies on (a no-op `Array.prototype.push`) could leave a run with no summary and no cases
 * scored wrongly, yet `verdict: 'pass'` and exit 0, or stop evals with a stack trace. Such a run
 * is failed, with the replaced built-ins named on stderr (even when `quiet`: it is the only word
 * on why).
 */
import {
  changedBuiltins,
  checkRunEnd,
  failedForBuiltins,
  outputsBefore,
  snapshotBuiltins,
  type BuiltinsSnapshot,
  type OutputBefore,
} from '../pipeline/written-check.ts';
import type { ResultsArtifact } from '../types/index.ts';

/** Where evals runs code apart, as the end checks' lines say it to a `runTestSuite` caller. */
const APART =
  'runTestSuite runs fn and the evaluators in its own process; a suite in evals.yaml with `isolation: worker` runs its code apart';

/** What the run's end is checked against: the built-ins and the output file as they were. */
export interface RunChecks {
  id: string;
  builtins: BuiltinsSnapshot;
  outputs: OutputBefore[];
  /** `artifact` failed by a `built-ins` condition if the run's code replaced built-ins. */
  failed: (artifact: ResultsArtifact) => ResultsArtifact;
  /** `run()`, a throw it ends in said as the replaced built-ins that likely caused it. */
  running: <T>(run: () => Promise<T>) => Promise<T>;
}

/** Taken as `runTestSuite` starts, before any code of the caller's runs. */
export function startChecks(id: string, output: string | undefined): RunChecks {
  const builtins = snapshotBuiltins();
  const outputs =
    typeof output === 'string' && output !== ''
      ? outputsBefore([{ flag: 'output', path: output }], process.cwd())
      : [];
  return {
    id,
    builtins,
    outputs,
    failed: (artifact) => failedForBuiltins(artifact, builtins),
    running: async (run) => {
      try {
        return await run();
      } catch (error) {
        const changed = changedBuiltins(builtins);
        if (changed.length === 0) throw error;
        const why = error instanceof Error ? error.message : String(error);
        let names = '';
        for (let i = 0; i < changed.length; i++) names += `${i > 0 ? ', ' : ''}${changed[i]}`;
        // Thrown without evals' frames or the error's own (its message is in this one): they
        // would read as a bug of evals.
        const replaced = new Error(
          `runTestSuite(${id}): evals could not go on (${why}): the code the run loaded replaced built-ins it relies on (${names}); ${APART}`,
        );
        replaced.stack = `Error: ${replaced.message}`;
        throw replaced;
      }
    },
  };
}

/**
 * The run's artifact with its verdict failed when the end checks find replaced built-ins or an
 * output not written as it must be, the exit code due (1, or 3 for an unwritten output; 0 for a
 * pass), and each problem written through `write` as one `error:` line.
 */
export function endChecked(
  checks: RunChecks,
  artifact: ResultsArtifact,
  write: (line: string) => void,
): { artifact: ResultsArtifact; exitCode: number } {
  const end = checkRunEnd(checks.outputs, {
    exitCode: artifact.verdict === 'fail' ? 1 : 0,
    interrupted: artifact.interrupted,
    failed: [],
    builtins: checks.builtins,
    apart: APART,
  });
  for (let i = 0; i < end.lines.length; i++) {
    write(`error: runTestSuite(${checks.id}): ${end.lines[i]}\n`);
  }
  if (end.exitCode === 0 || artifact.verdict === 'fail')
    return { artifact, exitCode: end.exitCode };
  return { artifact: { ...artifact, verdict: 'fail' }, exitCode: end.exitCode };
}
