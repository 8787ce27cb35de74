/**
 * What a command of the CLI declares about its arguments: the options (as node:util parseArgs
 * takes them, plus what the help and the error messages need), the positional arguments and the
 * help text. The table of every command is src/cli/commands.ts; src/cli/args.ts parses argv
 * against an entry and src/cli/help.ts prints its help, so a flag is declared once.
 */

/** An option that takes a value: `--output FILE`. */
export interface StringOptionSpec {
  type: 'string';
  /** One letter: `-o`. */
  short?: string;
  /** Repeatable: the values are collected in an array. */
  multiple?: boolean;
  /** The value when the option is absent. */
  default?: string;
  /** The value as help and messages name it: `FILE`, `N`, `KEY=VALUE`. */
  value: string;
  /** What it does, for the help (wrapped to fit). */
  help: string;
}

/** A switch: `--no-cache`. */
export interface BooleanOptionSpec {
  type: 'boolean';
  short?: string;
  help: string;
}

/** One option of a command, keyed by its long name in {@link CommandSpec.options}. */
export type OptionSpec = StringOptionSpec | BooleanOptionSpec;

/** How many positional arguments a command takes, and how to talk about them. */
export interface PositionalRule {
  /** As the usage line shows them: `[config]`, `BASE HEAD`, `SHARD.json…`. */
  names: string;
  /**
   * What they are, to finish "evals compare needs …" and "evals run takes …": `two results
   * files`, `at most one config file`.
   */
  what: string;
  min: number;
  /** `Infinity` for no limit. */
  max: number;
}

/** One row of a two-column help section: the term (`run [config]`) and what it is. */
export type HelpRow = readonly [term: string, text: string];

/** A titled two-column section of a help text, such as the commands of `evals`. */
export interface HelpSection {
  title: string;
  rows: readonly HelpRow[];
}

/**
 * A command (or a group of commands, like `evals testset`) as the parser and the help see it.
 * Every command has a `help` option (`-h, --help`): asking for it skips the positional checks.
 */
export interface CommandSpec {
  /** As typed: `evals run`, `evals testset diff`; messages say "see <name> --help". */
  name: string;
  /** Printed above the usage line (the tool's name and version, for `evals` itself). */
  banner?: string;
  /** One line for the list of commands in the parent's help. */
  summary: string;
  /** Keyed by long name; listed in the help in this order. */
  options: Readonly<Record<string, OptionSpec>>;
  positionals: PositionalRule;
  /** Paragraphs between the usage line and the options; `\n` forces a line break. */
  about: readonly string[];
  /** Sections printed before the options, e.g. the commands of a group. */
  sections?: readonly HelpSection[];
  /** Paragraphs after the options, such as the exit codes. */
  footer?: readonly string[];
}
