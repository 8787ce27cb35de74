/**
 * Why a run failed when `evals show --failed` (or another status flag) finds no case to show:
 * an interrupted run whose finished cases all passed, a partial merge, or a gate condition (a
 * mean, a pass rate) that failed while every case passed; and, when it does find cases, which
 * planned cases it cannot show because they never ran. Show must never say "nothing failed"
 * about a failed run, nor let the failed cases pass for all there is, and speaks only of the runs
 * selected.
 * Pure: the command hands in the runs it selected and their case counts.
 */
import { missingShardCommands, partialMergeAdvice } from '../artifact/partial-merge.ts';
import type { Painter } from './ansi.ts';
import { fitBeside } from './case-text.ts';
import { describeRun, formatCount, plural } from './labels.ts';
import { gateConditionLine } from './gate-line.ts';
import { printable } from '../shared/text-table.ts';
import { notOption, shellWord } from '../shared/shell-word.ts';
import type { RunResult } from '../types/index.ts';

/** A selected run, with how many cases the artifact holds for it (its `cases` may be unread). */
export interface ShownRun {
  run: Pick<RunResult, 'suite' | 'params' | 'verdict' | 'gate' | 'testset'>;
  cases: number;
}

/** What `whyRunsFailed` knows of the artifact beyond the selected runs. */
export interface ShownArtifact {
  /** The artifact as the user named it, for the commands suggested. */
  path: string;
  /**
   * Marked `interrupted` while none of its runs (selected or not) lacks a planned case or is
   * from a partial merge: see {@link interruptedOnly}.
   */
  interruptedOnly: boolean;
  /** The shards a partial merge holds and lacks (`mergedShards`), when it is one. */
  merge?: { count: number; merged: number[]; missing: number[] };
  /**
   * Written by `runTestSuite`: `evals run --resume` cannot finish it (there is no evals.yaml to
   * run the rest from), so a run cut short is rerun by calling `runTestSuite` again.
   */
  writtenByRunTestSuite?: boolean;
  /** The config the run read, as it was named (the artifact's `config`), for `--resume`. */
  config?: string;
  /** The run let a stale testset pin through (`pinIgnored`): resuming it needs `--ignore-pin`. */
  pinIgnored?: boolean;
  /**
   * The baseline file the run was compared with, as its comparison records it (`base.path`):
   * the resumed run compares with it too, and the command names it as the interrupted run's did.
   */
  baseline?: string;
  /**
   * Why each suite of the baseline gone from the config fails the run (`missingSuites`' texts):
   * no run of theirs is in the artifact, so no gate condition of a run says it.
   */
  missingSuites?: readonly string[];
}

/**
 * The command that finishes an interrupted run: `evals run ARGS --resume FROM`, with `-o OUTPUT`
 * when the finished results go elsewhere than `FROM`; each word quoted for a POSIX shell. The
 * interrupted run prints it from its own arguments, `evals show` from what the artifact records.
 * The flags go before a `--` in ARGS (after it they would read as config files), and a file named
 * `-…` is written `./-…` (`--resume -r.json` would read it as an option).
 */
export function resumeCommandLine(args: readonly string[], from: string, output?: string): string {
  const resume = [
    '--resume',
    notOption(from),
    ...(output === undefined ? [] : ['-o', notOption(output)]),
  ];
  const end = args.indexOf('--');
  const words =
    end === -1 ? [...args, ...resume] : [...args.slice(0, end), ...resume, ...args.slice(end)];
  return ['evals', 'run', ...words].map(shellWord).join(' ');
}

/**
 * The `--resume` command for an artifact, from what it records: the config unless it is the
 * `evals.yaml` that `evals run` finds by itself, `--ignore-pin` when the run needed it, and
 * `--baseline FILE` when it was compared with one.
 */
