/**
 * `applyPins` outside the goldens: pins the loader accepts, and the configs and options it
 * refuses; then `stalePins`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyPins, stalePins, type PinUpdate } from '../src/config/pin.ts';
import { loaded, yaml } from './fixtures/config/check.ts';
import { DIGITS, REV, REV2 } from './helpers/config-pin-goldens.ts';

describe('applyPins', () => {
  it('writes pins the loader accepts as the new revisions', () => {
    const before = yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
        - id: b
          testset:
            cases: [{ q: a }]
            revision: 000000aaaaaa
    `;
    const result = applyPins(before, [
      { suiteIndex: 0, revision: DIGITS },
      { suiteIndex: 1, revision: REV },
    ]);
    assert.ok(result.ok);
    const revisions = loaded(result.text).suites.map((suite) => suite.testset.revision);
    assert.deepEqual(revisions, ['123456789012', '3f9a1c2b7d4e']);
  });

  const failures: { name: string; before: string; updates: PinUpdate[]; message: RegExp }[] = [
    {
      name: 'testset is a string',
      before: 'version: 1\nsuites:\n  - id: a\n    testset: a.csv\n',
      updates: [{ suiteIndex: 0, revision: REV }],
      message:
        /^suites\[0\]\.testset: expected a mapping \(path: or cases:\), found the string "a\.csv" \(line 4\)$/,
    },
    {
      name: 'testset is missing',
      before: 'version: 1\nsuites:\n  - id: a\n',
      updates: [{ suiteIndex: 0, revision: REV }],
      message: /^suites\[0\]\.testset: missing/,
    },
    {
      name: 'suite is not a mapping',
      before: 'version: 1\nsuites:\n  - a\n',
      updates: [{ suiteIndex: 0, revision: REV }],
      message: /^suites\[0\]: expected a mapping, found the string "a"$/,
    },
    {
      name: 'suites is not a list',
      before: 'version: 1\nsuites: {}\n',
      updates: [{ suiteIndex: 0, revision: REV }],
      message: /^suites: expected a list, found a mapping$/,
    },
    {
      name: 'no such suite',
      before: 'version: 1\nsuites:\n  - id: a\n    testset: { path: a.csv }\n',
      updates: [{ suiteIndex: 3, revision: REV }],
      message: /^suites\[3\]: no such suite \(the config has 1\)$/,
    },
    {
      name: 'malformed YAML',
      before: 'version: 1\nsuites:\n  - id: a\n    testset: { path: a.csv\n',
      updates: [{ suiteIndex: 0, revision: REV }],
      message: /^the config is not valid YAML \(line \d+, column \d+\)/,
    },
    {
      name: 'testset through an alias',
      before:
        'version: 1\nsuites:\n  - id: a\n    testset: &ts { path: a.csv }\n  - id: b\n    testset: *ts\n',
      updates: [{ suiteIndex: 1, revision: REV }],
      message: /^suites\[1\]\.testset: an alias \(\*ts\) shared with other suites/,
    },
    {
      name: 'anchored testset that another suite aliases',
      before:
        'version: 1\nsuites:\n  - id: a\n    testset: &ts { path: a.csv }\n  - id: b\n    testset: *ts\n',
      updates: [{ suiteIndex: 0, revision: REV }],
      message: /^the edit would change more than the listed pins/,
    },
    {
      name: 'testset from a merge key',
      before:
        'base: &base\n  testset: { path: a.csv }\nversion: 1\nsuites:\n  - <<: *base\n    id: a\n',
      updates: [{ suiteIndex: 0, revision: REV }],
      message: /^suites\[0\]\.testset: comes from a merge key/,
    },
    {
      name: 'revision is a list',
      before: 'version: 1\nsuites:\n  - id: a\n    testset: { path: a.csv, revision: [x] }\n',
      updates: [{ suiteIndex: 0, revision: REV }],
      message: /^suites\[0\]\.testset\.revision: expected a hex string, found a list \(line 4\)$/,
    },
    {
      name: 'a suite listed twice',
      before: 'version: 1\nsuites:\n  - id: a\n    testset: { path: a.csv }\n',
      updates: [
        { suiteIndex: 0, revision: REV },
        { suiteIndex: 0, revision: REV2 },
      ],
      message: /^suites\[0\]: listed more than once$/,
    },
    {
      name: 'a revision that is not hex',
      before: 'version: 1\nsuites:\n  - id: a\n    testset: { path: a.csv }\n',
      updates: [{ suiteIndex: 0, revision: 'main' }],
      message: /^suites\[0\]: a revision must be 6 to 64 hex digits, got "main"$/,
    },
  ];
  for (const failure of failures) {
    it(`refuses: ${failure.name}`, () => {
      const result = applyPins(failure.before, failure.updates);
      assert.equal(result.ok, false);
      assert.match(result.ok ? '' : result.message, failure.message);
    });
  }

  it('refuses a pin length outside 6..64', () => {
    const text = 'version: 1\nsuites:\n  - id: a\n    testset: { path: a.csv }\n';
    for (const length of [5, 65, 8.5]) {
      assert.deepEqual(applyPins(text, [{ suiteIndex: 0, revision: REV }], { length }), {
        ok: false,
        message: `pin length must be an integer from 6 to 64, got ${length}`,
      });
    }
  });
});

describe('stalePins', () => {
  it('lists missing and mismatched pins; a case-insensitive prefix matches', () => {
    assert.deepEqual(
      stalePins([
        { suiteIndex: 0, suiteId: 'unpinned', pinned: undefined, current: REV },
        { suiteIndex: 1, suiteId: 'current', pinned: '3F9A1C2B7D4E', current: REV },
        { suiteIndex: 2, suiteId: 'full', pinned: REV, current: REV },
        { suiteIndex: 3, suiteId: 'old', pinned: 'abcdef012345', current: REV },
        { suiteIndex: 4, suiteId: 'too-short', pinned: '3f9a1', current: REV },
      ]),
      [
        { suiteIndex: 0, suiteId: 'unpinned', pinned: undefined, current: REV },
        { suiteIndex: 3, suiteId: 'old', pinned: 'abcdef012345', current: REV },
        { suiteIndex: 4, suiteId: 'too-short', pinned: '3f9a1', current: REV },
      ],
    );
  });
});
