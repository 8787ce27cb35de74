/**
 * The headline's `N suites of the baseline gone · ` was built twice (the Action's check-run
 * title and the terminal's verdict line), and `evals override` made a case id printable three
 * times over: each is one function now, so the views cannot drift apart. These pin what they say.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goneSuitesPrefix, shownCaseId } from '../src/report/labels.ts';

describe('goneSuitesPrefix', () => {
  it('says nothing for none, and counts the suites with their plural', () => {
    assert.equal(goneSuitesPrefix(0), '');
    assert.equal(goneSuitesPrefix(1), '1 suite of the baseline gone \u00b7 ');
    assert.equal(goneSuitesPrefix(2), '2 suites of the baseline gone \u00b7 ');
    assert.equal(goneSuitesPrefix(1200), '1,200 suites of the baseline gone \u00b7 ');
  });
});

describe('shownCaseId', () => {
  it('shortens a hash id and escapes a control character of a user id', () => {
    const hash = 'a'.repeat(64);
    assert.equal(shownCaseId(hash), `${'a'.repeat(11)}\u2026`);
    assert.equal(shownCaseId('case\u001b[31m'), 'case\\u001b[31m');
  });
});
