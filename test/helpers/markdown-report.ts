/**
 * The markdown report as the report tests (`test/report-markdown-*.test.ts`) render and check it:
 * the marker, the invisible characters the escaping inserts, a renderer with the PR comment's
 * defaults, and a check that a document is safe for GitHub to render.
 */
import assert from 'node:assert/strict';
import { PR_COMMENT_MAX_CHARS } from '../../src/report/github-limits.ts';
import { renderMarkdownReport, type MarkdownOptions } from '../../src/report/markdown.ts';
import type { ResultsArtifact } from '../../src/types/index.ts';
import { reported } from './cases.ts';

/** The marker the reports render with. */
export const MARKER = '<!-- evalgate: evals.yaml -->';
/** The zero-width joiner the escaping puts after an `@`, so no mention is made. */
export const ZWJ = '\u200d';
/** The zero-width space the escaping puts into issue references and autolinks. */
export const ZWSP = '\u200b';

/** The markdown report of `artifact`, with the PR comment's defaults unless `options` says. */
export function render(artifact: ResultsArtifact, options: Partial<MarkdownOptions> = {}): string {
  return renderMarkdownReport(reported(artifact), {
    title: 'evals: evals.yaml',
    marker: MARKER,
    maxChars: PR_COMMENT_MAX_CHARS,
    sourceRoot: '',
    ...options,
  });
}

/**
 * Checks what GitHub would see, without a markdown parser: code blocks and code spans are
 * balanced and removed, and in what remains every `<` is one of the report's own tags, every
 * table row is as wide as its header, no line starts a heading or quote the report did not write, and
 * nothing can link, mention or reference. Returns the prose that was checked.
 */
export function assertSafeStructure(doc: string): string {
  const prose: string[] = [];
  let fence: string | null = null;
  let details = 0;
  let headed = false;
  let tableWidth: number | undefined;
  for (const line of doc.split('\n')) {
    if (fence !== null) {
      const close = /^ *(`{3,}) *$/.exec(line);
      if (close?.[1] !== undefined && close[1].length >= fence.length) fence = null;
      continue;
    }
    const open = /^ *(`{3,})$/.exec(line);
    if (open?.[1] !== undefined) {
      fence = open[1];
      continue;
    }
    if (line === MARKER) continue;
    if (line.startsWith('<details>')) {
      assert.match(
        line,
        /^<details><summary>([\d,]+ failing cases?( \([\d,]+ errored\))?|Statistics per grid point|Other case changes: [^<>]*)<\/summary>$/,
      );
      details++;
      continue;
    }
    if (line === '</details>') {
      details--;
      assert.ok(details >= 0, 'a </details> without its <details>');
      continue;
    }
    const text = withoutCodeSpans(line);
    if (/^#/.test(text)) {
      assert.match(text, /^(## [^#]|### (✅|❌) |#### )/, `heading: ${line}`);
      assert.ok(line.startsWith('## ') ? !headed : true, `a second title: ${line}`);
      headed ||= line.startsWith('## ');
    }
    assert.doesNotMatch(text, /^\s*>/, `quote: ${line}`);
    // Every row of a table is as wide as its header.
    if (text.startsWith('|')) {
      tableWidth ??= unescapedPipes(text);
      assert.equal(unescapedPipes(text), tableWidth, `table row: ${line}`);
    } else tableWidth = undefined;
    prose.push(text);
  }
  assert.equal(fence, null, 'an unclosed code block');
  assert.equal(details, 0, 'an unclosed <details>');

  // Backslash escapes make the next character literal; drop them before looking for syntax.
  const literal = prose.join('\n').replace(/\\[\s\S]/g, '');
  assert.doesNotMatch(literal, /</, 'raw HTML');
  assert.doesNotMatch(literal, /\[|!\[/, 'a link or image');
  assert.doesNotMatch(literal, /@[a-z0-9]/i, 'a mention');
  assert.doesNotMatch(literal, /#\d|\bGH-\d/i, 'an issue reference');
  assert.doesNotMatch(literal, /:\/\/|\bwww\./i, 'an autolink');
  assert.doesNotMatch(literal, /&(?!(amp|lt|gt);)/, 'an entity the report did not write');
  return prose.join('\n');
}

/** The line with every code span removed (escaped backticks do not open one). */
function withoutCodeSpans(line: string): string {
  let out = '';
  let i = 0;
  while (i < line.length) {
    const char = line[i] ?? '';
    if (char === '\\') {
      out += line.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (char !== '`') {
      out += char;
      i++;
      continue;
    }
    let run = 0;
    while (line[i + run] === '`') run++;
    const fence = '`'.repeat(run);
    let close = line.indexOf(fence, i + run);
    // A closer is a run of exactly the same length.
    while (close !== -1 && (line[close + run] === '`' || line[close - 1] === '`')) {
      close = line.indexOf(fence, close + 1);
    }
    assert.notEqual(close, -1, `an unclosed code span: ${line}`);
    out += ' ';
    i = close + run;
  }
  return out;
}

/** Pipes that GitHub's table parser splits on: those not preceded by an odd run of backslashes. */
function unescapedPipes(line: string): number {
  let count = 0;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '\\') {
      i++;
      continue;
    }
    if (line[i] === '|') count++;
  }
  return count;
}
