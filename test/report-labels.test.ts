import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { describeRun, formatCost, shortId, shortSha, startDate } from '../src/report/labels.ts';
import { describeOriginMarkdown } from '../src/report/markdown-text.ts';

describe('run and origin labels shared by the reports', () => {
  it('describeRun names a run by suite and grid params', () => {
    assert.equal(describeRun({ suite: 'capitals', params: {} }), 'capitals');
    assert.equal(
      describeRun({ suite: 'capitals', params: { model: 'large', temperature: 0 } }),
      'capitals · model=large temperature=0',
    );
  });

  it('shortId cuts a hash id to 12 characters and keeps a dedup id whole', () => {
    const hash = 'ab'.repeat(32);
    assert.equal(shortId(hash), 'abababababa…');
    assert.equal(shortId('question-0001'), 'question-0001');
    assert.equal(shortId('question-0002'), 'question-0002');
    assert.equal(shortId('abc123'), 'abc123');
    // Long numbers and hex words are dedup ids too: only a whole sha256 is a hash.
    assert.equal(shortId('2024010100001'), '2024010100001');
    assert.equal(shortId('deadbeef12345'), 'deadbeef12345');
  });

  it('shortSha and startDate', () => {
    assert.equal(shortSha('3f9a1c2d4e5f'), '3f9a1c2');
    assert.equal(startDate('2024-05-01T12:00:00.000Z'), '2024-05-01');
    assert.equal(startDate('yesterday'), undefined);
  });

  it('describeOriginMarkdown says each part it knows, in code spans', () => {
    const startedAt = '2024-05-01T12:00:00.000Z';
    assert.equal(
      describeOriginMarkdown({ git: { sha: '3f9a1c2d4e5f', ref: 'main' }, startedAt }),
      ' at `3f9a1c2` on `main` (2024-05-01)',
    );
    assert.equal(
      describeOriginMarkdown({ git: { sha: null, ref: 'feat/`x`' }, startedAt: '' }),
      ' on `` feat/`x` ``',
    );
    assert.equal(describeOriginMarkdown({ git: null, startedAt: 'n/a' }), '');
  });
});

describe('formatCost', () => {
  it('never shows a cost that is not nothing as $0.0000', () => {
    assert.equal(formatCost(0), '$0.0000');
    assert.equal(formatCost(0.000028), '$0.000028');
    assert.equal(formatCost(0.0000019), '$0.0000019');
    assert.equal(formatCost(1e-9), '<$0.000001');
    assert.equal(formatCost(0.01234), '$0.0123');
    assert.equal(formatCost(123.456), '$123.46');
    assert.equal(formatCost(17.51), '$17.51');
    assert.equal(formatCost(8.7551), '$8.76');
    assert.equal(formatCost(0.99994), '$0.9999');
  });
});
