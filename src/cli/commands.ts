/**
 * Every command of the CLI in one table: its options (as node:util parseArgs takes them), its
 * positional arguments and its help. src/cli/args.ts parses argv against an entry and
 * src/cli/help.ts prints it, so an option added here is parsed, typed and documented at once.
 * Flags, defaults and short aliases are the CLI's contract (README.md, the Action's `args`).
 */
import { toolVersion } from '../shared/version.ts';
import type { CommandSpec, HelpRow } from './command-spec.ts';
import { optionRows } from './help.ts';

const HELP = { type: 'boolean', short: 'h', help: 'Show this help' } as const;

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
      help: 'Print what would run (suites, grid points, cases, shard, trials, evaluators, model calls at most) and exit 0 without running anything',
    },
    'no-cache': {
      type: 'boolean',
      help: 'Send every judge and embedding call to the server (no cache read or write)',
    },
    'cache-dir': {
      type: 'string',
      value: 'DIR',
      help: 'Judge call cache (default: .evalgate/cache next to the config)',
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
    'Exit codes: 0 verdict pass · 1 verdict fail, or the run was cut short from inside (user code called process.exit; the partial artifact is written first) · 2 bad usage or config, or an output path that cannot be written (nothing ran) · 3 the run finished but a result file could not be written (the message says where the results were kept) · 130 interrupted (the partial artifact is written first, with interrupted: true, and the --resume command to finish it is printed).',
  ],
} satisfies CommandSpec;

