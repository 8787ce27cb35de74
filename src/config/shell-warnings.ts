/**
 * A `shell: true` command line runs through `/bin/sh`, which on Debian and Ubuntu is dash, not
 * bash. Bash-only syntax there fails in confusing ways: `diff <(a) <(b)` is a syntax error,
 * `[[ … ]]` is "not found", `{a,b}` stays literal text and `cmd &> out` runs `cmd` in the
 * background and truncates `out`. Such a line may work on a developer's macOS or a bash-linked
 * `/bin/sh`, so it is valid config and a warning at load, not an error.
 *
 * The scan reads the line as `sh` quotes it: what sits inside '…' or "…", or after a `\`, is
 * text, and a template (`{{ case.q }}`) is a value, never syntax. It looks for the common
 * constructs only; a line it does not flag may still be bash-only.
 */
import { isRecord } from '../shared/is-record.ts';
import { templateSpans } from '../shared/templates.ts';
import type { RuleProblem } from './rules.ts';
import type { ConfigPath } from './types.ts';

/** A bash-only construct: what it is called, and the pattern of its unquoted text. */
interface Construct {
  name: string;
  pattern: RegExp;
}

/**
 * Matched against the line with quoted text, escaped characters and templates blanked out, so
 * they only match syntax. `{a,b}` and `{1..3}` need a word of their own around them (not
 * `${x}` or `{ cmd; }`, a POSIX group).
 */
const CONSTRUCTS: readonly Construct[] = [
  { name: 'process substitution <(…) / >(…)', pattern: /[<>]\(/ },
  { name: '[[ … ]] test', pattern: /(?:^|[\s;&|(])\[\[(?:\s|$)/ },
  { name: 'brace expansion {a,b} / {1..3}', pattern: /(?<![$\w])\{[^\s{}]*(?:,|\.\.)[^\s{}]*\}/ },
  { name: 'the &> redirection', pattern: /&>/ },
  { name: 'the |& pipe', pattern: /\|&/ },
  { name: 'an array assignment x=(…)', pattern: /(?:^|[\s;&|])[A-Za-z_]\w*=\(/ },
  { name: 'the source builtin', pattern: /(?:^|[;&|(]\s*|\n\s*)source\s/ },
  { name: 'the function keyword', pattern: /(?:^|[;&|\n]\s*)function\s+[A-Za-z_]/ },
];

/**
 * One `target.shell-bash-only` warning per `shell: true` command target of `data` (the config as
 * read) whose line uses bash-only syntax, at its `run` value or the list item that holds it,
 * naming the construct and what to do instead.
 */
export function bashOnlyShellWarnings(data: unknown): RuleProblem[] {
  const warnings: RuleProblem[] = [];
  const suites = isRecord(data) && Array.isArray(data.suites) ? data.suites : [];
  suites.forEach((suite: unknown, i) => {
    if (!isRecord(suite) || !isRecord(suite.target)) return;
    const { type, shell, run } = suite.target;
    if (type !== 'command' || shell !== true) return;
    const at: ConfigPath = ['suites', i, 'target', 'run'];
    const words: [ConfigPath, unknown][] =
      typeof run === 'string'
        ? [[at, run]]
        : Array.isArray(run)
          ? run.map((w, j) => [[...at, j], w])
          : [];
    for (const [path, word] of words) {
      if (typeof word !== 'string') continue;
      const found = CONSTRUCTS.find(({ pattern }) => pattern.test(syntaxOnly(word)));
      if (found === undefined) continue;
      warnings.push({
        code: 'target.shell-bash-only',
        path,
        message: `shell: true runs the line with /bin/sh, which is dash on Debian and Ubuntu, not bash, and this line uses bash-only syntax (${found.name}): there it fails, or does something else, with a confusing error. Write it in POSIX sh, or run it with bash, the values as arguments: run: [bash, -c, '… "$1" …', bash, "{{ case.q }}"] (a template inside the bash -c text would be code), or a script run as [bash, script.sh, "{{ case.q }}"]`,
      });
      return;
    }
  });
  return warnings;
}

/**
 * `line` with every character that is not shell syntax replaced by a space: templates, the
 * inside of '…' and "…" (quotes kept), and a character after a `\`. A `$(…)` inside "…" is
 * blanked too: the scan does not follow nesting, and errs on the side of saying nothing.
 */
function syntaxOnly(line: string): string {
  const chars = line.split('');
  const blank = (from: number, to: number): void => {
    for (let k = from; k < Math.min(to, chars.length); k++) if (chars[k] !== '\n') chars[k] = ' ';
  };
  for (const span of templateSpans(line)) blank(span.index, line.indexOf('}}', span.index) + 2);
  let quote: "'" | '"' | null = null;
  for (let k = 0; k < chars.length; k++) {
    const c = chars[k];
    if (quote === null) {
      if (c === '\\') {
        blank(k + 1, k + 2);
        k++;
      } else if (c === "'" || c === '"') {
        quote = c;
      }
    } else if (c === quote) {
      quote = null;
    } else if (quote === '"' && c === '\\') {
      blank(k, k + 2);
      k++;
    } else {
      blank(k, k + 1);
    }
  }
  return chars.join('');
}
