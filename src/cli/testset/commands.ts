/**
 * The specs of `evals testset <command>` (see src/cli/commands.ts for the others): options,
 * positional arguments and help, parsed by the shared parser.
 */
import type { CommandSpec } from '../command-spec.ts';
import { commandRows, HELP, optionRows } from '../help.ts';

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
      help: 'Print one object per row with id, contentId, line, data and meta',
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
