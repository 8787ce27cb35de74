/**
 * Every reporter, by name: how each is made from its options and the terminal it writes to. A
 * run lists the reporters it wants (`ReporterSpec`s) and `createReporters` makes them; a new
 * reporter is one file and one entry here.
 */
import { artifactFile, junitFile, type FileReportOptions } from './file-reports.ts';
import { htmlFile } from './html-report.ts';
import { createProgressReporter, type ProgressOptions } from './progress.ts';
import type { Reporter } from './reporter.ts';
import { terminalSummary } from './terminal-summary.ts';
import { printable } from '../shared/text-table.ts';
import type { Comparison } from '../types/comparison.ts';
import type { BaselineCases } from './html-model-base.ts';

/** Where reporters write, shared by every reporter of a run. */
export interface ReporterContext {
  /** The run's results and tables. */
  out: (text: string) => void;
  /** Progress and notes (`results written to …`). */
  err: (text: string) => void;
  /** Progress redraws one line in place on a terminal; periodic plain lines otherwise. */
  errIsTTY: boolean;
  color: boolean;
  /** The terminal's width, when known. */
  width?: number;
  /** Under GitHub Actions, progress lines are folded into a group. */
  githubActions: boolean;
}

/** Makes one kind of reporter from its options. */
export interface ReporterKind<O> {
  create(options: O, context: ReporterContext): Reporter;
}

/** The reporters a run may list. */
export const reporterKinds = {
  /** Live progress on stderr: counts, pass/fail so far and an ETA. */
  progress: {
    create: (options: ProgressSpec, context) =>
      createProgressReporter({
        write: context.err,
        isTTY: context.errIsTTY,
        now: () => performance.now(),
        githubActions: context.githubActions,
        ...(context.width !== undefined ? { width: context.width } : {}),
        ...options,
      }),
  } satisfies ReporterKind<ProgressSpec>,
  /** The summary table at the end, on stdout; `preface` is printed before it. */
  summary: {
    create: (options: SummarySpec, context) =>
      terminalSummary({
        write: context.out,
        color: context.color,
        ...(context.width !== undefined ? { width: context.width } : {}),
        ...(options.preface ? { preface: options.preface } : {}),
        ...(options.notCompared ? { notCompared: options.notCompared } : {}),
      }),
  } satisfies ReporterKind<SummarySpec>,
  /**
   * The results artifact, written to `path`; `shown` is how the note names it. With `failed`, a
   * write that fails is told there (after trying `fallback`) instead of thrown.
   */
  artifact: {
    create: (options: FileReportSpec, context) =>
      artifactFile({
        ...fileOptions(options),
        written: () =>
          context.err(`results written to ${printable(options.shown ?? options.path)}\n`),
      }),
  } satisfies ReporterKind<FileReportSpec>,
  /** The JUnit XML report, written to `path` (`failed` and `fallback` as for the artifact). */
  junit: {
    create: (options: FileReportSpec, context) =>
      junitFile({
        ...fileOptions(options),
        written: () =>
          context.err(`JUnit report written to ${printable(options.shown ?? options.path)}\n`),
      }),
  } satisfies ReporterKind<FileReportSpec>,
  /** The self-contained HTML report, written to `path` (`failed` and `fallback` as above). */
  html: {
    create: (options: HtmlReportSpec, context) =>
      htmlFile({
        ...fileOptions(options),
        ...(options.notCompared ? { notCompared: options.notCompared } : {}),
        ...(options.baselineCases ? { baselineCases: options.baselineCases } : {}),
        written: () =>
          context.err(`HTML report written to ${printable(options.shown ?? options.path)}\n`),
      }),
  } satisfies ReporterKind<HtmlReportSpec>,
};

/** Progress's options: the run's name on its lines, and the live line it shares (`runTestSuite`). */
export type ProgressSpec = Pick<ProgressOptions, 'label' | 'board' | 'group'>;

/** The summary's options: a line before it, and why the run was not compared (see below). */
export type SummarySpec = {
  preface?: () => string | undefined;
  notCompared?: () => string | undefined;
};

/** A file report's options in a `ReporterSpec`. */
export type FileReportSpec = { shown?: string } & Omit<FileReportOptions, 'written'>;

/**
 * The HTML report's options: a file report's, and why the run was not compared with the baseline
 * it was given, asked when the page is written (the comparison is made just before).
 */
export type HtmlReportSpec = FileReportSpec & {
  notCompared?: () => string | undefined;
  /** The baseline's results of the changed cases (`readBaselineCases`), for their details. */
  baselineCases?: (comparison: Comparison) => BaselineCases | undefined;
};

function fileOptions(spec: FileReportSpec): Omit<FileReportOptions, 'written'> {
  return {
    path: spec.path,
    ...(spec.failed !== undefined ? { failed: spec.failed } : {}),
    ...(spec.fallback !== undefined ? { fallback: spec.fallback } : {}),
    ...(spec.divert !== undefined ? { divert: spec.divert } : {}),
  };
}

type Kinds = typeof reporterKinds;

/** A reporter a run wants: its name and its options. */
export type ReporterSpec = {
  [K in keyof Kinds]: { name: K } & Parameters<Kinds[K]['create']>[0];
}[keyof Kinds];

/** A registry as `createReporters` takes it: the built-in reporters, or more (in tests). */
export type ReporterKinds = Readonly<Record<string, ReporterKind<never>>>;

/** The reporters `specs` name, in order, made from `kinds` (the built-in ones by default). */
export function createReporters(
  specs: readonly { readonly name: string; readonly [option: string]: unknown }[],
  context: ReporterContext,
  kinds: ReporterKinds = reporterKinds,
): Reporter[] {
  return specs.map(({ name, ...options }) => {
    const kind = kinds[name];
    if (kind === undefined) throw new Error(`no reporter named "${name}" is registered`);
    return kind.create(options as never, context);
  });
}
