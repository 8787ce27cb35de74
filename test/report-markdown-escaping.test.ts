/**
 * The markdown text helpers of the reports: escapeMarkdownText (user text shown, never acted
 * on), codeSpan and codeBlock.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { codeBlock, codeSpan, escapeMarkdownText } from '../src/report/markdown-text.ts';
import { NASTY } from './report-fixture-large.ts';
import { assertSafeStructure, ZWJ, ZWSP } from './helpers/markdown-report.ts';

describe('escapeMarkdownText', () => {
  const cases: [string, string, string][] = [
    ['plain text stays', 'exact 0.5 of 3', 'exact 0.5 of 3'],
    ['HTML', '</details><b>x</b> & co', '&lt;/details&gt;&lt;b&gt;x&lt;/b&gt; &amp; co'],
    ['an entity shows as written', '&#64;x', `&amp;\\#${ZWSP}64;x`],
    ['table pipes and backslashes', 'a|b\\|c', 'a\\|b\\\\\\|c'],
    ['newlines become spaces', 'one\ntwo\r\nthree\rfour\u2028five', 'one two three four five'],
    ['code and emphasis', '`x` *y* _z_ ~~w~~ $m$', '\\`x\\` \\*y\\* \\_z\\_ \\~\\~w\\~\\~ \\$m\\$'],
    ['links and images', '[a](b) ![c](d)', '\\[a\\](b) \\!\\[c\\](d)'],
    ['a heading', '# title', '\\# title'],
    ['a quote', '> quoted', '&gt; quoted'],
    ['a list', '- item', '\\- item'],
    ['a plus list', '+ item', '\\+ item'],
    ['an ordered list', '12. item', '12\\. item'],
    ['a number is not a list', '0.167', '0.167'],
    ['a setext underline', '===', '\\==='],
    ['mentions', '@octocat @org/team a@b.c', `@${ZWJ}octocat @${ZWJ}org/team a@${ZWJ}b.c`],
    ['issue references', '#12 GH-3 o/r#4 #x', `\\#${ZWSP}12 GH-${ZWSP}3 o/r\\#${ZWSP}4 \\#x`],
    ['autolinks', 'https://x.y www.x.y', `https:${ZWSP}//x.y www${ZWSP}.x.y`],
    ['controls and bidi', 'a\u0000b\u001bc\u202ed\te', 'a\\\\u0000b\\\\u001bc\\\\u202ed e'],
    ['a lone surrogate', 'a\ud800b', 'a\ufffdb'],
  ];
  for (const [name, input, expected] of cases) {
    it(name, () => assert.equal(escapeMarkdownText(input), expected));
  }

  it('leaves nothing of the nasty text active', () => {
    const escaped = escapeMarkdownText(NASTY);
    assert.doesNotMatch(escaped, /\n/);
    assertSafeStructure(`x ${escaped}`);
  });
});

describe('codeSpan', () => {
  const cases: [string, string, string][] = [
    ['plain', 'a b', '`a b`'],
    ['a backtick inside', 'a`b', '``a`b``'],
    ['a run of three', 'x```y``z', '````x```y``z````'],
    ['backticks at the ends get padding', '`x`', '`` `x` ``'],
    ['spaces at both ends are kept', ' x ', '`  x  `'],
    ['only spaces', '   ', '`   `'],
    ['empty', '', '` `'],
    ['newlines become spaces', 'a\nb', '`a b`'],
    ['HTML, mentions and pipes are inert in code', '<b>@x|#1', '`<b>@x|#1`'],
    ['controls show', 'a\u001bb', '`a\\u001bb`'],
  ];
  for (const [name, input, expected] of cases) {
    it(name, () => assert.equal(codeSpan(input), expected));
  }
});

describe('codeBlock', () => {
  it('fences with three backticks and indents every non-empty line', () => {
    assert.equal(codeBlock('a\n\n b', '  '), '  ```\n  a\n\n   b\n  ```');
  });

  it('uses a fence longer than any backtick run inside', () => {
    const block = codeBlock('```\nx ````` y\n```', '');
    assert.equal(block.split('\n')[0], '``````');
    assert.equal(block.split('\n').at(-1), '``````');
  });

  it('normalises carriage returns and shows controls', () => {
    assert.equal(codeBlock('a\r\nb\rc\u0007'), '```\na\nb\nc\\u0007\n```');
  });
});
