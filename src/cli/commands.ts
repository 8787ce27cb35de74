/**
 * Every command of the CLI in one table: its options (as node:util parseArgs takes them), its
 * positional arguments and its help. src/cli/args.ts parses argv against an entry and
 * src/cli/help.ts prints it, so an option added here is parsed, typed and documented at once.
 * Flags, defaults and short aliases are the CLI's contract (README.md, the Action's `args`).
 */
import { toolVersion } from '../shared/version.ts';
import type { CommandSpec } from './command-spec.ts';
import { commandRows, HELP } from './help.ts';
import { TESTSET } from './testset/commands.ts';

/** `evals run [config]` */
export const RUN = {
  name: 'evals run',
  summary: 'Run the suites of a config and write the results artifact',
  positionals: { names: '[config]', what: 'at most one config file', min: 0, max: 1 },
  about: [
    'Runs every suite of the config (default ./evals.yaml) and writes the JSON results artifact.',
  ],
  options: {
    output: {
      type: 'string',
      short: 'o',
      value: 'FILE',
      help: 'Results artifact path (default: evals-results.json; with --resume FILE, FILE itself)',
    },
    suite: {
      type: 'string',
      multiple: true,
      value: 'ID',
      help: 'Run only this suite (repeatable)',
    },
    grid: {
      type: 'string',
      multiple: true,
      value: 'KEY=VALUE',
      help: 'Run only grid points where KEY has VALUE (repeatable; values of one key are OR-ed)',
    },
    tag: {
      type: 'string',
      multiple: true,
      value: 'TAG',
      help: 'Run only cases whose __tags__ include TAG (repeatable)',
    },
    concurrency: {
      type: 'string',
      value: 'N',
      help: 'Cap cases in flight across the whole process',
    },
    trials: {
      type: 'string',
      value: 'N',
      help: 'Run each case N times in every suite (overrides trials: in the config); scores are averaged per case, cases passing some trials are marked flaky',
    },
    junit: {
      type: 'string',
      value: 'FILE',
      help: 'Also write a JUnit XML report (one <testsuite> per suite and grid point)',
    },
    report: {
      type: 'string',
      value: 'FILE',
      help: 'Also write a self-contained HTML report (verdict, grid matrix, charts, a searchable case table; opens from disk, no network)',
    },
    baseline: {
      type: 'string',
      value: 'FILE',
      help: 'Compare with an earlier results artifact: the comparison is printed and embedded in the artifact; gate.regressions decides if a regression fails',
    },
    shard: {
      type: 'string',
      value: 'I/N',
      help: 'Run only shard I of N (1 ≤ I ≤ N): the cases whose identity hashes to it, with every grid point and trial; combine the N artifacts with evals merge',
    },
    resume: {
      type: 'string',
      value: 'FILE',
      help: 'Finish an interrupted run: run only the cases FILE (an artifact with interrupted: true) has no result for, then write the combined artifact',
    },
    'dry-run': {
      type: 'boolean',
      help: 'Print what would run (suites, grid points, cases, shard, trials, evaluators, model calls at most) and exit 0 without running anything; exit 2 at the problems validate finds, except those only importing modules shows (of a module, only that its file is there is checked)',
    },
    'no-cache': {
      type: 'boolean',
      help: "Send every model call (a model target's, a judge's, an embedding) to the server (no cache read or write)",
    },
    'cache-dir': {
      type: 'string',
      value: 'DIR',
      help: 'Cache of model target, judge and embedding calls (default: .evalgate/cache next to the config)',
    },
    'update-baselines': {
      type: 'boolean',
      help: 'automatic-battle: record missing baselines and replace those that lost',
    },
    'ignore-pin': {
      type: 'boolean',
      help: 'Run even when a testset no longer matches its pinned revision: for local work only (the summary warns, the artifact says pinIgnored: true, the Action refuses it)',
    },
    help: HELP,
  },
  footer: [
    'Exit codes: 0 verdict pass · 1 verdict fail, or the run was cut short from inside (user code called process.exit; the partial artifact is written first) · 2 bad usage or config, or an output path that cannot be written (nothing ran) · 3 the run finished but a result file could not be written (the message says where the results were kept) · 130 interrupted (the partial artifact is written first, with interrupted: true, and the --resume command to finish it is printed), or stopped by a second signal while --junit or --report were being written (the artifact is written; the message names what was not and how to make it).',
  ],
} satisfies CommandSpec;

