/**
 * Help texts, rendered from a command's spec (src/cli/commands.ts) so that every option a
 * command parses is also in its help: the usage line, paragraphs wrapped to 80 columns, and
 * two-column sections (commands, options) whose text wraps under itself.
 */
import { padToWidth, textWidth } from '../shared/text-table.ts';
import type { CommandSpec, HelpRow, OptionSpec } from './command-spec.ts';

/** Widest a line of help gets: a terminal's default width. A test holds every help to it. */
export const HELP_WIDTH = 80;
/** A term wider than this takes a line of its own and its text starts below it. */
const MAX_TERM = 26;
const INDENT = '  ';
const GAP = '  ';

/** The whole `--help` text of a command, ending in a newline. */
export function renderHelp(spec: CommandSpec): string {
  const usage = [spec.name, spec.positionals.names, '[options]'].filter(Boolean).join(' ');
  const blocks = [
    ...(spec.banner !== undefined ? [wrap(spec.banner, HELP_WIDTH)] : []),
    [`Usage: ${usage}`],
    ...spec.about.map((paragraph) => wrap(paragraph, HELP_WIDTH)),
    ...(spec.sections ?? []).map((section) => [`${section.title}`, ...renderRows(section.rows)]),
    ['Options:', ...renderRows(optionRows(spec.options))],
    ...(spec.footer ?? []).map((paragraph) => wrap(paragraph, HELP_WIDTH)),
  ];
  return `${blocks.map((lines) => lines.join('\n')).join('\n\n')}\n`;
}

/** The help rows of `options`: `-o, --output FILE` or `    --suite ID`, and what it does. */
export function optionRows(options: Readonly<Record<string, OptionSpec>>): HelpRow[] {
  return Object.entries(options).map(([name, option]) => {
    const flag = `${option.short !== undefined ? `-${option.short}, ` : '    '}--${name}`;
    return [option.type === 'string' ? `${flag} ${option.value}` : flag, option.help];
  });
}

/**
 * Rows in two columns. The text column starts after the widest term that fits MAX_TERM, so a
 * list of short terms is not pushed right by one long one, which gets its own line instead.
 */
function renderRows(rows: readonly HelpRow[]): string[] {
  const termWidths = rows.map(([term]) => textWidth(term)).filter((width) => width <= MAX_TERM);
  const column = INDENT.length + Math.max(0, ...termWidths) + GAP.length;
  const under = ' '.repeat(column);
  return rows.flatMap(([term, text]) => {
    const [first = '', ...rest] = wrap(text, HELP_WIDTH - column);
    const head = `${INDENT}${term}`;
    const more = rest.map((line) => under + line);
    return textWidth(head) + GAP.length <= column
      ? [`${padToWidth(head, column)}${first}`, ...more]
      : [head, under + first, ...more];
  });
}

/**
 * `text` broken into lines of at most `width` columns between words; a `\n` in it forces a
 * break. A single word wider than `width` is left whole on its own line.
 */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const given of text.split('\n')) {
    let line = '';
    for (const word of given.split(' ').filter(Boolean)) {
      if (line !== '' && textWidth(line) + 1 + textWidth(word) > width) {
        lines.push(line);
        line = word;
      } else {
        line = line === '' ? word : `${line} ${word}`;
      }
    }
    lines.push(line);
  }
  return lines;
}

/** The `-h, --help` option every command has. */
export const HELP = { type: 'boolean', short: 'h', help: 'Show this help' } as const;

/** `run [config]`, what it does: a group's commands for its help. */
export function commandRows(commands: Record<string, CommandSpec>): HelpRow[] {
  return Object.entries(commands).map(([word, spec]) => [
    `${word} ${spec.positionals.names}`,
    spec.summary,
  ]);
}
