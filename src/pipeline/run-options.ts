/** The arguments of `evals run` (and of the Action's run), and what the run gives back. */
import type { ModuleLoaderOptions } from '../bind/modules/loader.ts';
import type { LoadedConfig } from '../config/types.ts';
import type { RunFilters } from '../plan/types.ts';
import type { WriteFailure } from '../report/file-reports.ts';
import type { ResultsArtifact } from '../types/index.ts';

export interface RunArgs {
  config?: string;
  output: string;
  junit?: string;
  /** `--report FILE`: the self-contained HTML report. */
  report?: string;
  concurrency?: number;
  /** `--trials N`: runs of each case in every suite, overriding the config's `trials`. */
  trials?: number;
  filters: RunFilters;
  /** Interrupt (SIGINT, SIGTERM or SIGHUP, wired by the CLI). */
  signal?: AbortSignal;
  /** How user modules are loaded (the Action finds tsx in the user's workspace). */
  loader?: ModuleLoaderOptions;
  /** `--baseline FILE`: an earlier results artifact to compare against. */
  baseline?: string;
  /**
   * How messages name the `baseline` (default its path): the Action's names the artifact it
   * downloaded it from, not the temporary file it keeps it in.
   */
  baselineName?: string;
  /**
   * Why there is no `baseline` though one was asked for (the Action's `baseline: auto` found
   * none): the summary and the HTML report say the run was not compared, as when the baseline
   * given shares no case with it.
   */
  baselineMissing?: string;
  /** `--resume FILE`: an interrupted artifact to finish (only its missing cases run). */
  resume?: string;
  /**
   * Keep a recovery journal beside `output` while the run works, and recover one a killed run
   * left (pipeline/journal.ts): set by the CLI; the Action and `runTestSuite` keep none.
   */
  journal?: boolean;
  /** `--no-cache`: judge calls bypass the on-disk cache. */
  noCache?: boolean;
  /** `--cache-dir DIR`: where judge calls are cached (default `.evalgate/cache` by the config). */
  cacheDir?: string;
  /** `--update-baselines`: automatic-battle records missing baselines and replaces losers. */
  updateBaselines?: boolean;
  /** `--dry-run`: print the plan (suites, grid points, cases, model calls at most) and run nothing. */
  dryRun?: boolean;
  /**
   * `--ignore-pin`: a testset that no longer matches its `revision:` pin runs anyway, with a
   * warning and `pinIgnored: true` in the artifact (local work; the Action refuses it).
   */
  ignorePin?: boolean;
  /**
   * The command that finishes this run if it is interrupted, printed then (from the CLI's argv):
   * resuming its `-o` file, or `from`, where the partial results were kept instead; with
   * `--baseline BASELINE` when the run compared with a baseline its argv does not name (one a
   * resumed run took over from its partial). With `beside`, the partial was kept beside `-o`
   * because another run holds it (journal-takeover.ts): the command resumes `from` into itself
   * and names each `--junit` and `--report` file as `beside` gives it, not the other run's
   * (leaves it out where `beside` gives undefined).
   */
  resumeCommand?: (
    from?: string,
    baseline?: string,
    beside?: (file: string) => string | undefined,
  ) => string;
}

/** What a finished (or interrupted) run produced, for callers that report it further (the Action). */
export interface RunOutcome {
  /** The artifact as written, without its cases (the reporters read those from the run's log). */
  artifact: ResultsArtifact;
  config: LoadedConfig;
  exitCode: number;
  /** The files that could not be written (`path` as given), and where each was kept instead. */
  unwritten: readonly WriteFailure[];
  /**
   * Why the run was not compared with its `baseline` (it shares no case with the run, or the
   * comparison failed); absent when it was, or when there was none. Said on stderr already.
   */
  uncompared?: string;
}