/** `evals validate [config]` */
export const VALIDATE = {
  name: 'evals validate',
  summary: 'Check a config, its testsets and modules without running anything',
  positionals: { names: '[config]', what: 'at most one config file', min: 0, max: 1 },
  about: [
    'Checks the config (default ./evals.yaml) against the schema and the semantic rules, reads every testset, checks revision pins, the targets (prompt files, commands, URLs) and the evaluators, and loads every module (which run --dry-run does not), without running any case.',
  ],
  options: { help: HELP },
  footer: ['Exit codes: 0 valid · 2 problems found (each printed as file:line:col).'],
} satisfies CommandSpec;

/** `evals init [dir]` */
export const INIT = {
  name: 'evals init',
  summary: 'Write a working starter project (a function, command, HTTP or model target)',
  positionals: { names: '[dir]', what: 'at most one folder', min: 0, max: 1 },
  about: [
    'Writes a small working project into dir (default: the current folder): evals.yaml, a CSV testset and what produces the outputs. Existing files are never overwritten.',
    'Templates: function (a TypeScript function and a custom evaluator; the default), command (a local script as the agent, no code in the config), http (an endpoint, with a tiny local server to try it), model (a chat model over two prompt files; Ollama by default).',
  ],
  options: {
    template: {
      type: 'string',
      default: 'function',
      value: 'function|command|http|model',
      help: 'Which starter to write (default: function)',
    },
    help: HELP,
  },
  footer: [
    'Exit codes: 0 written · 2 bad usage, or the folder has a file of the starter already, or something that is not a folder where it makes one (nothing written) · 3 a file could not be written (one line says why; what it had written is removed again).',
  ],
} satisfies CommandSpec;

/** `evals compare BASE HEAD` */
export const COMPARE = {
  name: 'evals compare',
  summary: 'Compare two results artifacts: paired statistics per evaluator and pass rate',
  positionals: { names: 'BASE HEAD', what: 'two results files', min: 2, max: 2 },
  about: [
    'BASE and HEAD are results artifacts (written by evals run). Matches runs by suite and grid params and cases by identity, then reports for each evaluator and the pass rate the base and head values, the change with its p-value and 95% confidence interval from one paired sign-flip test (fixed seed; p < 0.05 exactly when the interval excludes zero), and the Holm-adjusted p and Benjamini–Hochberg q over every row compared. Each row is improved, regressed, unchanged (the interval includes zero: no detectable change; with what it could have detected, or "underpowered") or "too few cases" (under 10 paired). Exit 1 when a regression stays significant after Holm\'s correction over every row, or when a run of HEAD lacks an evaluator of its BASE run and the gate HEAD records has regressions: block without it in removedEvaluators (as evals run --baseline fails it), a grid point of BASE its whole grid no longer has, or a suite of BASE that HEAD\'s config no longer has and its removedSuites does not list, when BASE\'s recorded gate for it has regressions: block.',
    'Also lists newly failing, fixed, added, removed, flaky and changed-row cases.',
  ],
  options: {
    format: {
      type: 'string',
      default: 'text',
      value: 'text|md|json',
      help: 'A text report, Markdown (for a pull-request comment) or JSON (default: text)',
    },
    help: HELP,
  },
  footer: [
    'Exit codes: 0 no significant regression · 1 a regression, or an evaluator of BASE that HEAD lacks under regressions: block · 2 bad input.',
  ],
} satisfies CommandSpec;

