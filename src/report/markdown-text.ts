/**
 * User text made safe in GitHub-flavoured markdown, for the PR comment, the check-run summary and
 * the job summary: as prose or a table cell (`escapeMarkdownText`), as inline code (`codeSpan`)
 * or as a fenced block (`codeBlock`). Everything that comes from users or models (ids, params,
 * outputs, error messages, metadata) goes through one of them, so it cannot open HTML, close a
 * `<details>`, break a table, link, or notify anyone.
 */
import { showInvisible } from './failure-details.ts';
import { shortSha, startDate } from './labels.ts';

const LINE_BREAKS = /\r\n?|[\n\u2028\u2029]/g;

/** `&`, `<`, `>` as entities (no HTML at all); the rest of the markdown punctuation backslashed. */
const MARKDOWN_SPECIAL = /[\\`*_[\]|~$!#<>&]/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** Zero-width: invisible when rendered, but GitHub's autolinkers no longer see the pattern. */
const ZWJ = '\u200d';
const ZWSP = '\u200b';

/**
 * Makes user text safe as markdown prose or a table cell, on one line: it shows as written and
 * cannot start a block (heading, list, quote), open or close HTML (`<details>` included), make
 * emphasis, code, math, links or images, split a table cell, mention a user or team, or
 * reference an issue.
 *
 * - line breaks and tabs become spaces; controls and bidi overrides show as `\uXXXX`;
 * - `&` `<` `>` become entities; `` \ ` * _ [ ] | ~ $ ! # `` are backslash-escaped (inside a
 *   table, GitHub splits cells only at a pipe that is not escaped);
 * - a leading `-`, `+`, `=` or `1.`/`1)` (then a space) is escaped so it cannot start a list or an underline;
 * - `@` gets a zero-width joiner after it (no mention), `#1`/`GH-1` a zero-width space before
 *   the number (no issue reference), `://` and `www.` one inside (no autolink), and a colon
 *   that opens an emoji shortcode (`:shipit:`) one after it (no emoji).
 */
export function escapeMarkdownText(text: string): string {
  return showInvisible(text.replace(LINE_BREAKS, ' ').replace(/\t/g, ' '))
    .replace(MARKDOWN_SPECIAL, (char) => ENTITIES[char] ?? `\\${char}`)
    .replace(/^(\s*)([-+=])/, '$1\\$2')
    .replace(/^(\s*\d{1,9})([.)])(?=\s|$)/, '$1\\$2')
    .replace(/@/g, `@${ZWJ}`)
    .replace(/#(?=\d)/g, `#${ZWSP}`)
    .replace(/\b(gh)-(?=\d)/gi, `$1-${ZWSP}`)
    .replace(/:\/\//g, `:${ZWSP}//`)
    .replace(/\bwww\./gi, `www${ZWSP}.`)
    .replace(/:(?=[a-z0-9_+-]+:)/gi, `:${ZWSP}`);
}

/**
 * User text as inline code, on one line. The fence is one backtick longer than the longest run
 * of backticks inside, so nothing inside can close it; markdown, HTML, mentions and references
 * are inert in code. Not for table cells: a `|` inside would still split the cell.
 */
export function codeSpan(text: string): string {
  const flat = showInvisible(text.replace(LINE_BREAKS, ' '));
  if (flat === '') return '` `';
  const fence = '`'.repeat(longestRun(flat, '`') + 1);
  // A code span drops one space from each end, and a backtick at an end would join the fence.
  const pad =
    flat.startsWith('`') ||
    flat.endsWith('`') ||
    (flat.startsWith(' ') && flat.endsWith(' ') && flat.trim() !== '')
      ? ' '
      : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/**
 * User text as a fenced code block, every line prefixed with `indent` (so it stays inside a list
 * item). The fence is longer than any backtick run inside, so no line of the text can close it.
 * In a PR comment the indent also keeps every line of user text from equalling a sticky-comment
 * marker (`<!-- evalgate-report … -->`, matched as a whole line at column 0).
 */
export function codeBlock(text: string, indent = ''): string {
  const body = showInvisible(text.replace(/\r\n?/g, '\n'));
  const fence = '`'.repeat(Math.max(3, longestRun(body, '`') + 1));
  const lines = body.split('\n').map((line) => (line === '' ? '' : `${indent}${line}`));
  return [`${indent}${fence}`, ...lines, `${indent}${fence}`].join('\n');
}

function longestRun(text: string, char: string): number {
  let longest = 0;
  let current = 0;
  for (const c of text) {
    current = c === char ? current + 1 : 0;
    if (current > longest) longest = current;
  }
  return longest;
}

/**
 * Where results came from, as markdown to follow their name: `` at `3f9a1c2` on `main`
 * (2024-05-01)``, each part only when known; '' when none is.
 */
export function describeOriginMarkdown(info: {
  git: { sha: string | null; ref: string | null } | null;
  startedAt: string;
}): string {
  const sha = info.git?.sha ? ` at ${codeSpan(shortSha(info.git.sha))}` : '';
  const ref = info.git?.ref ? ` on ${codeSpan(info.git.ref)}` : '';
  const date = startDate(info.startedAt);
  return `${sha}${ref}${date ? ` (${date})` : ''}`;
}

/** A markdown table row of cells already escaped; a row is one line, so no cell holds a newline. */
export function tableRow(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}