function resumeOf(artifact: ShownArtifact): string {
  const config =
    artifact.config === undefined || artifact.config === 'evals.yaml' ? [] : [artifact.config];
  const pin = artifact.pinIgnored === true ? ['--ignore-pin'] : [];
  // As `./-b.json` when it starts with `-`: `--baseline -b.json` reads it as an option.
  const baseline =
    artifact.baseline === undefined ? [] : ['--baseline', notOption(artifact.baseline)];
  return resumeCommandLine([...config, ...pin, ...baseline], artifact.path);
}

/**
 * Whether an artifact is marked interrupted with no run to show for it: every run has all its
 * planned cases and none fails the `shards` condition of a partial merge. It was interrupted
 * after its last case, or merged from only some shards by an older evalgate.
 */
export function interruptedOnly(
  interrupted: boolean,
  runs: readonly ShownRun[],
  partialMerge: boolean,
): boolean {
  return interrupted && !partialMerge && runs.every(({ run, cases }) => cases >= run.testset.cases);
}

/**
 * The lines saying why the selected runs failed, after `none` (what matched nothing, such as
 * `no case did not pass in the runs selected`); just `none` when every selected run passed and
 * the artifact's `interrupted` mark is not theirs to explain. Each failing run is named with its
 * failing gate conditions, worded as the run's summary words them; an interrupted run says how
 * many planned cases never ran. Then what to do: `evals run --resume` for runs cut short (for a
 * `runTestSuite` artifact, another call of it), the missing shards and a new merge for a partial
 * merge.
 */
export function whyRunsFailed(
  none: string,
  runs: readonly ShownRun[],
  artifact: ShownArtifact,
  paint: Painter,
  width?: number,
): string {
  const path = printable(artifact.path);
  const failed = runs.filter(({ run }) => run.verdict === 'fail');
  const missing = artifact.missingSuites ?? [];
  const gone = missing.map(
    (text) =>
      `    ${paint.red('\u2717')} regressions: ${printable(text)} (the baseline's gate: block)`,
  );
  const goneHead = `${missing.length === 1 ? 'a suite' : `${formatCount(missing.length)} suites`} of the baseline gone from the config`;
  if (failed.length === 0 && gone.length > 0 && !artifact.interruptedOnly) {
    return [`${none}, but ${path} fails for ${goneHead}:`, ...gone].join('\n');
  }
  if (failed.length === 0) {
    if (!artifact.interruptedOnly) return none;
    return [
      `${none}, and every run selected passed with all its planned cases, but ${path} is marked interrupted (interrupted: true), so it fails:`,
      `  it was interrupted after its last case, or merged from only some shards by an older evalgate; run it again for a complete artifact (a merge: run every shard, then evals merge them)`,
    ].join('\n');
  }
  const lines: string[] = [];
  const who = failed.length === 1 ? 'the run' : `${formatCount(failed.length)} runs`;
  lines.push(`${none}, but ${who} failed:`);
  let short = false;
  for (const { run, cases } of failed) {
    lines.push(`  ${fitBeside(describeRun(run), 2, width)}`);
    for (const condition of run.gate.conditions.filter((c) => !c.passed)) {
      // Cut to the terminal's width as the summary cuts it; whole when the width is unknown.
      const line = gateConditionLine(condition, (width ?? Infinity) - 6);
      lines.push(`    ${paint.red('\u2717')} ${line}`);
    }
    if (cases < run.testset.cases) {
      short = true;
      const missing = run.testset.cases - cases;
      lines.push(
        `    interrupted: ${formatCount(missing)} of its ${plural(run.testset.cases, 'planned case')} never ran`,
      );
    }
  }
  if (gone.length > 0) lines.push(`  and ${path} fails for ${goneHead}:`, ...gone);
  const { merge } = artifact;
  if (merge !== undefined) {
    lines.push(`  ${partialMergeAdvice(path, merge)}`);
    if (short) {
      lines.push(
        `  a merged shard was interrupted too: finish it with evals run --resume on its own file before merging`,
      );
    }
  } else if (short) {
    const rest =
      artifact.writtenByRunTestSuite === true
        ? 'runTestSuite wrote it, and evals run --resume cannot finish an SDK run: call runTestSuite again to rerun the suite'
        : `${printable(resumeOf(artifact))} runs what is left`;
    lines.push(
      `  the run was interrupted (interrupted: true): it fails whatever its finished cases did; ${rest}`,
    );
  }
  return lines.join('\n');
}