/** `evals merge SHARD.json… -o FILE [--junit FILE]` */
export const MERGE = {
  name: 'evals merge',
  summary: "Combine the artifacts of evals run --shard i/n into the whole run's artifact",
  positionals: { names: 'SHARD.json…', what: 'the shard results files', min: 1, max: Infinity },
  about: [
    "Combines the artifacts of evals run --shard 1/N … N/N into the artifact of the whole run: cases in testset order, each run's summary and gate recomputed, the verdict as an unsharded run's. Shards run with --baseline FILE are compared with FILE again as one run (the statistics over every merged case, gate.regressions applied). Refuses (exit 2) inputs of different configs or testset revisions, unsharded or overlapping inputs, mixed shard counts, shards run with different baselines or some without (unless --baseline), a recorded baseline file that is gone or changed, and, unless --allow-partial, missing shards or interrupted inputs.",
  ],
  options: {
    output: {
      type: 'string',
      short: 'o',
      default: 'evals-results.json',
      value: 'FILE',
      help: 'Merged artifact path (default: evals-results.json)',
    },
    junit: {
      type: 'string',
      value: 'FILE',
      help: "Also write the merged run's JUnit XML report, after the merged artifact (the same XML evals report makes from that artifact with --junit)",
    },
    'allow-partial': {
      type: 'boolean',
      help: 'Merge what is there; the result is marked interrupted and fails',
    },
    baseline: {
      type: 'string',
      value: 'FILE',
      help: 'Compare the merged run with FILE (default: the baseline the shards were run with, --baseline, read again from the file they record), over all its cases, and apply gate.regressions as an unsharded run does',
    },
    help: HELP,
  },
  footer: [
    'Exit codes: 0 verdict pass · 1 verdict fail · 2 inputs, -o or --junit refused (nothing merged) · 3 the merge finished but -o or --junit could not be written (one line per file says where it was kept; when only --junit failed, the merged artifact is written and, if the JUnit file was kept nowhere, the line gives the evals report command that makes it).',
  ],
} satisfies CommandSpec;

/** `evals show RESULTS.json` */
export const SHOW = {
  name: 'evals show',
  summary: 'Print the cases of a results artifact: inputs, output, every evaluation and why',
  positionals: { names: 'RESULTS.json', what: 'one results file', min: 1, max: 1 },
  about: [
    'Prints each selected case of a results artifact (written by evals run): its run, source line and label, inputs, output, error, every evaluation (score, threshold, pass, the reason its evaluator gave, the error in full) and its trials. Status flags (--failed, --errored, --flaky) may be combined: a case matching any is shown; the other flags narrow.',
  ],
  options: {
    failed: { type: 'boolean', help: 'Only cases that did not pass (failed or errored)' },
    errored: { type: 'boolean', help: 'Only cases whose function errored' },
    flaky: { type: 'boolean', help: 'Only cases that passed some trials and failed others' },
    case: {
      type: 'string',
      value: 'ID',
      help: 'Only the case whose id is ID; if no id is, the cases whose id starts with ID',
    },
    suite: { type: 'string', multiple: true, value: 'ID', help: 'Only this suite (repeatable)' },
    grid: {
      type: 'string',
      multiple: true,
      value: 'KEY=VALUE',
      help: 'Only grid points where KEY has VALUE (repeatable; values of one key are OR-ed)',
    },
    limit: {
      type: 'string',
      value: 'N',
      help: 'Show at most N cases (default: 20; the rest are counted)',
    },
    full: { type: 'boolean', help: 'Show every value whole (no cutting of long outputs)' },
    baseline: {
      type: 'string',
      value: 'FILE',
      help: "Under each case, its result in this baseline's results (output, error, evaluations)",
    },
    json: {
      type: 'boolean',
      help: 'Print the selected cases as JSON: { shown, matched, cases: [{ suite, params, case }] }',
    },
    help: HELP,
  },
  footer: ['Exit codes: 0 printed (also when no case matches a status flag) · 2 bad input.'],
} satisfies CommandSpec;

/** `evals report RESULTS.json [-o report.html] [--junit FILE]` */
export const REPORT = {
  name: 'evals report',
  summary: 'Write the self-contained HTML report or the JUnit XML of a results artifact',
  positionals: { names: 'RESULTS.json', what: 'one results file', min: 1, max: 1 },
  about: [
    'Writes one HTML file that opens from disk with no network: the verdict and gate conditions, a grid matrix per suite, charts (score distribution per evaluator, pass rate per grid point, the baseline comparison with confidence intervals, flaky cases) and a case table that filters, sorts and searches, with each case in detail (inputs, output, expected and their diff, every evaluation with its reason, model calls).',
    'With --junit FILE, writes the JUnit XML report evals run --junit would have written for the same run (for a merged artifact of shards, or when a run did not write it); given without -o, only the JUnit report is written, no HTML.',
  ],
  options: {
    output: {
      type: 'string',
      short: 'o',
      value: 'FILE',
      help: 'Where to write the HTML report (default: beside the results, named after them: evals-results.json → evals-report.html, small.json → small-report.html; with --junit and no -o, no HTML report is written)',
    },
    junit: {
      type: 'string',
      value: 'FILE',
      help: 'Write the JUnit XML report of the results (one <testsuite> per suite and grid point); alone, instead of the HTML report',
    },
    baseline: {
      type: 'string',
      value: 'FILE',
      help: 'Compare with an earlier results artifact (as evals compare BASE RESULTS.json) in the HTML report; without it, the comparison the run embedded, if any, is shown. Refused with --junit and no -o',
    },
    help: HELP,
  },
  footer: [
    'Exit codes: 0 written · 2 bad input, or an output path that can never be written, or -o or --junit naming the results file (nothing written) · 3 the disk would not take a file (one line names it and the cause; it is left as it was, and the other report, if asked for, is still written).',
  ],
} satisfies CommandSpec;

