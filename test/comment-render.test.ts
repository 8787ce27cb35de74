/**
 * The pull-request comment as GitHub shows it: the markdown report of a run whose outputs hold
 * mentions, emoji shortcodes and markup, rendered by cmark-gfm (GitHub's own renderer; Debian's
 * package, installed by scripts/install-test-deps.sh) with GitHub's extensions, and the HTML
 * checked: no live @mention, no emoji shortcode from user text outside code, `<details>`
 * balanced, every table row as wide as its header, no markup from the results.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { openArtifactFile } from '../src/artifact/read.ts';
import { renderMarkdownReport } from '../src/report/markdown.ts';
import { reportedArtifact } from '../src/report/reported-cases.ts';
import { runInProcess } from './helpers/in-process.ts';
import { showProject } from './helpers/show-project.ts';
import { renderGfm } from './helpers/gfm.ts';

/** The HTML without code and preformatted blocks: the text GitHub's filters (emoji) act on. */
function outsideCode(html: string): string {
  return html.replace(/<pre[\s\S]*?<\/pre>/g, '').replace(/<code>[\s\S]*?<\/code>/g, '');
}

let markdown = '';
let html = '';

before(async () => {
  const dir = showProject();
  const run = await runInProcess(['run'], dir);
  assert.equal(run.code, 1, run.stderr);
  const file = openArtifactFile(join(dir, 'evals-results.json'), 'evals-results.json');
  const artifact = reportedArtifact(file.frame, (i) => file.cases(i));
  markdown = renderMarkdownReport(artifact, {
    title: 'evals: evals.yaml',
    marker: '<!-- evalgate: evals.yaml -->',
    maxChars: 65_536,
    sourceRoot: '',
    htmlReport: 'evals-report.html',
  });
  html = renderGfm(markdown);
});

describe('the PR comment rendered by cmark-gfm', () => {
  it('holds the hostile output, but no live mention, emoji shortcode or markup from it', () => {
    assert.ok(markdown.includes('octocat'), 'the output is in the comment');
    assert.doesNotMatch(outsideCode(html), /@octocat/);
    assert.doesNotMatch(outsideCode(html), /:[a-z0-9_+-]+:/i);
    assert.doesNotMatch(html, /<script/i);
  });

  it('balances <details>', () => {
    const open = html.match(/<details>/g)?.length ?? 0;
    const close = html.match(/<\/details>/g)?.length ?? 0;
    assert.equal(open, close);
  });

  it('keeps every table row as wide as its header', () => {
    const tables = html.match(/<table>[\s\S]*?<\/table>/g) ?? [];
    assert.ok(tables.length > 0, 'the comment has tables');
    for (const table of tables) {
      const rows = table.match(/<tr>[\s\S]*?<\/tr>/g) ?? [];
      const widths = rows.map((row) => row.match(/<t[hd][ >]/g)?.length ?? 0);
      assert.equal(new Set(widths).size, 1, `rows of different widths: ${widths.join(', ')}`);
    }
  });

  it('says where the HTML report is', () => {
    assert.match(html, /HTML report: <code>evals-report\.html<\/code>/);
  });

  it('says why built-in evaluators failed, in numbers', () => {
    assert.match(html, /length 2,799 characters &gt; max 200/);
  });
});
