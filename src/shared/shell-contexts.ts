/**
 * Where each template of a `shell: true` command line sits, as POSIX `sh` reads the line, and
 * what stands there for its value, which the command gets in an environment variable.
 *
 * The reference is written for the context its template is in: unquoted, inside '…' or inside
 * "…". A template where the scan cannot be sure of the context (a command substitution,
 * backticks, a parameter or arithmetic expansion, a here-document, a comment, bash's $'…') is
 * refused: the scan says where it is instead of guessing. The scan is kept on the cautious side:
 * when it cannot tell where a construct ends (`case` inside `$(…)`), it reads on as if still
 * inside, which refuses templates rather than writing a reference for the wrong context. Safety
 * does not rest on the scan: a value is never in the line, so a misread context gives wrong
 * text, never a command.
 */

import { templateSpans, textPieces } from './templates.ts';

/** The quoting contexts a template's value can be made literal in. */
export type ShellContext = 'unquoted' | 'single' | 'double';

/** A template's context, or where it is when the scan cannot be sure of the context. */
export type TemplateContext = { ok: true; context: ShellContext } | { ok: false; where: string };

/**
 * What stands in a command line for a value held in the environment variable `name`, for the
 * context its template sits in: an expansion in double quotes, which the shell never reads
 * again as syntax (no splitting, no globbing, no command substitution). Were the context misread,
 * the text would come out wrong, never run: the value itself is never in the line.
 */
export function shellReference(name: string, context: ShellContext): string {
  switch (context) {
    case 'unquoted':
      return `"\${${name}}"`;
    case 'single':
      // Close the user's quote, the expansion in double quotes, reopen it.
      return `'"\${${name}}"'`;
    case 'double':
      return `\${${name}}`;
  }
}

/** A template of a command line that no quoting makes literal, with where it is. */
export interface RefusedTemplate {
  expression: string;
  /** Index of its `{{` in the line as written. */
  index: number;
  where: string;
}

/** The context of each template of a command line as written (`echo '{{ case.a }}'`). */
export function shellLineContexts(line: string): TemplateContext[] {
  return shellTemplateContexts(textPieces(line));
}

/** The templates of a command line whose context the scan cannot be sure of. */
export function refusedShellTemplates(line: string): RefusedTemplate[] {
  const spans = templateSpans(line);
  return shellLineContexts(line).flatMap((context, i) =>
    context.ok
      ? []
      : [{ expression: spans[i]!.expression, index: spans[i]!.index, where: context.where }],
  );
}

/** Why a refused template is refused, in words for a config issue. */
export function refusedTemplateMessage({ expression, where }: RefusedTemplate): string {
  return `template {{ ${expression} }} is ${where}, where evalgate cannot be sure how the shell reads it: move it out, into an argument of its own, or into env: (VALUE: "{{ ${expression} }}") and write "$VALUE" in its place`;
}

type Frame =
  /** Commands: the line itself (`closer` null), `$(…)`, `$((…))` or `((…))` (closer `)`). */
  | {
      kind: 'script';
      closer: ')' | null;
      /** `$((…))`: no comments, here-documents or `case` in there (`1<<2` shifts). */
      arithmetic: boolean;
      depth: number;
      cases: number;
      where: string;
    }
  | { kind: 'single' | 'double' | 'backtick' | 'ansi' | 'comment' }
  /** `${…}` or bash's `$[…]`: ends at the matching `close`. */
  | { kind: 'expansion'; open: string; close: string; depth: number; where: string }
  | { kind: 'heredoc-word'; word: string; started: boolean; quote: string; stripTabs: boolean }
  | { kind: 'heredoc'; ends: HeredocEnd[]; line: string; templated: boolean };

interface HeredocEnd {
  word: string;
  stripTabs: boolean;
}

/** Where a template inside each frame kind is, for the frames that refuse templates. */
const REFUSED: Partial<Record<Frame['kind'], string>> = {
  backtick: 'inside a `…` command substitution',
  ansi: "inside $'…' quoting",
  comment: 'inside a # comment',
  'heredoc-word': "in a here-document's delimiter",
  heredoc: 'inside a here-document',
};

/** Characters that end an unquoted word (and the `<<` delimiter). */
const BREAKS = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);

/**
 * The context of each template of a command line given as its literal `pieces` (the text around
 * the templates, escapes undone: one more piece than templates).
 */
export function shellTemplateContexts(pieces: readonly string[]): TemplateContext[] {
  const scan = new Scan();
  const contexts: TemplateContext[] = [];
  pieces.forEach((piece, i) => {
    scan.read(piece);
    if (i < pieces.length - 1) contexts.push(scan.template());
  });
  return contexts;
}

