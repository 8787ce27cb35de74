/**
 * `applyPins` as golden edits (config before → config after) and `stalePins`. Every golden
 * output is also re-parsed: it must hold the new pins and read exactly like the input otherwise.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse, parseDocument } from 'yaml';
import { applyPins, stalePins, type ApplyPinsOptions, type PinUpdate } from '../src/config/pin.ts';
import { loaded, yaml } from './fixtures/config/check.ts';

/** Full 64-digit revisions, as `computeRevision` returns them. */
const REV = '3f9a1c2b7d4e'.padEnd(64, '5');
const REV2 = 'abcdef012345'.padEnd(64, '6');
const DIGITS = '123456789012'.padEnd(64, 'a');
const FLOATY = '1e5123456789'.padEnd(64, 'b');

interface Golden {
  name: string;
  before: string;
  updates: PinUpdate[];
  options?: ApplyPinsOptions;
  after: string;
}

const goldens: Golden[] = [
  {
    name: 'block mapping: inserted after path:, same indentation, trailing comment kept',
    before: yaml`
      version: 1
      suites:
        - id: capitals
          testset:
            path: testsets/capitals.csv   # the rows
            tags: [smoke]
          function: ./app/answer.ts#answer
    `,
    updates: [{ suiteIndex: 0, revision: REV }],
    after: yaml`
      version: 1
      suites:
        - id: capitals
          testset:
            path: testsets/capitals.csv   # the rows
            revision: 3f9a1c2b7d4e
            tags: [smoke]
          function: ./app/answer.ts#answer
    `,
  },
  {
    name: 'block mapping: path: is last, the next key is the suite’s',
    before: yaml`
      version: 1
      suites:
        - id: a
          testset:
            tags: [smoke]
            path: a.csv
          function: ./f.ts#f
    `,
    updates: [{ suiteIndex: 0, revision: REV }],
    after: yaml`
      version: 1
      suites:
        - id: a
          testset:
            tags: [smoke]
            path: a.csv
            revision: 3f9a1c2b7d4e
          function: ./f.ts#f
    `,
  },
  {
    name: 'block mapping without path: or cases: gets the pin at its end',
    before: yaml`
      version: 1
      suites:
        - id: a
          testset:
            id: shared
            tags: [smoke]
          function: ./f.ts#f
    `,
    updates: [{ suiteIndex: 0, revision: REV }],
    after: yaml`
      version: 1
      suites:
        - id: a
          testset:
            id: shared
            tags: [smoke]
            revision: 3f9a1c2b7d4e
          function: ./f.ts#f
    `,
  },
  {
    name: 'flow mapping stays flow',
    before: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
        - id: b
          testset: {path: b.csv, tags: [x]}   # spacing as written
    `,
    updates: [
      { suiteIndex: 0, revision: REV },
      { suiteIndex: 1, revision: REV2 },
    ],
    after: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv, revision: 3f9a1c2b7d4e }
        - id: b
          testset: {path: b.csv, revision: abcdef012345, tags: [x]}   # spacing as written
    `,
  },
  {
    name: 'flow mapping over several lines',
    before: yaml`
      version: 1
      suites:
        - id: a
          testset: {
            path: a.csv,  # the rows
          }
    `,
    updates: [{ suiteIndex: 0, revision: REV }],
    after: yaml`
      version: 1
      suites:
        - id: a
          testset: {
            path: a.csv, revision: 3f9a1c2b7d4e,  # the rows
          }
    `,
  },
  {
    name: 'existing pins replaced: plain, double-quoted, single-quoted, tagged',
    before: yaml`
      version: 1
      suites:
        - id: a
          testset:
            path: a.csv
            revision: 000000aaaaaa   # pinned in March
        - id: b
          testset: { path: b.csv, revision: "000000bbbbbb" }
        - id: c
          testset:
            revision: '000000cccccc'
            path: c.csv
        - id: d
          testset:
            path: d.csv
            revision: !!str 000000dddddd
    `,
    updates: [
      { suiteIndex: 0, revision: REV },
      { suiteIndex: 1, revision: REV2 },
      { suiteIndex: 2, revision: REV },
      { suiteIndex: 3, revision: REV2 },
    ],
    after: yaml`
      version: 1
      suites:
        - id: a
          testset:
            path: a.csv
            revision: 3f9a1c2b7d4e   # pinned in March
        - id: b
          testset: { path: b.csv, revision: "abcdef012345" }
        - id: c
          testset:
            revision: '3f9a1c2b7d4e'
            path: c.csv
        - id: d
          testset:
            path: d.csv
            revision: !!str abcdef012345
    `,
  },
  {
    name: 'a longer existing pin keeps its length; a shorter one grows to the default',
    before: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv, revision: 0123456789abcdef01 }
        - id: b
          testset: { path: b.csv, revision: 0a1b2c }
    `,
    updates: [
      { suiteIndex: 0, revision: REV },
      { suiteIndex: 1, revision: REV },
    ],
    after: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv, revision: 3f9a1c2b7d4e555555 }
        - id: b
          testset: { path: b.csv, revision: 3f9a1c2b7d4e }
    `,
  },
  {
    name: 'length option: full ids',
    before: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
    `,
    updates: [{ suiteIndex: 0, revision: REV }],
    options: { length: 64 },
    after: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv, revision: ${REV} }
    `,
  },
  {
    name: 'empty revision: gets a value after its colon, before its comment',
    before: yaml`
      version: 1
      suites:
        - id: a
          testset:
            path: a.csv
            revision:   # fill me
    `,
    updates: [{ suiteIndex: 0, revision: REV }],
    after: yaml`
      version: 1
      suites:
        - id: a
          testset:
            path: a.csv
            revision: 3f9a1c2b7d4e   # fill me
    `,
  },
  {
    name: 'comments everywhere, schema line, document start, blank lines',
    before: yaml`
      # yaml-language-server: $schema=./node_modules/evalgate/schemas/evals.schema.json
      ---
      # The evals of the answer service.
      version: 1

      suites:
        # Capitals: the smoke suite.
        - id: capitals   # keep this id stable
          # rows live next to the config
          testset:
            # a CSV file
            path: testsets/capitals.csv # trailing
            # only the smoke rows
            tags: [smoke]

        # Second suite, between suites.
        - id: other
          testset:
            path: other.csv
      # the end
    `,
    updates: [
      { suiteIndex: 0, revision: REV },
      { suiteIndex: 1, revision: REV2 },
    ],
    after: yaml`
      # yaml-language-server: $schema=./node_modules/evalgate/schemas/evals.schema.json
      ---
      # The evals of the answer service.
      version: 1

      suites:
        # Capitals: the smoke suite.
        - id: capitals   # keep this id stable
          # rows live next to the config
          testset:
            # a CSV file
            path: testsets/capitals.csv # trailing
            revision: 3f9a1c2b7d4e
            # only the smoke rows
            tags: [smoke]

        # Second suite, between suites.
        - id: other
          testset:
            path: other.csv
            revision: abcdef012345
      # the end
    `,
  },
  {
    name: 'CRLF line endings',
    before:
      'version: 1\r\nsuites:\r\n  - id: a   # first\r\n    testset:\r\n      path: a.csv\r\n' +
      '  - id: b\r\n    testset: { path: b.csv, revision: 000000aaaaaa }\r\n',
    updates: [
      { suiteIndex: 0, revision: REV },
      { suiteIndex: 1, revision: REV2 },
    ],
    after:
      'version: 1\r\nsuites:\r\n  - id: a   # first\r\n    testset:\r\n      path: a.csv\r\n' +
      '      revision: 3f9a1c2b7d4e\r\n' +
      '  - id: b\r\n    testset: { path: b.csv, revision: abcdef012345 }\r\n',
  },
  {
    name: 'no line break at the end of the file',
    before: 'version: 1\nsuites:\n  - id: a\n    testset:\n      path: a.csv  # last',
    updates: [{ suiteIndex: 0, revision: REV }],
    after:
      'version: 1\nsuites:\n  - id: a\n    testset:\n      path: a.csv  # last\n      revision: 3f9a1c2b7d4e',
  },
  {
    name: 'defaults, several suites, only some updated, anchors and aliases elsewhere',
    before: yaml`
      version: 1
      defaults:
        concurrency: 8        # cases in flight per suite
        timeout: 30s
      suites:
        - id: one
          testset:
            path: one.csv
          evaluators:
            - id: exact
              use: is-equals
              with: &exact { expected: "{{case.answer}}",   actual: "{{output}}" }
        - id: two
          testset:
            path: two.csv
            revision: 000000aaaaaa
          evaluators:
            - use: is-equals
              with: *exact
        - id: three
          testset: { path: three.csv }
    `,
    updates: [
      { suiteIndex: 2, revision: REV2 },
      { suiteIndex: 0, revision: REV },
    ],
    after: yaml`
      version: 1
      defaults:
        concurrency: 8        # cases in flight per suite
        timeout: 30s
      suites:
        - id: one
          testset:
            path: one.csv
            revision: 3f9a1c2b7d4e
          evaluators:
            - id: exact
              use: is-equals
              with: &exact { expected: "{{case.answer}}",   actual: "{{output}}" }
        - id: two
          testset:
            path: two.csv
            revision: 000000aaaaaa
          evaluators:
            - use: is-equals
              with: *exact
        - id: three
          testset: { path: three.csv, revision: abcdef012345 }
    `,
  },
  {
    name: 'inline cases: block list, flow list, flow mapping',
    before: yaml`
      version: 1
      suites:
        - id: block
          testset:
            cases:
              - { question: "2+2?", answer: "4" }
              - question: Capital of France?   # a block item
                answer: Paris

            tags: [smoke]
        - id: flow
          testset:
            cases: [{ q: a }, { q: b }]
        - id: inline
          testset: { cases: [{ q: a }] }
    `,
    updates: [
      { suiteIndex: 0, revision: REV },
      { suiteIndex: 1, revision: REV2 },
      { suiteIndex: 2, revision: REV },
    ],
    after: yaml`
      version: 1
      suites:
        - id: block
          testset:
            cases:
              - { question: "2+2?", answer: "4" }
              - question: Capital of France?   # a block item
                answer: Paris
            revision: 3f9a1c2b7d4e

            tags: [smoke]
        - id: flow
          testset:
            cases: [{ q: a }, { q: b }]
            revision: abcdef012345
        - id: inline
          testset: { cases: [{ q: a }], revision: 3f9a1c2b7d4e }
    `,
  },
  {
    name: '4-space indentation',
    before: yaml`
      version: 1
      suites:
          -   id: a
              testset:
                  path: a.csv
          -   id: b
              testset:
                  path: b.csv
    `,
    updates: [{ suiteIndex: 1, revision: REV }],
    after: yaml`
      version: 1
      suites:
          -   id: a
              testset:
                  path: a.csv
          -   id: b
              testset:
                  path: b.csv
                  revision: 3f9a1c2b7d4e
    `,
  },
  {
    name: 'numeric-looking revisions are quoted; a quoted pin that no longer needs it keeps its quotes',
    before: yaml`
      version: 1
      suites:
        - id: int
          testset: { path: a.csv }
        - id: float
          testset:
            path: b.csv
            revision: 000000aaaaaa
        - id: quoted
          testset: { path: c.csv, revision: '123456123456' }
    `,
    updates: [
      { suiteIndex: 0, revision: DIGITS },
      { suiteIndex: 1, revision: FLOATY },
      { suiteIndex: 2, revision: REV },
    ],
    after: yaml`
      version: 1
      suites:
        - id: int
          testset: { path: a.csv, revision: "123456789012" }
        - id: float
          testset:
            path: b.csv
            revision: "1e5123456789"
        - id: quoted
          testset: { path: c.csv, revision: '3f9a1c2b7d4e' }
    `,
  },
  {
    name: '${VAR} strings untouched',
    before: yaml`
      version: 1
      suites:
        - id: a
          testset:
            path: \${TESTSETS:-testsets}/a.csv
          function: "\${APP_DIR}/answer.ts#answer"
          evaluators:
            - use: contains
              with: { value: "\${EXPECTED}" }
    `,
    updates: [{ suiteIndex: 0, revision: REV }],
    after: yaml`
      version: 1
      suites:
        - id: a
          testset:
            path: \${TESTSETS:-testsets}/a.csv
            revision: 3f9a1c2b7d4e
          function: "\${APP_DIR}/answer.ts#answer"
          evaluators:
            - use: contains
              with: { value: "\${EXPECTED}" }
    `,
  },
  {
    name: 'odd but valid spellings: block scalar pin, explicit key, document end',
    before: yaml`
      version: 1
      suites:
        - id: a
          testset:
            path: a.csv
            revision: |
              000000aaaaaa
            tags: [x]
        - id: b
          testset:
            ? path
            : b.csv
      ...
    `,
    updates: [
      { suiteIndex: 0, revision: REV },
      { suiteIndex: 1, revision: REV2 },
    ],
    after: yaml`
      version: 1
      suites:
        - id: a
          testset:
            path: a.csv
            revision: 3f9a1c2b7d4e
            tags: [x]
        - id: b
          testset:
            ? path
            : b.csv
            revision: abcdef012345
      ...
    `,
  },
  {
    name: 'nothing to update: the text as it was',
    before: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
    `,
    updates: [],
    after: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
    `,
  },
];

