/**
 * `templatedStrings` finds the settings read once, as written, that hold a `{{ … }}` template: it
 * serves both a `judge:` block's check and a model target's connection check (baseUrl, apiKey,
 * headers), which repeated the same walk before.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { templatedStrings } from '../src/config/template-check.ts';

describe('templatedStrings', () => {
  it('gives the path of every string holding a template, at any depth, and no other', () => {
    const headers = { 'x-route': '{{ params.route }}', plain: 'v1', n: 3, escaped: '\\{{ not }}' };
    assert.deepEqual(templatedStrings(headers, ['suites', 0, 'target', 'headers']), [
      ['suites', 0, 'target', 'headers', 'x-route'],
    ]);
    const judge = { model: '{{ params.m }}', extra: ['a', '{{ case.q }}'], temperature: 0 };
    assert.deepEqual(templatedStrings(judge, ['defaults', 'judge']), [
      ['defaults', 'judge', 'model'],
      ['defaults', 'judge', 'extra', 1],
    ]);
    assert.deepEqual(templatedStrings('{{ params.port }}', ['baseUrl']), [['baseUrl']]);
    assert.deepEqual(templatedStrings(undefined, ['apiKey']), []);
  });
});