class Scan {
  private frames: Frame[] = [
    { kind: 'script', closer: null, arithmetic: false, depth: 0, cases: 0, where: '' },
  ];
  /** Here-documents started on the current line: their bodies begin at its end. */
  private pending: HeredocEnd[] = [];
  /** A backslash waiting for the character it escapes. */
  private escaped = false;
  /** The piece read last ended with a `$` that the next character would join. */
  private dollar = false;
  /**
   * Set once the line holds a construct whose end /bin/sh and bash (or this scan) may read
   * differently: every template after it is refused, as the scan cannot be sure where it is.
   */
  private unsure: string | undefined;
  /** The next character starts a word (so `#` starts a comment). */
  private wordStart = true;
  /** The unquoted word being read in a command frame, to count `case` … `esac`. */
  private word = '';

  read(text: string): void {
    this.dollar = false;
    let i = 0;
    while (i < text.length) i += this.step(text, i);
  }

  template(): TemplateContext {
    const result = this.context();
    // The reference is a complete quoted piece of a word: nothing of it is read as syntax.
    this.escaped = false;
    this.wordStart = false;
    this.word += '\0';
    const top = this.top();
    if (top.kind === 'heredoc') top.templated = true;
    if (top.kind === 'heredoc-word') top.started = true;
    return result;
  }