/** What `applyPins` wrote for a suite: the value now at `suites[i].testset.revision`. */
function pinnedValues(text: string, updates: PinUpdate[]): Map<number, unknown> {
  const data = parse(text, { merge: true }) as { suites: { testset: { revision?: unknown } }[] };
  return new Map(updates.map((u) => [u.suiteIndex, data.suites[u.suiteIndex]?.testset.revision]));
}

/** The input's data with only the pins replaced must equal the output's data. */
function assertOnlyPinsChanged(before: string, after: string, updates: PinUpdate[]): void {
  const doc = parseDocument(after, { merge: true, uniqueKeys: true });
  assert.deepEqual(doc.errors, []);
  const expected = parse(before, { merge: true }) as {
    suites: { testset: Record<string, unknown> }[];
  };
  for (const [index, value] of pinnedValues(after, updates)) {
    const revision = updates.find((u) => u.suiteIndex === index)?.revision ?? '';
    assert.equal(typeof value, 'string', `suites[${index}].testset.revision is a string`);
    assert.ok(revision.startsWith(value as string), `suites[${index}] pin is a prefix`);
    const testset = expected.suites[index]?.testset;
    assert.ok(testset);
    testset.revision = value;
  }
  assert.deepEqual(doc.toJS(), expected);
}

describe('applyPins', () => {
  for (const golden of goldens) {
    it(golden.name, () => {
      const first = applyPins(golden.before, golden.updates, golden.options);
      assert.deepEqual(first, { ok: true, text: golden.after });
      assertOnlyPinsChanged(golden.before, golden.after, golden.updates);

      // Idempotent: the same pins again change nothing.
      const second = applyPins(golden.after, golden.updates, golden.options);
      assert.deepEqual(second, { ok: true, text: golden.after });
    });
  }

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
