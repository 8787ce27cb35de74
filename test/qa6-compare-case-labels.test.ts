/**
 * QA round 6, D8: `evals compare` names each case it lists (newly failing, fixed, added,
 * removed) by its label too, as the summary and `evals show` do: `3f9a1c2b7d4… "What is …"` in
 * text, the label escaped beside the id in markdown. A removed case, which HEAD does not have, is
 * named by BASE. Markdown stays valid: checked by the report tests' structure check and by
 * rendering it with cmark-gfm, GitHub's renderer.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { scratch } from './helpers/cli.ts';
import { artifact, run, type CaseSpec } from './helpers/compare-builder.ts';
import { runInProcess } from './helpers/in-process.ts';
import { assertSafeStructure } from './helpers/markdown-report.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { renderGfm } from './helpers/gfm.ts';

/** A hash id (as a case without a dedup id has), distinct per `n`. */
const id = (n: number): string =>
  `${n}`
    .repeat(64)
    .slice(0, 64)
    .replace(/[^0-9a-f]/g, 'a');

/** A label that is long and that markdown would read as a table cell, emphasis, a tag, a mention. */
const HOSTILE =
  'Which | pipe *and* <b>tag</b> @octocat #12 breaks the table, and goes on well past forty columns?';

const LABELS: Record<number, string> = {
  1: HOSTILE,
  2: 'What is 2 + 2?',
  3: 'Which river is the longest?',
  4: 'Which lake is the deepest?',
};

const spec = (n: number, score: number): CaseSpec => ({ id: id(n), scores: { exact: score } });

/** Gives each case its label as its `question`, the field a label is read from. */
function labelled(result: ResultsArtifact): ResultsArtifact {
  for (const r of result.runs) {
    for (const c of r.cases) {
      const n = Object.entries(LABELS).find(([k]) => id(Number(k)) === c.id)?.[0];
      c.data = { question: n === undefined ? `unchanged ${c.id.slice(0, 4)}` : LABELS[Number(n)] };
    }
  }
  return result;
}

function project(): string {
  const dir = scratch();
  // 1 newly failing, 2 fixed, 3 removed (BASE only), 4 added (HEAD only), 5-8 unchanged.
  const same = [5, 6, 7, 8].map((n) => spec(n, 1));
  const base = artifact([run('qa', {}, [spec(1, 1), spec(2, 0), spec(3, 1), ...same])]);
  const head = artifact(
    [run('qa', {}, [spec(1, 0), spec(2, 1), spec(4, 1), ...same])],
    'b'.repeat(40),
  );
  writeFileSync(join(dir, 'base.json'), JSON.stringify(labelled(base)));
  writeFileSync(join(dir, 'head.json'), JSON.stringify(labelled(head)));
  return dir;
}

/** `1111111111…`: the short id the lists give a hash id. */
const short = (n: number): string => `${id(n).slice(0, 11)}\u2026`;

describe('evals compare names the cases it lists by their labels (D8)', () => {
  it('in text: the short id and the label, quoted and cut as the summary cuts it', async () => {
    const out = await runInProcess(['compare', 'base.json', 'head.json'], project());
    assert.equal(out.code, 0, out.stderr);
    const text = out.stdout;
    assert.match(
      text,
      new RegExp(
        `newly failing \\(1\\)\\n {4}an alarm because:\\n {6}- 6 paired cases: too few to tell these flips from noise\\n\\s+${short(1)} "Which \\| pipe \\*and\\* <b>tag</b> @octocat …"`,
      ),
    );
    assert.match(text, new RegExp(`fixed \\(1\\)\\n\\s+${short(2)} "What is 2 \\+ 2\\?"`));
    assert.match(
      text,
      new RegExp(`removed \\(1\\)\\n\\s+${short(3)} "Which river is the longest\\?"`),
    );
    assert.match(
      text,
      new RegExp(`added \\(1\\)\\n\\s+${short(4)} "Which lake is the deepest\\?"`),
    );
  });

  it('in markdown: every list row labelled, escaped, and the document valid', async () => {
    const out = await runInProcess(
      ['compare', 'base.json', 'head.json', '--format', 'md'],
      project(),
    );
    assert.equal(out.code, 0, out.stderr);
    const md = out.stdout;
    assertSafeStructure(md);
    const rows = md.split('\n').filter((line) => line.startsWith('| `'));
    const row = (n: number): string =>
      rows.find((line) => line.startsWith(`| \`${short(n)}\``)) ?? '';
    assert.match(row(2), /What is 2 \+ 2\?/, md);
    assert.match(row(3), /Which river is the longest\?/, md);
    assert.match(row(4), /Which lake is the deepest\?/, md);
    // The hostile label: its pipe escaped (the row keeps its 3 cells), cut as the tables cut it.
    assert.match(row(1), /Which \\\| pipe/, md);
    assert.equal(row(1).split(/(?<!\\)\|/).length, 5, row(1));
    const html = renderGfm(md);
    // One cell holds the id and the label, read as text: no emphasis, tag or mention link made.
    assert.match(
      html,
      /<td align="left"><code>1{11}…<\/code> Which \| pipe \*and\* &lt;b&gt;tag&lt;\/b&gt; @\u200doctocat #\u200b12 breaks…<\/td>\n<td align="left"><code>testsets\/qa.csv:2<\/code><\/td>\n<td align="left">exact 0/,
      html,
    );
    // The footnote is the report's own emphasis; nothing else is emphasis, a tag or a link.
    assert.doesNotMatch(
      html.replace(/<p><em>Scores and pass rates:[^\n]*<\/em><\/p>/, ''),
      /<(em|b|a)\b/,
    );
    for (const label of [LABELS[2], LABELS[3], LABELS[4]])
      assert.ok(html.includes(label ?? ''), label);
  });
});