  private context(): TemplateContext {
    if (this.unsure !== undefined) return { ok: false, where: this.unsure };
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const frame = this.frames[i]!;
      const refused =
        frame.kind === 'script' || frame.kind === 'expansion' ? frame.where : REFUSED[frame.kind];
      if (refused) return { ok: false, where: refused };
    }
    const top = this.top();
    if (top.kind === 'single') return { ok: true, context: 'single' };
    if (this.escaped) return { ok: false, where: 'right after a backslash' };
    if (this.dollar) return { ok: false, where: 'right after a $' };
    return { ok: true, context: top.kind === 'double' ? 'double' : 'unquoted' };
  }

  private top(): Frame {
    return this.frames[this.frames.length - 1]!;
  }

  /** Reads the construct at `text[i]`; how many characters it took (0: the frame ended there). */
  private step(text: string, i: number): number {
    const frame = this.top();
    const c = text[i]!;
    if (this.escaped && frame.kind !== 'single' && frame.kind !== 'comment') {
      this.escaped = false;
      if (frame.kind === 'heredoc-word') frame.word += c;
      if (frame.kind === 'heredoc') frame.line += c;
      this.wordStart = false;
      this.word += c;
      return 1;
    }
    switch (frame.kind) {
      case 'script':
        return this.command(frame, text, i);
      case 'single':
        if (c === "'") this.frames.pop();
        return 1;
      case 'ansi':
        // bash reads `\'` inside $'…' as a quote, /bin/sh (dash) as the end: past a backslash
        // the two disagree on where it ends.
        if (c === '\\') {
          this.unsure ??= "after a $'…' holding a backslash";
          this.escaped = true;
        } else if (c === "'") this.frames.pop();
        return 1;
      case 'backtick':
        if (c === '\\') this.escaped = true;
        else if (c === '`') this.frames.pop();
        return 1;
      case 'comment':
        // The newline is the command frame's: it may start a here-document's body.
        if (c !== '\n') return 1;
        this.frames.pop();
        return 0;
      case 'double':
        if (c === '"') {
          this.frames.pop();
          return 1;
        }
        return this.expansion(text, i);
      case 'expansion':
        if (c === frame.close && frame.depth === 0) {
          this.frames.pop();
          return 1;
        }
        if (c === frame.open) frame.depth++;
        if (c === frame.close) frame.depth--;
        if (c === "'") this.frames.push({ kind: 'single' });
        if (c === '"') this.frames.push({ kind: 'double' });
        return c === "'" || c === '"' ? 1 : this.expansion(text, i);
      case 'heredoc-word':
        return this.heredocWord(frame, c);
      case 'heredoc':
        return this.heredocLine(frame, c);
    }
  }

  /** `\`, backticks and `$…` where they are special (commands, "…", `${…}`); else one character. */
  private expansion(text: string, i: number): number {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '\\') this.escaped = true;
    else if (c === '`') this.frames.push({ kind: 'backtick' });
    else if (c === '$' && next === undefined) this.dollar = true;
    else if (c === '$' && next === '(') {
      const arithmetic = text[i + 2] === '(';
      this.frames.push({
        kind: 'script',
        closer: ')',
        arithmetic,
        depth: arithmetic ? 1 : 0,
        cases: 0,
        where: arithmetic
          ? 'inside a $((…)) arithmetic expansion'
          : 'inside a $(…) command substitution',
      });
      this.wordStart = true;
      this.word = '';
      return arithmetic ? 3 : 2;
    } else if (c === '$' && (next === '{' || next === '[')) {
      this.frames.push({
        kind: 'expansion',
        open: next,
        close: next === '{' ? '}' : ']',
        depth: 0,
        where: next === '{' ? 'inside a ${…} parameter expansion' : 'inside a $[…] expansion',
      });
      return 2;
    }
    return 1;
  }

  private command(frame: Frame & { kind: 'script' }, text: string, i: number): number {
    const c = text[i]!;
    const next = text[i + 1];
    const atWordStart = this.wordStart && !frame.arithmetic;
    if (BREAKS.has(c) && !frame.arithmetic) {
      // `case` … `esac` inside $(…): a pattern's `)` does not end the substitution.
      if (this.word === 'case') {
        frame.cases++;
        // `esac` as an argument, `(pattern)`: where the substitution ends is not sure.
        if (frame.closer === ')') this.unsure ??= 'after a case … esac inside $(…)';
      }
      if (this.word === 'esac' && frame.cases > 0) frame.cases--;
      this.word = '';
      this.wordStart = true;
    } else {
      this.word += c;
      this.wordStart = false;
    }
    if (c === "'" || c === '"') {
      this.frames.push({ kind: c === "'" ? 'single' : 'double' });
    } else if (c === '$' && (next === "'" || next === '"') && !frame.arithmetic) {
      // bash reads $'…' with escapes of its own, and $"…" as "…".
      this.frames.push({ kind: next === "'" ? 'ansi' : 'double' });
      return 2;
    } else if (c === '#' && atWordStart) {
      this.frames.push({ kind: 'comment' });
    } else if (c === '(' && next === '(' && atWordStart) {
      // bash reads ((…)) as arithmetic (which expands $(…) even inside quotes), /bin/sh as two
      // subshells: its templates are refused, and it is read as commands, so a here-document
      // or a comment in it is seen (in arithmetic, `<<` then refuses the rest: cautious).
      this.frames.push({
        kind: 'script',
        closer: ')',
        arithmetic: false,
        depth: 1,
        cases: 0,
        where: 'inside ((…)), which bash reads as arithmetic and /bin/sh as subshells',
      });
      this.wordStart = true;
      this.word = '';
      return 2;
    } else if (c === '(') {
      frame.depth++;
    } else if (c === ')' && frame.closer === ')') {
      if (frame.depth > 0) frame.depth--;
      else if (frame.cases === 0) this.frames.pop();
    } else if (c === '<' && next === '<' && !frame.arithmetic) {
      if (text[i + 2] === '<') return 3; // bash's here-string: a word like any other
      const stripTabs = text[i + 2] === '-';
      this.frames.push({ kind: 'heredoc-word', word: '', started: false, quote: '', stripTabs });
      return stripTabs ? 3 : 2;
    } else if (c === '\n' && this.pending.length > 0 && !frame.arithmetic) {
      this.frames.push({ kind: 'heredoc', ends: this.pending, line: '', templated: false });
      this.pending = [];
    } else {
      return this.expansion(text, i);
    }
    return 1;
  }

  /** The delimiter after `<<`: blanks, then one word whose quotes are removed. */
  private heredocWord(frame: Frame & { kind: 'heredoc-word' }, c: string): number {
    if (frame.quote !== '') {
      if (c === frame.quote) frame.quote = '';
      else frame.word += c;
      return 1;
    }
    if (!frame.started && (c === ' ' || c === '\t')) return 1;
    if (frame.started && BREAKS.has(c)) {
      this.pending.push({ word: frame.word, stripTabs: frame.stripTabs });
      this.frames.pop();
      return 0;
    }
    frame.started = true;
    if (c === "'" || c === '"') frame.quote = c;
    else if (c === '\\') this.escaped = true;
    else frame.word += c;
    return 1;
  }

  /** A line of a here-document's body: the one that is its delimiter ends it. */
  private heredocLine(frame: Frame & { kind: 'heredoc' }, c: string): number {
    if (c !== '\n') {
      frame.line += c;
      return 1;
    }
    const line = frame.ends[0]?.stripTabs ? frame.line.replace(/^\t+/, '') : frame.line;
    if (!frame.templated && line === frame.ends[0]?.word) frame.ends.shift();
    frame.line = '';
    frame.templated = false;
    if (frame.ends.length === 0) {
      this.frames.pop();
      this.wordStart = true;
      this.word = '';
    }
    return 1;
  }
}