/**
 * The planned cases of the selected runs that have no result (an interrupted run, a partial
 * merge), as data: what `evals show --json` prints as `notRun` and {@link notRunNote} words.
 */
export interface NotRun {
  /** The cases the selected runs planned; for a partial merge, those of its merged shards. */
  planned: number;
  /** How many of them have a result. */
  ran: number;
  /** How many never ran: `planned - ran`. */
  missing: number;
  /**
   * The command that runs the missing cases (`evals run --resume p.json`, quoted for a POSIX
   * shell); `null` for a partial merge (`shards` says what to run) and for an artifact written
   * by `runTestSuite`, which the CLI cannot resume.
   */
  resume: string | null;
  /** `runTestSuite` wrote the artifact: a run cut short is rerun by calling it again. */
  writtenByRunTestSuite: boolean;
  /** For a partial merge: the shards it holds and lacks, and the command that runs each missing one. */
  shards: { count: number; merged: number[]; missing: number[]; commands: string[] } | null;
}

/**
 * What {@link NotRun} says of the selected runs; `null` when every one has all its planned
 * cases and the artifact is no partial merge.
 */
export function notRunFacts(runs: readonly ShownRun[], artifact: ShownArtifact): NotRun | null {
  const planned = runs.reduce((sum, { run }) => sum + run.testset.cases, 0);
  const missing = runs.reduce(
    (sum, { run, cases }) => sum + Math.max(0, run.testset.cases - cases),
    0,
  );
  const { merge } = artifact;
  if (merge === undefined && missing === 0) return null;
  const sdk = artifact.writtenByRunTestSuite === true;
  return {
    planned,
    ran: planned - missing,
    missing,
    resume: merge !== undefined || sdk ? null : resumeOf(artifact),
    writtenByRunTestSuite: sdk,
    shards:
      merge === undefined
        ? null
        : {
            count: merge.count,
            merged: [...merge.merged],
            missing: [...merge.missing],
            commands: missingShardCommands(merge),
          },
  };
}

/**
 * The note above the cases `evals show` found when the selected runs lack planned cases (an
 * interrupted run, a partial merge): those cases have no result, so the cases shown (the failed
 * ones, say) are not all there is to fix. Says how many (for a partial merge, which shards), and
 * how to run them; `null` when every selected run has all its planned cases.
 */
export function notRunNote(runs: readonly ShownRun[], artifact: ShownArtifact): string | null {
  const facts = notRunFacts(runs, artifact);
  if (facts === null) return null;
  const { planned, missing, resume } = facts;
  const path = printable(artifact.path);
  const { merge } = artifact;
  if (merge !== undefined) {
    // A shard plans only its own cases, so how many the missing shards hold is not known here.
    const shards = `${merge.missing.length === 1 ? 'shard' : 'shards'} ${merge.missing.join(', ')}`;
    const cut =
      missing === 0
        ? ''
        : `; ${plural(missing, 'planned case')} of the merged shards never ran either (a shard was interrupted): finish it with evals run --resume on its own file before merging`;
    return `the cases of ${shards} have no result here, passed or not: ${partialMergeAdvice(path, merge)}${cut}`;
  }
  const which = runs.length === 1 ? 'the run selected' : 'the runs selected';
  const head = `${formatCount(missing)} of the ${plural(planned, 'planned case')} of ${which} never ran and ${missing === 1 ? 'has' : 'have'} no result here, passed or not`;
  const rest =
    resume === null
      ? 'runTestSuite wrote it, and evals run --resume cannot finish an SDK run: call runTestSuite again to rerun the suite'
      : `to run ${missing === 1 ? 'it' : 'them'}: ${printable(resume)}`;
  return `${head} (${path} was interrupted); ${rest}`;
}