/** `evals validate [config]` */
export const VALIDATE = {
  name: 'evals validate',
  summary: 'Check a config, its testsets and modules without running anything',
  positionals: { names: '[config]', what: 'at most one config file', min: 0, max: 1 },
  about: [
    'Checks the config (default ./evals.yaml) against the schema and the semantic rules, reads every testset, checks revision pins and loads every module, without running any case.',
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
} satisfies CommandSpec;

/** `evals compare BASE HEAD` */
export const COMPARE = {
  name: 'evals compare',
  summary: 'Compare two results artifacts: paired statistics per evaluator and pass rate',
  positionals: { names: 'BASE HEAD', what: 'two results files', min: 2, max: 2 },
  about: [
    'BASE and HEAD are results artifacts (written by evals run). Matches runs by suite and grid params and cases by identity, then reports for each evaluator and the pass rate the base and head values, the change with its p-value and 95% confidence interval from one paired sign-flip test (fixed seed; p < 0.05 exactly when the interval excludes zero), and the Holm-adjusted p and Benjamini–Hochberg q over every row compared. Each row is improved, regressed, unchanged (the interval includes zero: no detectable change; with what it could have detected, or "underpowered") or "too few cases" (under 10 paired). Exit 1 when a regression stays significant after Holm\'s correction over every row.',
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
  footer: ['Exit codes: 0 no significant regression · 1 a regression · 2 bad input.'],
} satisfies CommandSpec;

/** `evals merge SHARD.json… -o FILE` */
export const MERGE = {
  name: 'evals merge',
  summary: "Combine the artifacts of evals run --shard i/n into the whole run's artifact",
  positionals: { names: 'SHARD.json…', what: 'the shard results files', min: 1, max: Infinity },
  about: [
    "Combines the artifacts of evals run --shard 1/N … N/N into the artifact of the whole run: cases in testset order, each run's summary and gate recomputed, the verdict as an unsharded run's. Refuses (exit 2) inputs of different configs or testset revisions, unsharded or overlapping inputs, mixed shard counts, and, unless --allow-partial, missing shards or interrupted inputs.",
  ],
  options: {
    output: {
      type: 'string',
      short: 'o',
      default: 'evals-results.json',
      value: 'FILE',
      help: 'Merged artifact path (default: evals-results.json)',
    },
    'allow-partial': {
      type: 'boolean',
      help: 'Merge what is there; the result is marked interrupted and fails',
    },
    help: HELP,
  },
  footer: ['Exit codes: 0 verdict pass · 1 verdict fail · 2 inputs refused.'],
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
    case: { type: 'string', value: 'ID', help: 'Only cases whose id starts with ID' },
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
    json: {
      type: 'boolean',
      help: 'Print the selected cases as JSON: { shown, matched, cases: [{ suite, params, case }] }',
    },
    help: HELP,
  },
  footer: ['Exit codes: 0 printed (also when no case matches a status flag) · 2 bad input.'],
} satisfies CommandSpec;

/** `evals report RESULTS.json -o report.html` */
export const REPORT = {
  name: 'evals report',
  summary: 'Write a self-contained HTML report of a results artifact',
  positionals: { names: 'RESULTS.json', what: 'one results file', min: 1, max: 1 },
  about: [
    'Writes one HTML file that opens from disk with no network: the verdict and gate conditions, a grid matrix per suite, charts (score distribution per evaluator, pass rate per grid point, the baseline comparison with confidence intervals, flaky cases) and a case table that filters, sorts and searches, with each case in detail (inputs, output, expected and their diff, every evaluation with its reason, model calls).',
  ],
  options: {
    output: {
      type: 'string',
      short: 'o',
      default: 'report.html',
      value: 'FILE',
      help: 'Where to write the report (default: report.html)',
    },
    baseline: {
      type: 'string',
      value: 'FILE',
      help: 'Compare with an earlier results artifact (as evals compare BASE RESULTS.json); without it, the comparison the run embedded, if any, is shown',
    },
    help: HELP,
  },
  footer: ['Exit codes: 0 written · 2 bad input or the file cannot be written.'],
} satisfies CommandSpec;

/** How rows are identified: shared by `evals testset revision`, `show`, `diff` and `log`. */
const IDENTITY = {
  hash: {
    type: 'string',
    value: 'FIELDS',
    help: "Comma-separated fields that identify a row (as a suite's hash:)",
  },
  id: {
    type: 'string',
    value: 'ID',
    help: "Testset id mixed into content ids (default: the file's base name)",
  },
  config: {
    type: 'string',
    value: 'FILE',
    help: 'Take --hash and --id from the suite in this config that reads the file (default: ./evals.yaml when present)',
  },
} as const;

/** `evals testset revision FILE[@REF]` */
export const TESTSET_REVISION = {
  name: 'evals testset revision',
  summary: 'Print the revision id, the row count and the identity mode',
  positionals: { names: 'FILE[@REF]', what: 'one testset file', min: 1, max: 1 },
  about: [
    "Prints the testset's revision id (what a suite's testset.revision pins), its row count and how rows are identified: dedup id, hash fields, or content.",
  ],
  options: {
    ...IDENTITY,
    json: {
      type: 'boolean',
      help: 'Print file, revision, rows, identity, testset id and commit as JSON',
    },
    help: HELP,
  },
} satisfies CommandSpec;

/** `evals testset show FILE[@REF]` */
export const TESTSET_SHOW = {
  name: 'evals testset show',
  summary: 'Print the rows with their ids (--json: as JSON)',
  positionals: { names: 'FILE[@REF]', what: 'one testset file', min: 1, max: 1 },
  about: ['Prints the rows as a table with their source line and identity.'],
  options: {
    ...IDENTITY,
    json: {
      type: 'boolean',
      help: 'Print one object per row with id, contentId, line, data and metadata',
    },
    help: HELP,
  },
} satisfies CommandSpec;

/** `evals testset diff A B` */
export const TESTSET_DIFF = {
  name: 'evals testset diff',
  summary:
    'Compare two versions by identity: rows added, removed, changed (exit 1 when they differ)',
  positionals: { names: 'A B', what: 'two versions of a testset', min: 2, max: 2 },
  about: [
    'Each side is FILE or FILE@REF (e.g. testsets/qa.csv@main testsets/qa.csv), or two different files. Rows are matched by identity: with dedup ids or hash fields an edited row is "changed", with content identity it is one row removed and one added.',
  ],
  options: {
    ...IDENTITY,
    json: { type: 'boolean', help: 'Print the rows added, removed and changed as JSON' },
    help: HELP,
  },
  footer: ['Exit codes: 0 same revision · 1 different · 2 bad input.'],
} satisfies CommandSpec;

/** `evals testset log FILE` */
export const TESTSET_LOG = {
  name: 'evals testset log',
  summary: "The file's git history: revision, rows and +added −removed ~changed per commit",
  positionals: { names: 'FILE', what: 'one testset file', min: 1, max: 1 },
  about: [
    'For each commit that changed FILE (newest first): commit, date, revision, rows, and the rows added, removed and changed since the commit before; then the working tree when it differs.',
  ],
  options: {
    ...IDENTITY,
    json: { type: 'boolean', help: 'Print the working tree and the commits as JSON' },
    help: HELP,
  },
} satisfies CommandSpec;

/** `evals testset convert IN[@REF] OUT` */
export const TESTSET_CONVERT = {
  name: 'evals testset convert',
  summary: 'Convert between .csv, .json and .jsonl, keeping ids and the revision',
  positionals: { names: 'IN[@REF] OUT', what: 'an input and an output file', min: 2, max: 2 },
  about: [
    'Converts between .csv, .json and .jsonl. Metadata columns (__id__, __dedup_id__, __flags__, __tags__, __meta__) round-trip; __dedup_id__ and testcase_dedup_id are normalised into each other; empty metadata columns are dropped. The revision is checked to be unchanged.',
    'Values a CSV cell cannot hold as they are (numbers, booleans, null, missing keys) stop the conversion.',
  ],
  options: {
    lossy: {
      type: 'boolean',
      help: 'Write such values anyway, as text, and report the new revision',
    },
    help: HELP,
  },
} satisfies CommandSpec;

/** `evals testset pin [config]` */
export const TESTSET_PIN = {
  name: 'evals testset pin',
  summary: "Write each suite's current revision into its testset.revision (--check: only report)",
  positionals: { names: '[config]', what: 'at most one config file', min: 0, max: 1 },
  about: [
    "Writes each suite's current testset revision into its testset.revision field, keeping the file's comments and formatting.",
  ],
  options: {
    check: { type: 'boolean', help: 'Write nothing; exit 1 when a pin is stale' },
    help: HELP,
  },
} satisfies CommandSpec;

/** The sub-commands of `evals testset`, by the word that names them. */
export const TESTSET_COMMANDS = {
  revision: TESTSET_REVISION,
  show: TESTSET_SHOW,
  diff: TESTSET_DIFF,
  log: TESTSET_LOG,
  convert: TESTSET_CONVERT,
  pin: TESTSET_PIN,
} satisfies Record<string, CommandSpec>;

/** `evals testset <command>`: the group, whose help lists the sub-commands. */
export const TESTSET = {
  name: 'evals testset',
  summary: 'Versioned testsets: revision, show, diff, log, convert, pin (see evals testset --help)',
  positionals: { names: '<command>', what: 'a command', min: 0, max: Infinity },
  about: [
    "Testsets are files in git. A row's identity is its dedup id (__dedup_id__ or testcase_dedup_id), else the hash of the suite's hash: fields, else its content; a revision is the hash of the ordered content ids. FILE may be written FILE@REF to read it as of a git branch, tag or commit.",
  ],
  sections: [
    { title: 'Commands:', rows: commandRows(TESTSET_COMMANDS) },
    { title: 'Identity options (revision, show, diff, log):', rows: optionRows(IDENTITY) },
  ],
  options: { help: HELP },
  footer: ["Run evals testset <command> --help for each command's options."],
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
  testset: TESTSET,
} satisfies Record<string, CommandSpec>;

/** `evals` itself: `--help` lists the commands, `--version` prints the version. */
export const EVALS = {
  name: 'evals',
  banner: `evals ${toolVersion} — declarative evaluations for LLM applications`,
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
    'The config defaults to ./evals.yaml (or ./evals.yml).\nExit codes: 0 pass · 1 fail · 2 bad usage or config · 130 interrupted.',
  ],
} satisfies CommandSpec;

/** `run [config]`, what it does: a group's commands for its help. */
function commandRows(commands: Record<string, CommandSpec>): HelpRow[] {
  return Object.entries(commands).map(([word, spec]) => [
    `${word} ${spec.positionals.names}`,
    spec.summary,
  ]);
}