/** `evals override RESULTS.json --case ID --evaluator EVAL --score N` */
export const OVERRIDE = {
  name: 'evals override',
  summary: "Record a human's score for one evaluation, as an example for judges",
  positionals: { names: 'RESULTS.json', what: 'one results file', min: 1, max: 1 },
  about: [
    "Appends a human override of one evaluation of a results artifact to evals-overrides.jsonl next to the config (commit it: it keeps the labels). For an artifact written by runTestSuite, which has no config, run it in the folder runTestSuite runs in (or its baselinesDir): with no --config and no evals.yaml there, the file goes in the current folder, where runTestSuite reads it. The line holds the case's fields, its output, the score the evaluator gave and the one given here. Judges read the most recent overrides of their evaluator id as examples: llm-judge with overrides: N, the SDK's BaseLLMJudge with numOverrides (passed to makePrompt).",
  ],
  options: {
    case: {
      type: 'string',
      value: 'ID',
      help: 'The case: its id, or enough of its start when no id is exactly that (required)',
    },
    evaluator: {
      type: 'string',
      value: 'ID',
      help: 'The evaluator whose verdict is corrected (required)',
    },
    score: { type: 'string', value: 'N', help: 'The right score, from 0 to 1 (required)' },
    reason: { type: 'string', value: 'TEXT', help: 'Why; shown to the judge with the example' },
    suite: { type: 'string', value: 'ID', help: 'Look for the case in this suite only' },
    grid: {
      type: 'string',
      multiple: true,
      value: 'KEY=VALUE',
      help: 'Look only at grid points where KEY has VALUE (repeatable)',
    },
    config: {
      type: 'string',
      value: 'FILE',
      help: 'The config beside which the overrides are kept (default: ./evals.yaml; for a runTestSuite artifact with none, the current folder)',
    },
    help: HELP,
  },
  footer: [
    'Exit codes: 0 recorded · 2 bad input (nothing written) · 3 the overrides file could not be written (it is left as it was; one line says why).',
  ],
} satisfies CommandSpec;

/** The commands of `evals`, by the word that names them. */
export const COMMANDS = {
  run: RUN,
  validate: VALIDATE,
  init: INIT,
  compare: COMPARE,
  merge: MERGE,
  show: SHOW,
  report: REPORT,
  override: OVERRIDE,
  testset: TESTSET,
} satisfies Record<string, CommandSpec>;

/** `evals` itself: `--help` lists the commands, `--version` prints the version. */
export const EVALS = {
  name: 'evals',
  // The package's name, as `evals --version` prints it: the `evals` command is evalgate's.
  banner: `evalgate ${toolVersion} — declarative evaluations for LLM applications`,
  summary: 'Declarative evaluations for LLM applications',
  positionals: { names: '<command>', what: 'a command', min: 0, max: Infinity },
  about: [],
  sections: [{ title: 'Commands:', rows: commandRows(COMMANDS) }],
  options: {
    help: {
      type: 'boolean',
      short: 'h',
      help: 'Show help (also after a command: evals run --help)',
    },
    version: { type: 'boolean', short: 'v', help: 'Print the version' },
  },
  footer: [
    'The config defaults to ./evals.yaml (or ./evals.yml).\nExit codes: 0 pass · 1 fail · 2 bad usage or config · 3 results could not be written · 130 interrupted.',
  ],
} satisfies CommandSpec;
