/**
 * A value the user gave (an option's value, a command's name) as an error or warning echoes
 * it: whole when short, else its start and its length (`abcabc… (3,000 characters)`). A pasted
 * 3,000-character value echoed whole would fill the terminal and bury what the message says is
 * wrong. Cut with `cutText`, as every other long text the CLI shows, so an emoji is never split.
 */
import { characterCount, cutText } from './cut-text.ts';
import { formatCount } from './format-count.ts';
import { printable } from './text-table.ts';

/** How many characters of a long value are shown: enough to recognise it by. */
export const SHOWN_VALUE_CHARS = 60;

/** `value`, made printable, cut to its start and length when long. */
export function shownValue(value: string): string {
  const { start, left } = cutText(value, SHOWN_VALUE_CHARS);
  return left === 0 ? printable(value) : `${printable(start)}${lengthNote(value)}`;
}

/** `value` as a JSON string (`"0"`), cut to its start and length when long. */
export function quotedValue(value: string): string {
  const { start, left } = cutText(value, SHOWN_VALUE_CHARS);
  return left === 0 ? JSON.stringify(value) : `${JSON.stringify(start)}${lengthNote(value)}`;
}

function lengthNote(value: string): string {
  return `… (${formatCount(characterCount(value))} characters)`;
}
